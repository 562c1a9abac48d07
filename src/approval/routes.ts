// HTTP handler for the approval pages, mounted on the HTTP transport's port or on the dedicated loopback
// server: a table of routes (method and path to a named handler taking the request's context). Every request
// first passes three gates: loopback only when nobody is told apart (DNS rebinding), GET/HEAD/POST only, and a
// browser's POST from this very page (its Origin). Then the sign-in routes, which need no viewer; then who
// looks (./sign-in.ts) and the routes that need one: the list, one approval's page, and its decision
// (./decisions.ts), where who may see and decide what is the decision point's (src/policy/decide.ts), asked
// again on every request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Identity, osPerson, TokenRefused } from '../identity/index.js';
import { type Logger, silentLogger } from '../log.js';
import { isLoopbackHost } from '../net.js';
import { StateError } from '../state/errors.js';
import { decideApproval, showApproval } from './decisions.js';
import { approvalJson, bouncePage, listPage, loginPage, messagePage } from './page.js';
import { type Ctx, type Pages, requestContext, type Seen, safeNext, sameOrigin } from './request.js';
import {
  exchangeToken,
  finishSignIn,
  offersToken,
  recognise,
  showSignIn,
  signInWithToken,
} from './sign-in.js';
import type { ApprovalStore } from './store.js';

export { signedLink } from './sign-in.js';

export type Routes = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

interface ApprovalRoutesOptions {
  store: ApprovalStore;
  /** Who may look: absent (or mode none) on a loopback page that this machine's user alone can reach. */
  identity?: Identity;
  /** Seals sign-in cookies and signed links (derived from DBOPS_TOKEN_SECRET: replicas share it). */
  key: Uint8Array;
  logger?: Logger;
}

/** GET covers HEAD; ANY is any method the gates let through. */
type Method = 'GET' | 'POST' | 'ANY';
interface Route<H> {
  method: Method;
  path: (path: string) => boolean;
  /** Whether the route exists under this configuration (and for this request). */
  when?: (c: Ctx) => boolean;
  handle: H;
}
type Handler = (c: Ctx) => Promise<boolean> | boolean;
type ViewerHandler = (c: Ctx, seen: Seen) => Promise<boolean> | boolean;

const isLogin = (p: string) => p === '/approvals/login';
const isCallback = (p: string) => p === '/approvals/callback';
const isList = (p: string) => p === '/approvals' || p === '/approvals/';
const isOne = (p: string) => !isList(p);
const anyPath = () => true;
const signsIn = (c: Ctx) => c.pages.identity !== undefined;

/** Answered before knowing who looks: signing in. */
const SIGN_IN_ROUTES: Route<Handler>[] = [
  { method: 'GET', path: isLogin, when: signsIn, handle: showSignIn },
  { method: 'POST', path: isLogin, when: signsIn, handle: signInWithToken },
  {
    method: 'ANY',
    path: isCallback,
    when: (c) => c.pages.identity?.oauth !== undefined,
    handle: finishSignIn,
  },
  { method: 'GET', path: anyPath, when: offersToken, handle: exchangeToken },
];

/** Answered for a viewer recognised. */
const VIEWER_ROUTES: Route<ViewerHandler>[] = [
  { method: 'GET', path: isList, handle: listApprovals },
  { method: 'POST', path: isList, handle: nothingToSubmit },
  { method: 'GET', path: isOne, handle: showApproval },
  { method: 'POST', path: isOne, handle: decideApproval },
];

/** The checks every request passes before any route: each answers (and is true) when it refuses. */
const GATES: Array<(c: Ctx) => boolean> = [refuseForeignHost, refuseOtherMethods, refuseCrossSite];

export function createApprovalRoutes(opts: ApprovalRoutesOptions): Routes {
  const identity = opts.identity?.mode === 'none' ? undefined : opts.identity;
  const pages: Pages = {
    store: opts.store,
    decisions: opts.store.decisions,
    identity,
    alone: osPerson().id,
    key: opts.key,
    logger: opts.logger ?? silentLogger,
  };
  return async (req, res, url) => {
    const path = url.pathname;
    if (path !== '/approvals' && !path.startsWith('/approvals/')) return false;
    const c = requestContext(pages, req, res, url);
    try {
      return await route(c);
    } catch (e) {
      if (!(e instanceof StateError)) throw e;
      return stateUnreachable(c);
    }
  };
}

function match<H>(routes: Route<H>[], c: Ctx): Route<H> | undefined {
  return routes.find(
    (r) =>
      (r.method === 'ANY' || (r.method === 'POST') === c.post) && r.path(c.path) && (r.when?.(c) ?? true),
  );
}

async function route(c: Ctx): Promise<boolean> {
  for (const gate of GATES) if (gate(c)) return true;
  const open = match(SIGN_IN_ROUTES, c);
  if (open) return open.handle(c);
  const seen = await recognise(c);
  if (seen instanceof TokenRefused) return refuseToken(c, seen);
  if (!seen) return askWhoLooks(c);
  // The gates let GET, HEAD and POST through, and every path under /approvals is the list or one approval.
  return (match(VIEWER_ROUTES, c) as Route<ViewerHandler>).handle(c, seen);
}

/** Loopback only: refuse other Host names (DNS rebinding). Beyond loopback a person's sign-in is the guard. */
function refuseForeignHost(c: Ctx): boolean {
  if (c.pages.identity || isLoopbackHost(c.req.headers.host)) return false;
  return c.send(403, messagePage('Refused', 'This page is served to this computer only.', c.o));
}

function refuseOtherMethods(c: Ctx): boolean {
  if (c.post || c.req.method === 'GET' || c.req.method === 'HEAD') return false;
  return c.send(405, messagePage('Not allowed', 'Use the buttons on the page.', c.o), { allow: 'GET, POST' });
}

/**
 * A script's bearer header is never sent by a browser on its own: only cookie-carrying posts need the checks
 * (and with nobody told apart, every post is a browser's).
 */
function refuseCrossSite(c: Ctx): boolean {
  const scripted = c.pages.identity !== undefined && c.req.headers.authorization !== undefined;
  if (!c.post || scripted || sameOrigin(c.req)) return false;
  c.pages.logger.warn('approval page: cross-site request refused', {
    path: c.path,
    origin: c.req.headers.origin,
    fetchSite: c.req.headers['sec-fetch-site'],
  });
  return c.send(403, messagePage('Refused', 'This request did not come from the approval page.', c.o));
}

/** A script's token refused: 401 (or 403 for a missing scope) with the challenge. */
function refuseToken(c: Ctx, refused: TokenRefused): boolean {
  c.res.setHeader('www-authenticate', c.pages.identity?.challenge(refused) ?? 'Bearer');
  return c.json(refused.error === 'insufficient_scope' ? 403 : 401, {
    error: refused.error,
    detail: refused.message,
  });
}

/** Nobody recognised: a script is told how to authenticate, a browser is bounced once, then asked to sign in. */
function askWhoLooks(c: Ctx): boolean {
  const { identity } = c.pages;
  if (c.wantsJson) {
    c.res.setHeader('www-authenticate', identity?.challenge() ?? 'Bearer');
    return c.json(401, {
      error: 'unauthorized',
      detail: 'Send "Authorization: Bearer <token>", the same as for /mcp.',
    });
  }
  // The sign-in cookie is SameSite=Strict: a link followed from the assistant's window (another site)
  // arrives without it. One navigation from this page itself brings it along.
  if (!c.post && !c.url.searchParams.has('b')) {
    const again = new URL(c.url);
    again.searchParams.set('b', '1');
    return c.send(200, bouncePage(`${again.pathname}${again.search}`, c.o));
  }
  return c.send(401, loginPage(safeNext(c.path), c.o, undefined, identity?.oauth?.signIn === true));
}

/** GET /approvals: the pending approvals this viewer may see. */
async function listApprovals(c: Ctx, seen: Seen): Promise<boolean> {
  const { store, decisions } = c.pages;
  const items = await store.pending(seen);
  if (c.wantsJson)
    return c.json(200, {
      viewer: seen.name ?? seen.person,
      approver: seen.approver,
      approvals: items.map((a) => approvalJson(a, seen, decisions)),
    });
  return c.send(200, listPage(items, store.now(), c.o, seen), { refresh: '15' });
}

function nothingToSubmit(c: Ctx): boolean {
  return c.send(405, messagePage('Not allowed', 'Nothing to submit here.', c.o), { allow: 'GET' });
}

function stateUnreachable(c: Ctx): boolean {
  c.pages.logger.warn('approval page: shared state store unreachable', { path: c.path });
  return c.send(
    503,
    messagePage(
      'Try again in a moment',
      'The approvals cannot be read or decided right now (the shared state store is unreachable); nothing was decided. Reload this page in a moment.',
      c.o,
    ),
    { 'retry-after': '5' },
  );
}
