// Who looks at the approval pages, and signing in to them. With no identity configured the viewer is this
// machine's user alone (loopback only); otherwise a person signed in — through the issuer (authorization
// code with PKCE) or with their token — into a session cookie sealed with a key the replicas share (HttpOnly,
// SameSite=Strict, Secure off loopback), a script sending the same bearer or access token as /mcp (JSON; no
// cookie, no form secret: browsers never send that header on their own), or the requester following the
// signed link of one request — which shows it and nothing more: whoever reads the assistant's answer has
// that link, so deciding needs the person's own sign-in. A sign-in lasts no longer than the token it came
// from, and a person removed from the tokens file is no longer recognised, whatever cookie they hold.
import { createHmac, randomBytes } from 'node:crypto';
import { type Identity, type Person, TokenRefused } from '../identity/index.js';
import { sameSecret } from '../policy/signer.js';
import { bouncePage, loginPage } from './page.js';
import {
  AUTH_COOKIE,
  type Ctx,
  cookies,
  OAUTH_COOKIE,
  type Pages,
  readForm,
  redirect,
  type Seen,
  safeNext,
  secure,
} from './request.js';

const SESSION_MS = 12 * 3600_000;
const SIGN_IN_MS = 10 * 60_000;

const b64 = (s: string) => Buffer.from(s).toString('base64url');
const unb64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');

/** The key's seal over some parts (sign-in cookies). */
function seal(key: Uint8Array, ...parts: string[]): string {
  return createHmac('sha256', key).update(parts.join('\n')).digest('base64url');
}

/** The signed link that lets the requester alone open one request (its page and its form): `?as=<this>`. */
export function signedLink(key: Uint8Array, id: string, person: string): string {
  return seal(key, 'link', id, person);
}

/** Who a viewer is, as the decision point needs it: identity, address, and whether their token may change. */
type Known = Pick<Person, 'id' | 'name' | 'address'> & { canWrite?: boolean };

function viewer(pages: Pages, p: Known, by: Seen['by']): Seen {
  const who = { person: p.id, ...(p.address ? { address: p.address } : {}) };
  return {
    ...who,
    ...(p.name ? { name: p.name } : {}),
    ...(p.canWrite === false ? { canWrite: false } : {}),
    approver: pages.decisions.isApprover(who),
    by,
  };
}

/** Who looks: this machine's user alone, a script's header, a sign-in cookie, or the signed link of one request. */
export async function recognise(c: Ctx): Promise<Seen | TokenRefused | undefined> {
  const { identity } = c.pages;
  const me = c.pages.alone;
  if (!identity) return { ...viewer(c.pages, { id: me, name: me, address: me }, 'alone'), alone: true };
  if (c.req.headers.authorization) {
    try {
      return viewer(c.pages, await identity.verify(c.req.headers.authorization), 'header');
    } catch (e) {
      if (e instanceof TokenRefused) return e;
      throw e;
    }
  }
  const signedIn = sessionPerson(c);
  if (signedIn !== undefined) return viewer(c.pages, signedIn, 'cookie');
  return linkViewer(c);
}

/** The person of a valid, unexpired sign-in cookie who is still known. */
function sessionPerson(c: Ctx): Known | undefined {
  const m = /^([A-Za-z0-9_-]{1,1600})\.(\d{13})\.([A-Za-z0-9_-]{43})$/.exec(
    cookies(c.req)[AUTH_COOKIE] ?? '',
  );
  if (
    !m ||
    Number(m[2]) <= Date.now() ||
    !sameSecret(m[3] as string, seal(c.pages.key, 'session', m[1] as string, m[2] as string))
  )
    return undefined;
  let p: Known;
  try {
    p = JSON.parse(unb64(m[1] as string)) as Known;
  } catch {
    return undefined;
  }
  if (typeof p?.id !== 'string' || !(c.pages.identity?.stillKnown?.(p.id) ?? true)) return undefined;
  return p;
}

/** The requester of the approval the path names, when `?as=` is that request's signed link for them. */
async function linkViewer(c: Ctx): Promise<Seen | undefined> {
  const link = c.url.searchParams.get('as');
  if (!link) return undefined;
  const a = await c.approval();
  const r = a?.requester;
  if (a && r && sameSecret(link, signedLink(c.pages.key, a.id, r.person)))
    return viewer(c.pages, { id: r.person, name: r.name ?? r.person, address: r.personAddress }, 'link');
  return undefined;
}

/** The person a token names (token file, the one token, or an access token), for the sign-in form. */
async function personFor(identity: Identity | undefined, token: string): Promise<Person | undefined> {
  if (!identity || !token) return undefined;
  try {
    return await identity.verify(`Bearer ${token}`);
  } catch {
    return undefined;
  }
}

/** A sign-in lasts 12 h at most, and never longer than the token it came from. */
function sessionCookie(c: Ctx, person: Known & Pick<Person, 'expiresAtMs'>): string {
  const untilMs = Math.min(Date.now() + SESSION_MS, person.expiresAtMs ?? Number.POSITIVE_INFINITY);
  const until = String(untilMs);
  const { id, name, address, canWrite } = person;
  const who = b64(JSON.stringify({ id, name, address, canWrite }));
  const age = Math.max(0, Math.floor((untilMs - Date.now()) / 1000));
  return `${AUTH_COOKIE}=${who}.${until}.${seal(c.pages.key, 'session', who, until)}; Path=/approvals; HttpOnly; SameSite=Strict; Max-Age=${age}${secure(c.req) ? '; Secure' : ''}`;
}

/** Signed in: to `next` with the session cookie. */
function signIn(c: Ctx, person: Person, next: string): boolean {
  // The form posted from this page: the redirect that follows is same-site, so the Strict cookie goes along.
  return redirect(c, next, { 'set-cookie': sessionCookie(c, person) });
}

/** GET /approvals/login: to the issuer where it signs people in, else the form that takes a token. */
export function showSignIn(c: Ctx): Promise<boolean> | boolean {
  const next = safeNext(c.url.searchParams.get('next'));
  if (c.pages.identity?.oauth?.signIn) return startSignIn(c, next);
  return c.send(200, loginPage(next, c.o));
}

/** POST /approvals/login: the sign-in form with a token. */
export async function signInWithToken(c: Ctx): Promise<boolean> {
  const form = await readForm(c.req);
  const named = await personFor(c.pages.identity, form?.get('token') ?? '');
  if (!named) return c.send(401, loginPage(safeNext(form?.get('next')), c.o, 'That token is not valid.'));
  return signIn(c, named, safeNext(form?.get('next')));
}

/** Never an OAuth access token in a URL (OAuth 2.1 §5.1.1): the exchange is for the server's own tokens. */
export function offersToken(c: Ctx): boolean {
  const { identity } = c.pages;
  return identity !== undefined && identity.mode !== 'oauth' && c.url.searchParams.has('token');
}

/** One-time exchange of ?token= into a cookie; the redirect drops it from the address bar and history. */
export async function exchangeToken(c: Ctx): Promise<boolean> {
  const named = await personFor(c.pages.identity, c.url.searchParams.get('token') ?? '');
  if (!named) return c.send(401, loginPage(safeNext(c.path), c.o, 'That token is not valid.'));
  return signIn(c, named, safeNext(c.path));
}

/** To the issuer's sign-in, with PKCE: state and verifier ride in a short-lived sealed cookie. */
async function startSignIn(c: Ctx, next: string): Promise<boolean> {
  const { identity } = c.pages;
  const oauth = identity?.oauth;
  if (!oauth) return false;
  const { verifier, challenge } = oauth.pkce();
  const state = randomBytes(16).toString('base64url');
  const until = String(Date.now() + SIGN_IN_MS);
  const body = [state, verifier, b64(next), until].join('.');
  const to = await oauth.authorizeUrl(callbackUrl(identity), state, challenge, identity.resource());
  return redirect(c, to, {
    // Lax: the issuer sends the person back with a top-level navigation from its own site.
    'set-cookie': `${OAUTH_COOKIE}=${body}.${seal(c.pages.key, 'sign-in', body)}; Path=/approvals/callback; HttpOnly; SameSite=Lax; Max-Age=${SIGN_IN_MS / 1000}${secure(c.req) ? '; Secure' : ''}`,
  });
}

/** /approvals/callback: the issuer's answer, checked against the sealed cookie, redeemed into a sign-in. */
export async function finishSignIn(c: Ctx): Promise<boolean> {
  const { identity, logger } = c.pages;
  const oauth = identity?.oauth;
  const m = /^([\w-]+)\.([\w-]+)\.([\w-]*)\.(\d{13})\.([\w-]{43})$/.exec(cookies(c.req)[OAUTH_COOKIE] ?? '');
  const body = m ? `${m[1]}.${m[2]}.${m[3]}.${m[4]}` : '';
  const fail = (why: string) => c.send(401, loginPage('/approvals', c.o, why, true));
  if (
    !oauth ||
    !m ||
    Number(m[4]) < Date.now() ||
    !sameSecret(m[5] as string, seal(c.pages.key, 'sign-in', body))
  )
    return fail('The sign-in took too long or did not start here. Sign in again.');
  if (!sameSecret(c.url.searchParams.get('state') ?? '', m[1] as string))
    return fail('The sign-in answer does not belong to this browser. Sign in again.');
  const error = c.url.searchParams.get('error');
  if (error) return fail(`The issuer did not sign you in (${error}).`);
  let person: Known & Pick<Person, 'expiresAtMs'>;
  try {
    const v = await oauth.redeem(
      c.url.searchParams.get('code') ?? '',
      m[2] as string,
      callbackUrl(identity!),
      identity!.resource(),
    );
    person = {
      id: v.person,
      name: v.name,
      ...(v.address ? { address: v.address } : {}),
      canWrite: v.canWrite,
      expiresAtMs: v.expiresAt * 1000,
    };
  } catch (e) {
    logger.warn('approval page: sign-in refused', { error: (e as Error).message });
    return fail(e instanceof TokenRefused ? e.message : 'The sign-in could not be completed.');
  }
  const next = safeNext(unb64(m[3] as string));
  logger.info('approval page: signed in', { person: person.name ?? person.id });
  // Arrived from the issuer's site: a page of ours moves on, so the Strict cookie is sent from here on.
  c.res.setHeader('set-cookie', [
    sessionCookie(c, person),
    `${OAUTH_COOKIE}=; Path=/approvals/callback; Max-Age=0`,
  ]);
  return c.send(200, bouncePage(next, c.o));
}

function callbackUrl(identity: Identity): string {
  return `${new URL(identity.resource()).origin}/approvals/callback`;
}
