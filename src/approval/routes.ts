// HTTP handler for the approval pages, mounted on the HTTP transport's port or on the dedicated loopback
// server. State changes are POSTs only and must carry three proofs that the person's own browser sent them
// from the page: the approval's form secret (hidden field), the same secret in a SameSite=Strict HttpOnly
// cookie scoped to the approval's path, and an Origin equal to the page's own.
// The page knows its viewer (src/identity/): with no identity configured it is this machine's user alone
// (loopback only); otherwise a person signed in — through the issuer (authorization code with PKCE) or with
// their token — into a session cookie sealed with a key the replicas share (HttpOnly, SameSite=Strict,
// Secure off loopback), a script sending the same bearer or access token as /mcp (JSON; no cookie, no form
// secret: browsers never send that header on their own), or the requester following the signed link of one
// request — which shows it and nothing more: whoever reads the assistant's answer has that link, so deciding
// needs the person's own sign-in. Who may see and decide what is the decision point's (src/policy/decide.ts),
// asked again on every request: a person removed from the tokens file decides nothing more, whatever cookie
// they hold, and a sign-in lasts no longer than the token it came from.
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Identity, osPerson, type Person, TokenRefused } from '../identity/index.js';
import { type Logger, silentLogger } from '../log.js';
import { isLoopbackHost } from '../net.js';
import { sameSecret } from '../policy/tokens.js';
import { StateError } from '../state/errors.js';
import { approvalJson, approvalPage, bouncePage, listPage, loginPage, messagePage } from './page.js';
import type { Approval, ApprovalStore, Viewer } from './store.js';

export type Routes = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
/** Sends a page with the security headers; true (handled). */
type Send = (status: number, html: string, headers?: Record<string, string | string[]>) => boolean;

export interface ApprovalRoutesOptions {
  store: ApprovalStore;
  /** Who may look: absent (or mode none) on a loopback page that this machine's user alone can reach. */
  identity?: Identity;
  /** Seals sign-in cookies and signed links (derived from DBOPS_TOKEN_SECRET: replicas share it). */
  key: Uint8Array;
  logger?: Logger;
}

const MAX_FORM = 8 * 1024;
const SESSION_MS = 12 * 3600_000;
const SIGN_IN_MS = 10 * 60_000;
const CSRF_COOKIE = 'dbops_csrf';
const AUTH_COOKIE = 'dbops_auth';
const OAUTH_COOKIE = 'dbops_oauth';
const ID = /^[A-Za-z0-9_-]{16,64}$/;

/** How a viewer was recognised: a script's header needs no form secret; the signed link covers one request. */
type Seen = Viewer & { by: 'alone' | 'header' | 'cookie' | 'link' };

export function createApprovalRoutes(opts: ApprovalRoutesOptions): Routes {
  const { store } = opts;
  const identity = opts.identity?.mode === 'none' ? undefined : opts.identity;
  const logger = opts.logger ?? silentLogger;
  const mac = (...parts: string[]) =>
    createHmac('sha256', opts.key).update(parts.join('\n')).digest('base64url');
  const b64 = (s: string) => Buffer.from(s).toString('base64url');
  const unb64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');
  const { decisions } = store;
  const viewer = (person: string, by: Seen['by']): Seen => ({
    person,
    approver: decisions.isApprover(person),
    by,
  });
  const stillKnown = (person: string) => identity?.stillKnown?.(person) ?? true;
  const alone = osPerson();
  const linkFor = (id: string, person: string) => signedLink(opts.key, id, person);

  /** Who looks; `approval` loads the request a signed link may open (read once for the whole page). */
  async function viewerOf(
    req: IncomingMessage,
    url: URL,
    approval: () => Promise<Approval | undefined>,
  ): Promise<Seen | TokenRefused | undefined> {
    if (!identity) return { ...viewer(alone.id, 'alone'), alone: true };
    if (req.headers.authorization) {
      try {
        return viewer((await identity.verify(req.headers.authorization)).id, 'header');
      } catch (e) {
        if (e instanceof TokenRefused) return e;
        throw e;
      }
    }
    const m = /^([A-Za-z0-9_-]{1,400})\.(\d{13})\.([A-Za-z0-9_-]{43})$/.exec(cookies(req)[AUTH_COOKIE] ?? '');
    if (
      m &&
      Number(m[2]) > Date.now() &&
      sameSecret(m[3] as string, mac('session', m[1] as string, m[2] as string)) &&
      stillKnown(unb64(m[1] as string))
    )
      return viewer(unb64(m[1] as string), 'cookie');
    const link = url.searchParams.get('as');
    if (link) {
      const a = await approval();
      const person = a?.requester?.person;
      if (a && person && sameSecret(link, linkFor(a.id, person))) return viewer(person, 'link');
    }
    return undefined;
  }

  const handler: Routes = async (req, res, url) => {
    const path = url.pathname;
    if (path !== '/approvals' && !path.startsWith('/approvals/')) return false;
    const nonce = randomBytes(12).toString('base64');
    const o = { nonce };
    const send = (status: number, html: string, headers: Record<string, string | string[]> = {}) => {
      res.writeHead(status, { ...securityHeaders(nonce), ...headers }).end(html);
      return true;
    };
    try {
      return await page(req, res, url, path, o, send);
    } catch (e) {
      if (!(e instanceof StateError)) throw e;
      logger.warn('approval page: shared state store unreachable', { path });
      return send(
        503,
        messagePage(
          'Try again in a moment',
          'The approvals cannot be read or decided right now (the shared state store is unreachable); nothing was decided. Reload this page in a moment.',
          o,
        ),
        { 'retry-after': '5' },
      );
    }
  };

  async function page(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    path: string,
    o: { nonce: string },
    send: Send,
  ): Promise<boolean> {
    const { nonce } = o;
    const json = (status: number, body: unknown) => {
      res
        .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(body));
      return true;
    };
    const wantsJson =
      url.searchParams.get('format') === 'json' || (req.headers.accept ?? '').startsWith('application/json');

    // Loopback only: refuse other Host names (DNS rebinding). Beyond loopback a person's sign-in is the guard.
    if (!identity && !isLoopbackHost(req.headers.host))
      return send(403, messagePage('Refused', 'This page is served to this computer only.', o));
    const post = req.method === 'POST';
    if (!post && req.method !== 'GET' && req.method !== 'HEAD')
      return send(405, messagePage('Not allowed', 'Use the buttons on the page.', o), { allow: 'GET, POST' });
    // A script's bearer header is never sent by a browser on its own: only cookie-carrying posts need the checks
    // (and with nobody told apart, every post is a browser's).
    const scripted = identity !== undefined && req.headers.authorization !== undefined;
    if (post && !scripted && !sameOrigin(req)) {
      logger.warn('approval page: cross-site request refused', {
        path,
        origin: req.headers.origin,
        fetchSite: req.headers['sec-fetch-site'],
      });
      return send(403, messagePage('Refused', 'This request did not come from the approval page.', o));
    }

    if (identity && path === '/approvals/login') {
      const next = safeNext(url.searchParams.get('next'));
      if (identity.oauth?.signIn && !post) return startSignIn(req, res, next, nonce);
      if (!post) return send(200, loginPage(next, o));
      const form = await readForm(req);
      const named = await personFor(form?.get('token') ?? '');
      if (!named) return send(401, loginPage(safeNext(form?.get('next')), o, 'That token is not valid.'));
      return signIn(res, named, safeNext(form?.get('next')), nonce);
    }
    if (identity?.oauth && path === '/approvals/callback') return finishSignIn(req, res, url, o, send);

    // Never an OAuth access token in a URL (OAuth 2.1 §5.1.1): the exchange is for the server's own tokens.
    if (identity && identity.mode !== 'oauth' && !post && url.searchParams.has('token')) {
      // One-time exchange of ?token= into a cookie; the redirect drops it from the address bar and history.
      const named = await personFor(url.searchParams.get('token') ?? '');
      if (!named) return send(401, loginPage(safeNext(path), o, 'That token is not valid.'));
      return signIn(res, named, safeNext(path), nonce);
    }

    const id = path.slice('/approvals/'.length);
    let loaded: Promise<Approval | undefined> | undefined;
    const approval = () => {
      loaded ??= ID.test(id) ? store.get(id) : Promise.resolve(undefined);
      return loaded;
    };
    const seen = await viewerOf(req, url, approval);
    if (seen instanceof TokenRefused) {
      res.setHeader('www-authenticate', identity?.challenge(seen) ?? 'Bearer');
      return json(seen.error === 'insufficient_scope' ? 403 : 401, {
        error: seen.error,
        detail: seen.message,
      });
    }
    if (!seen) {
      if (wantsJson) {
        res.setHeader('www-authenticate', identity?.challenge() ?? 'Bearer');
        return json(401, {
          error: 'unauthorized',
          detail: 'Send "Authorization: Bearer <token>", the same as for /mcp.',
        });
      }
      // The sign-in cookie is SameSite=Strict: a link followed from the assistant's window (another site)
      // arrives without it. One navigation from this page itself brings it along.
      if (!post && !url.searchParams.has('b')) {
        const again = new URL(url);
        again.searchParams.set('b', '1');
        return send(200, bouncePage(`${again.pathname}${again.search}`, o));
      }
      return send(401, loginPage(safeNext(path), o, undefined, identity?.oauth?.signIn === true));
    }

    if (path === '/approvals' || path === '/approvals/') {
      if (post) return send(405, messagePage('Not allowed', 'Nothing to submit here.', o), { allow: 'GET' });
      const items = await store.pending(seen);
      if (wantsJson)
        return json(200, {
          viewer: seen.person,
          approver: seen.approver,
          approvals: items.map((a) => approvalJson(a, seen, decisions)),
        });
      return send(200, listPage(items, store.now(), o, seen), { refresh: '15' });
    }

    const a = await approval();
    // Another person's request is "unknown" to a viewer who may not see it: its existence is not theirs either.
    if (!a || !decisions.maySee(a, seen) || (seen.by === 'link' && a.requester?.person !== seen.person)) {
      if (wantsJson) return json(404, { error: 'not found' });
      return send(
        404,
        messagePage(
          'Unknown approval',
          'No approval of yours has this address; it may have been removed.',
          o,
        ),
      );
    }
    const refusal = decisions.mayDecide(a, seen, 'approve');
    const look = {
      viewer: seen,
      ...(refusal ? { refusal } : {}),
      viewOnly: seen.by === 'link',
      fourEyes: decisions.secondPersonText(a.tool, seen.person),
    };

    if (!post) {
      if (wantsJson) return json(200, approvalJson(a, seen, decisions));
      const cookie = `${CSRF_COOKIE}=${a.secret}; Path=/approvals/${a.id}; HttpOnly; SameSite=Strict; Max-Age=${Math.max(
        1,
        Math.ceil((a.expiresAt.getTime() - store.now().getTime()) / 1000),
      )}${secure(req) ? '; Secure' : ''}`;
      return send(
        200,
        approvalPage(a, store.now(), o, undefined, look),
        a.state === 'pending' && !look.viewOnly ? { 'set-cookie': cookie } : {},
      );
    }

    if (seen.by === 'link') {
      logger.warn('approval page: a decision by link refused', { approvalId: a.id });
      return send(
        403,
        approvalPage(
          a,
          store.now(),
          o,
          'This link shows the request only: sign in as yourself to decide.',
          look,
        ),
      );
    }
    let decision: string | null | undefined;
    let secret: string | true = true;
    if (seen.by === 'header') {
      const body = await readJson(req);
      decision = typeof body?.decision === 'string' ? body.decision : undefined;
    } else {
      const form = await readForm(req);
      decision = form?.get('decision');
      secret = form?.get('csrf') ?? '';
      const cookieSecret = cookies(req)[CSRF_COOKIE] ?? '';
      if (form && !sameSecret(cookieSecret, secret)) {
        logger.warn('approval page: form secret and cookie differ', { approvalId: a.id });
        return send(403, messagePage('Refused', 'This request did not come from the approval page.', o));
      }
    }
    if (decision !== 'approve' && decision !== 'decline') {
      if (seen.by === 'header')
        return json(400, {
          error: 'bad request',
          detail: 'Send {"decision":"approve"} or {"decision":"decline"}.',
        });
      return send(400, approvalPage(a, store.now(), o, 'Choose Approve or Decline.', look));
    }
    const result = await store.decide(a.id, decision, secret, seen);
    if (result === 'forbidden' || result === 'unknown' || result === 'not-yours') {
      logger.warn('approval page: decision refused', { approvalId: a.id, result });
      if (seen.by === 'header')
        return json(403, { error: 'forbidden', detail: 'You may not decide this request.' });
      return send(403, messagePage('Refused', 'This request did not come from the approval page.', o));
    }
    if (result === 'four-eyes') {
      const detail = decisions.secondPersonText(a.tool, seen.person);
      if (seen.by === 'header') return json(403, { error: 'four_eyes', detail });
      return send(403, approvalPage(a, store.now(), o, detail, look));
    }
    if (result === 'revoked') {
      const detail = `${seen.person} may no longer decide (the token or approver role was removed); nothing was decided.`;
      if (seen.by === 'header') return json(403, { error: 'revoked', detail });
      return send(403, messagePage('Refused', detail, o));
    }
    const wanted = decision === 'approve' ? 'approved' : 'declined';
    if (result !== wanted) {
      const detail = `This approval was already ${result}; nothing was changed now.`;
      if (seen.by === 'header') return json(409, { error: 'conflict', detail, state: result });
      return send(409, approvalPage(a, store.now(), o, detail, look));
    }
    logger.info('approval decided', { approvalId: a.id, tool: a.tool, decision: result, by: seen.person });
    if (seen.by === 'header') return json(200, approvalJson((await store.get(a.id)) ?? a, seen, decisions));
    // Post/Redirect/Get: reloading the result page never re-submits the form.
    const back = `/approvals/${a.id}`;
    res.writeHead(303, { ...securityHeaders(nonce), location: back }).end();
    return true;
  }

  /** The person a token names (token file, the one token, or an access token), for the sign-in form. */
  async function personFor(token: string): Promise<Person | undefined> {
    if (!identity || !token) return undefined;
    try {
      return await identity.verify(`Bearer ${token}`);
    } catch {
      return undefined;
    }
  }

  /** A sign-in lasts 12 h at most, and never longer than the token it came from. */
  function sessionCookie(
    req: IncomingMessage | undefined,
    person: Pick<Person, 'id' | 'expiresAtMs'>,
  ): string {
    const untilMs = Math.min(Date.now() + SESSION_MS, person.expiresAtMs ?? Number.POSITIVE_INFINITY);
    const until = String(untilMs);
    const who = b64(person.id);
    const age = Math.max(0, Math.floor((untilMs - Date.now()) / 1000));
    return `${AUTH_COOKIE}=${who}.${until}.${mac('session', who, until)}; Path=/approvals; HttpOnly; SameSite=Strict; Max-Age=${age}${req && secure(req) ? '; Secure' : ''}`;
  }

  function signIn(res: ServerResponse, person: Person, next: string, nonce: string): boolean {
    // The form posted from this page: the redirect that follows is same-site, so the Strict cookie goes along.
    res
      .writeHead(303, {
        ...securityHeaders(nonce),
        location: next,
        'set-cookie': sessionCookie(res.req, person),
      })
      .end();
    return true;
  }

  /** To the issuer's sign-in, with PKCE: state and verifier ride in a short-lived sealed cookie. */
  async function startSignIn(
    req: IncomingMessage,
    res: ServerResponse,
    next: string,
    nonce: string,
  ): Promise<boolean> {
    const oauth = identity?.oauth;
    if (!oauth) return false;
    const { verifier, challenge } = oauth.pkce();
    const state = randomBytes(16).toString('base64url');
    const until = String(Date.now() + SIGN_IN_MS);
    const body = [state, verifier, b64(next), until].join('.');
    const to = await oauth.authorizeUrl(callbackUrl(), state, challenge, identity.resource());
    res
      .writeHead(303, {
        ...securityHeaders(nonce),
        location: to,
        // Lax: the issuer sends the person back with a top-level navigation from its own site.
        'set-cookie': `${OAUTH_COOKIE}=${body}.${mac('sign-in', body)}; Path=/approvals/callback; HttpOnly; SameSite=Lax; Max-Age=${SIGN_IN_MS / 1000}${secure(req) ? '; Secure' : ''}`,
      })
      .end();
    return true;
  }

  async function finishSignIn(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    o: { nonce: string },
    send: Send,
  ): Promise<boolean> {
    const oauth = identity?.oauth;
    const m = /^([\w-]+)\.([\w-]+)\.([\w-]*)\.(\d{13})\.([\w-]{43})$/.exec(cookies(req)[OAUTH_COOKIE] ?? '');
    const body = m ? `${m[1]}.${m[2]}.${m[3]}.${m[4]}` : '';
    const fail = (why: string) => send(401, loginPage('/approvals', o, why, true));
    if (!oauth || !m || Number(m[4]) < Date.now() || !sameSecret(m[5] as string, mac('sign-in', body)))
      return fail('The sign-in took too long or did not start here. Sign in again.');
    if (!sameSecret(url.searchParams.get('state') ?? '', m[1] as string))
      return fail('The sign-in answer does not belong to this browser. Sign in again.');
    const error = url.searchParams.get('error');
    if (error) return fail(`The issuer did not sign you in (${error}).`);
    let person: Pick<Person, 'id' | 'expiresAtMs'>;
    try {
      const v = await oauth.redeem(
        url.searchParams.get('code') ?? '',
        m[2] as string,
        callbackUrl(),
        identity!.resource(),
      );
      person = { id: v.person, expiresAtMs: v.expiresAt * 1000 };
    } catch (e) {
      logger.warn('approval page: sign-in refused', { error: (e as Error).message });
      return fail(e instanceof TokenRefused ? e.message : 'The sign-in could not be completed.');
    }
    const next = safeNext(unb64(m[3] as string));
    logger.info('approval page: signed in', { person: person.id });
    // Arrived from the issuer's site: a page of ours moves on, so the Strict cookie is sent from here on.
    res.setHeader('set-cookie', [
      sessionCookie(req, person),
      `${OAUTH_COOKIE}=; Path=/approvals/callback; Max-Age=0`,
    ]);
    return send(200, bouncePage(next, o));
  }

  function callbackUrl(): string {
    return `${new URL(identity!.resource()).origin}/approvals/callback`;
  }

  return handler;
}

/** The signed link that lets the requester alone open one request (its page and its form): `?as=<this>`. */
export function signedLink(key: Uint8Array, id: string, person: string): string {
  return createHmac('sha256', key).update(['link', id, person].join('\n')).digest('base64url');
}

/** Cookies are Secure everywhere but on loopback (where browsers allow plain-HTTP localhost). */
function secure(req: IncomingMessage): boolean {
  return !isLoopbackHost(req.headers.host);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const text = await readSmall(req);
  try {
    const v: unknown = JSON.parse(text ?? '');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
function securityHeaders(nonce: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // same-origin, not no-referrer: with no-referrer browsers send "Origin: null" on the form POST.
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
  };
}

/** A browser's form POST carries Origin; it must be this very page's origin, never another site. */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  return origin !== undefined && origin === `http://${req.headers.host ?? ''}`;
}

function safeNext(next: string | null | undefined): string {
  return next && /^\/approvals(\/[A-Za-z0-9_-]*)?$/.test(next) ? next : '/approvals';
}

function cookies(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) return undefined;
  const text = await readSmall(req);
  return text === undefined ? undefined : new URLSearchParams(text);
}

/** A request body of at most MAX_FORM bytes as text; undefined when larger. */
async function readSmall(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
