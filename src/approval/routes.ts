// HTTP handler for the approval pages, mounted on the HTTP transport's port or on the dedicated loopback
// server. State changes are POSTs only and must carry three proofs that the person's own browser sent them
// from the page: the approval's form secret (hidden field), the same secret in a SameSite=Strict HttpOnly
// cookie scoped to the approval's path, and an Origin equal to the page's own. When the server is reachable
// beyond loopback, every route also needs the HTTP bearer token, exchanged once into a cookie sealed with
// that token (so any replica sharing DBOPS_HTTP_TOKEN accepts it; nothing is held per process).
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger, silentLogger } from '../log.js';
import { isLoopbackHost } from '../net.js';
import { sameSecret } from '../policy/tokens.js';
import { StateError } from '../state/errors.js';
import { approvalPage, listPage, loginPage, messagePage } from './page.js';
import type { ApprovalStore } from './store.js';

export type Routes = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

export interface ApprovalRoutesOptions {
  store: ApprovalStore;
  /** Set when the pages are reachable beyond loopback: the HTTP transport's bearer token. */
  token?: string;
  logger?: Logger;
}

const MAX_FORM = 8 * 1024;
const SESSION_MS = 12 * 3600_000;
const CSRF_COOKIE = 'dbops_csrf';
const AUTH_COOKIE = 'dbops_auth';
const ID = /^[A-Za-z0-9_-]{16,64}$/;

export function createApprovalRoutes(opts: ApprovalRoutesOptions): Routes {
  const { store, token } = opts;
  const logger = opts.logger ?? silentLogger;
  const seal = (until: number) =>
    createHmac('sha256', token ?? '')
      .update(`approvals-sign-in.${until}`)
      .digest('base64url');

  const authed = (req: IncomingMessage) => {
    if (!token) return true;
    const header = req.headers.authorization;
    if (header?.startsWith('Bearer ') && sameSecret(header.slice(7), token)) return true;
    const m = /^(\d{13})\.([A-Za-z0-9_-]{43})$/.exec(cookies(req)[AUTH_COOKIE] ?? '');
    return m !== null && Number(m[1]) > Date.now() && sameSecret(m[2] as string, seal(Number(m[1])));
  };

  return async (req, res, url) => {
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
    send: (status: number, html: string, headers?: Record<string, string | string[]>) => boolean,
  ): Promise<boolean> {
    const { nonce } = o;

    // Loopback only: refuse other Host names (DNS rebinding). Beyond loopback the token is the guard.
    if (!token && !isLoopbackHost(req.headers.host))
      return send(403, messagePage('Refused', 'This page is served to this computer only.', o));
    const post = req.method === 'POST';
    if (!post && req.method !== 'GET' && req.method !== 'HEAD')
      return send(405, messagePage('Not allowed', 'Use the buttons on the page.', o), { allow: 'GET, POST' });
    if (post && !sameOrigin(req)) {
      logger.warn('approval page: cross-site request refused', {
        path,
        origin: req.headers.origin,
        fetchSite: req.headers['sec-fetch-site'],
      });
      return send(403, messagePage('Refused', 'This request did not come from the approval page.', o));
    }

    if (path === '/approvals/login' && token) {
      if (!post) return send(200, loginPage('/approvals', o));
      const form = await readForm(req);
      const next = safeNext(form?.get('next'));
      if (!form || !sameSecret(form.get('token') ?? '', token))
        return send(401, loginPage(next, o, 'That token is not valid.'));
      return signIn(res, next, nonce);
    }

    if (token && !post && url.searchParams.has('token')) {
      // One-time exchange of ?token= into a cookie; the redirect drops it from the address bar and history.
      if (!sameSecret(url.searchParams.get('token') ?? '', token))
        return send(401, loginPage(safeNext(path), o, 'That token is not valid.'));
      return signIn(res, safeNext(path), nonce);
    }
    if (!authed(req)) return send(401, loginPage(safeNext(path), o));

    if (path === '/approvals' || path === '/approvals/') {
      if (post) return send(405, messagePage('Not allowed', 'Nothing to submit here.', o), { allow: 'GET' });
      return send(200, listPage(await store.pending(), store.now(), o), { refresh: '15' });
    }

    const id = path.slice('/approvals/'.length);
    const a = ID.test(id) ? await store.get(id) : undefined;
    if (!a)
      return send(
        404,
        messagePage('Unknown approval', 'No approval has this address; it may have been removed.', o),
      );

    if (!post) {
      const cookie = `${CSRF_COOKIE}=${a.secret}; Path=/approvals/${a.id}; HttpOnly; SameSite=Strict; Max-Age=${Math.max(
        1,
        Math.ceil((a.expiresAt.getTime() - store.now().getTime()) / 1000),
      )}`;
      return send(
        200,
        approvalPage(a, store.now(), o),
        a.state === 'pending' ? { 'set-cookie': cookie } : {},
      );
    }

    const form = await readForm(req);
    const decision = form?.get('decision');
    const secret = form?.get('csrf') ?? '';
    const cookieSecret = cookies(req)[CSRF_COOKIE] ?? '';
    if (!form || (decision !== 'approve' && decision !== 'decline'))
      return send(400, approvalPage(a, store.now(), o, 'Choose Approve or Decline.'));
    if (!sameSecret(cookieSecret, secret)) {
      logger.warn('approval page: form secret and cookie differ', { approvalId: a.id });
      return send(403, messagePage('Refused', 'This request did not come from the approval page.', o));
    }
    const result = await store.decide(a.id, decision, secret);
    if (result === 'forbidden' || result === 'unknown') {
      logger.warn('approval page: decision refused', { approvalId: a.id, result });
      return send(403, messagePage('Refused', 'This request did not come from the approval page.', o));
    }
    const wanted = decision === 'approve' ? 'approved' : 'declined';
    if (result !== wanted)
      return send(
        409,
        approvalPage(a, store.now(), o, `This approval was already ${result}; nothing was changed now.`),
      );
    logger.info('approval decided', { approvalId: a.id, tool: a.tool, decision: result });
    // Post/Redirect/Get: reloading the result page never re-submits the form.
    res.writeHead(303, { ...securityHeaders(nonce), location: `/approvals/${a.id}` }).end();
    return true;
  }

  function signIn(res: ServerResponse, next: string, nonce: string): boolean {
    const until = Date.now() + SESSION_MS;
    const sid = `${until}.${seal(until)}`;
    // Lax, not Strict: the person arrives by following a link from the assistant's window (a cross-site
    // navigation), which must show the page. Changes still need the Strict per-approval cookie.
    res
      .writeHead(303, {
        ...securityHeaders(nonce),
        location: next,
        'set-cookie': `${AUTH_COOKIE}=${sid}; Path=/approvals; HttpOnly; SameSite=Lax; Max-Age=${SESSION_MS / 1000}`,
      })
      .end();
    return true;
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
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM) return undefined;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
