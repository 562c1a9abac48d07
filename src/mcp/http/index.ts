// Streamable HTTP transport at /mcp for both protocol eras, with the spec's security rules: Origin checked on
// every request (403 when present and not allowed), Host checked while bound to loopback (DNS rebinding), a
// person known from an OAuth access token, a named token or the one bearer token (src/identity/) before
// binding beyond loopback, bounded bodies. Under OAuth the Protected Resource Metadata (RFC 9728) is served
// and every refusal points to it. The parts, beside this file:
// - routes.ts: the route table (/mcp, /healthz, /readyz, /metrics, the metadata, the mounted pages), the
//   Origin and Host checks, who a request is from and how a refusal is said;
// - mcp.ts: /mcp itself — bounded body, then the request's era;
// - eras.ts: 2026-07-28 requests (per-request `_meta` envelope) go to the SDK's stateless handler: a
//   fresh server per request, nothing held between requests, so any replica can answer any request;
// - sessions.ts: 2025 clients get a session (initialize → Mcp-Session-Id) so that elicitation, which
//   needs a server→client request, keeps working; idle sessions are closed, and a cap holds the sessions
//   kept at once, per person and in total (the least recently used idle one makes room; none idle → 503). A
//   session belongs to the person who opened it: another person's token cannot use it;
// - replicas.ts: with replicas, a request for a session another replica holds is passed on to it: to the
//   origin that replica registered (signed with the replicas' shared key) plus the request's path, with a
//   signed hand-over header. One whose session is gone (closed, evicted, or its replica died) gets 404, the
//   protocol's signal to initialize anew.
// Serving HTTP is what serves /metrics, so prom-client is loaded here (src/metrics.ts), never on stdio.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { ConfigError } from '../../config/index.js';
import { tellsPeopleApart } from '../../identity/index.js';
import { enableMetrics } from '../../metrics.js';
import { isLoopback } from '../../net.js';
import type { HttpCore } from './core.js';
import { createEras } from './eras.js';
import type { HttpOptions } from './options.js';
import { replicaSigner } from './replicas.js';
import { serveRequest } from './routes.js';
import { createSessions } from './sessions.js';

export type { HttpOptions } from './options.js';

export interface RunningHttp {
  url: string;
  origin: string;
  /** The origin a person's browser reaches the server at (a wildcard bind is reached by this machine's name). */
  publicOrigin: string;
  server: Server;
  sessions: () => number;
  /** Sessions answering a request now (what a full server waits on before it refuses new ones). */
  busySessions: () => number;
  close(): Promise<void>;
}

export async function startHttp(opts: HttpOptions): Promise<RunningHttp> {
  const { identity } = opts;
  if (!isLoopback(opts.host) && identity.mode === 'none')
    throw new ConfigError(
      `refusing to listen on ${opts.host} without DBOPS_HTTP_TOKEN: set a bearer token (16+ characters), DBOPS_HTTP_TOKENS_FILE or DBOPS_OAUTH_ISSUER, or bind 127.0.0.1`,
    );
  await enableMetrics();
  const core = buildCore(opts);
  const server = createServer((req, res) => serveRequest(core, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const origin = settle(core, server);
  // Exactly the URL clients connect to: some clients refuse metadata whose resource differs by a slash.
  identity.useResource(`${core.at.selfOrigin}/mcp`);
  return {
    url: `${origin}/mcp`,
    origin,
    publicOrigin: core.at.selfOrigin,
    server,
    sessions: () => core.sessions.size(),
    busySessions: () => core.sessions.busy(),
    async close() {
      await core.eras.close().catch(() => {});
      await core.sessions.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The transport's parts: the sessions (with their caps), the two eras' handlers, the replicas' signer. */
function buildCore(opts: HttpOptions): HttpCore {
  const relay = opts.forwardKey ? replicaSigner(opts.forwardKey) : undefined;
  const at = { port: opts.port, selfOrigin: '', ownOrigin: '' };
  const sessions = createSessions({
    idleMs: opts.sessionIdleMs,
    max: opts.maxSessions ?? 100,
    // Per person only where people are told apart: one shared token (or none) is everyone at once.
    perPerson: tellsPeopleApart(opts.identity.mode) ? (opts.maxSessionsPerPerson ?? 20) : Infinity,
    logger: opts.logger,
    ...(opts.directory ? { directory: opts.directory } : {}),
    ...(relay ? { entry: (id: string) => relay.entry(id, at.ownOrigin) } : {}),
  });
  return { opts, sessions, eras: createEras(opts), ...(relay ? { relay } : {}), at };
}

/** Records where the server listens now (the port it was given); returns its origin. */
function settle(core: HttpCore, server: Server): string {
  const { host, publicUrl } = core.opts;
  core.at.port = (server.address() as AddressInfo).port;
  const hostForUrl = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const origin = `http://${hostForUrl}:${core.at.port}`;
  core.at.ownOrigin = publicOrigin(origin, host);
  core.at.selfOrigin = publicUrl ?? core.at.ownOrigin;
  return origin;
}

/** The origin a person's browser can reach: a wildcard bind is reached through this machine's name. */
export function publicOrigin(origin: string, host: string): string {
  if (host !== '0.0.0.0' && host !== '::' && host !== '[::]') return origin;
  const u = new URL(origin);
  return `http://${hostname()}:${u.port}`;
}
