// The HTTP transport's routes, as a table of small handlers. Every request: its target must be a plain path;
// the Protected Resource Metadata (RFC 9728, under OAuth) is public for any origin; everything else checks
// Origin (403 when present and not allowed) and, while bound to loopback, Host (DNS rebinding). Then
// /healthz, /readyz and /metrics, the pages mounted on the same port (the approval page), and /mcp for the
// person the Authorization header names (src/identity/); every refusal says what is wrong with the token.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Person, TokenRefused } from '../../identity/index.js';
import { scrape } from '../../metrics.js';
import { isLoopback, isLoopbackHost } from '../../net.js';
import type { HttpCore } from './core.js';
import { handleMcp } from './mcp.js';
import { sendJson } from './options.js';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';
const PLACEHOLDER = 'http://request-target.invalid';

type Route = (core: HttpCore, req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void;

/** Liveness for anyone; how busy the server is only for holders of the token. */
async function healthz(core: HttpCore, req: IncomingMessage, res: ServerResponse) {
  const { sessions } = core;
  sendJson(
    res,
    200,
    (await known(core, req))
      ? { status: 'ok', sessions: sessions.size(), maxSessions: sessions.max }
      : { status: 'ok' },
  );
}

/** Readiness: the platform and the state store answer now (503 naming the one that does not). */
async function readyz(core: HttpCore, req: IncomingMessage, res: ServerResponse) {
  const checks = (await core.opts.ready?.()) ?? {};
  const ok = Object.values(checks).every((c) => c.ok);
  const shown = (await known(core, req)) ? { checks } : {};
  sendJson(res, ok ? 200 : 503, { status: ok ? 'ready' : 'not ready', ...shown });
}

/** Metrics: the same people as /mcp. */
async function metrics(core: HttpCore, req: IncomingMessage, res: ServerResponse) {
  const person = await who(core, req);
  if (person instanceof TokenRefused)
    return refuse(
      core,
      res,
      new TokenRefused(person.error, `GET /metrics needs the bearer token of /mcp. ${person.message}`),
    );
  const { contentType, text } = await scrape();
  res.writeHead(200, { 'content-type': contentType }).end(text);
}

/**
 * The MCP endpoint. Say what is wrong with the token: bridges such as mcp-remote otherwise try OAuth where
 * this server does not offer it, and report a registration failure instead.
 */
async function mcp(core: HttpCore, req: IncomingMessage, res: ServerResponse, url: URL) {
  const person = await who(core, req);
  if (person instanceof TokenRefused) return refuse(core, res, person);
  await handleMcp(core, req, res, url, person);
}

/** The routes after the Origin and Host checks, before the mounted pages. */
const ROUTES = new Map<string, Route>([
  ['/healthz', healthz],
  ['/readyz', readyz],
  ['/metrics', metrics],
]);

/** Answers one request (a 500 when a handler fails). */
export async function serveRequest(core: HttpCore, req: IncomingMessage, res: ServerResponse) {
  try {
    // Only a plain path is taken as the request target: an absolute-form or scheme-relative one could
    // otherwise name another host wherever the target is resolved against a base (forwarding).
    const url = originForm(req.url);
    if (!url)
      return sendJson(res, 400, { error: 'bad request', detail: 'the request target must be a path' });
    if (core.opts.identity.resourceMetadata && url.pathname.startsWith(WELL_KNOWN))
      return resourceMetadata(core, res, url);
    if (!fromAllowedPlace(core, req))
      return sendJson(res, 403, { error: 'forbidden', detail: 'Origin or Host not allowed' });
    const route = ROUTES.get(url.pathname);
    if (route) return await route(core, req, res, url);
    if (core.opts.routes && (await core.opts.routes(req, res, url))) return;
    if (url.pathname !== '/mcp') return sendJson(res, 404, { error: 'not found' });
    await mcp(core, req, res, url);
  } catch (e) {
    core.opts.logger.error('http request failed', { error: (e as Error).message });
    if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
    else res.end();
  }
}

/** RFC 9728: public, for any origin (browser-based clients read it before they have a token). */
function resourceMetadata(core: HttpCore, res: ServerResponse, url: URL) {
  const { identity } = core.opts;
  const path = url.pathname.slice(WELL_KNOWN.length);
  if (path !== '' && path !== new URL(identity.resource()).pathname)
    return sendJson(res, 404, { error: 'not found' });
  res.setHeader('access-control-allow-origin', '*');
  return sendJson(res, 200, identity.resourceMetadata?.());
}

/**
 * Allowed origins: this server's loopback origins, the origin it is published at (the approval page's own
 * form posts) and DBOPS_ALLOWED_ORIGINS. Never "whatever the Host header says": a rebound DNS name would
 * match itself. Beyond loopback the person's token is the guard, so the Host is checked on loopback only.
 */
function fromAllowedPlace(core: HttpCore, req: IncomingMessage): boolean {
  const { port, selfOrigin } = core.at;
  const origin = req.headers.origin;
  const allowedOrigin = (o: string) =>
    o === selfOrigin ||
    core.opts.allowedOrigins.includes(o) ||
    [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`].includes(o);
  const allowedHost = !isLoopback(core.opts.host) || isLoopbackHost(req.headers.host);
  return (origin === undefined || allowedOrigin(origin)) && allowedHost;
}

/** The person the request's Authorization header names, or the reason it names nobody. */
async function who(core: HttpCore, req: IncomingMessage): Promise<Person | TokenRefused> {
  try {
    return await core.opts.identity.verify(req.headers.authorization);
  } catch (e) {
    if (e instanceof TokenRefused) return e;
    throw e;
  }
}

/** Whether the request comes from someone the server knows (everyone when it knows nobody). */
async function known(core: HttpCore, req: IncomingMessage): Promise<boolean> {
  return core.opts.identity.mode === 'none' || !((await who(core, req)) instanceof TokenRefused);
}

/** 401 with the challenge (and, under OAuth, where the metadata is); 403 when the token lacks the scope. */
function refuse(core: HttpCore, res: ServerResponse, r: TokenRefused) {
  res.setHeader('WWW-Authenticate', core.opts.identity.challenge(r));
  const scope = r.error === 'insufficient_scope';
  return sendJson(res, scope ? 403 : 401, {
    error: scope ? 'forbidden' : 'unauthorized',
    detail: r.message,
  });
}

/** The request target as a URL when it is a plain path (origin-form), else undefined. */
function originForm(target: string | undefined): URL | undefined {
  if (!target?.startsWith('/') || target.startsWith('//') || target.includes('\\')) return undefined;
  try {
    const url = new URL(target, PLACEHOLDER);
    return url.origin === PLACEHOLDER ? url : undefined;
  } catch {
    return undefined;
  }
}
