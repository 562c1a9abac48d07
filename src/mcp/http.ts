// Streamable HTTP transport at /mcp for both protocol eras, with the spec's security rules: Origin checked on
// every request (403 when present and not allowed), Host checked while bound to loopback (DNS rebinding), a
// person known from an OAuth access token, a named token or the one bearer token (src/identity/) before
// binding beyond loopback, bounded bodies. Under OAuth the Protected Resource Metadata (RFC 9728) is served
// and every refusal points to it.
// - 2026-07-28 requests (per-request `_meta` envelope) go to the SDK's stateless handler: a fresh server per
//   request, nothing held between requests, so any replica can answer any request.
// - 2025 clients get a session (initialize → Mcp-Session-Id) so that elicitation, which needs a
//   server→client request, keeps working; idle sessions are closed, and a cap holds the sessions kept at
//   once, per person and in total (the least recently used idle one makes room; none idle → 503). A session
//   belongs to the person who opened it: another person's token cannot use it. With replicas, a request for a
//   session another replica holds is passed on to it: to the origin that replica registered (signed with the
//   replicas' shared key) plus the request's path, with a signed hand-over header. One whose session is gone
//   (closed, evicted, or its replica died) gets 404, the protocol's signal to initialize anew.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  createMcpHandler,
  InMemoryServerEventBus,
  isInitializeRequest,
  isLegacyRequest,
  legacyStatelessFallback,
  type McpServer,
  type ServerEvent,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { ConfigError } from '../config/index.js';
import {
  authInfoOf,
  type Identity,
  type Person,
  personOf,
  TokenRefused,
  tellsPeopleApart,
} from '../identity/index.js';
import type { Logger } from '../log.js';
import { gauge, registry } from '../metrics.js';
import { isLoopback, isLoopbackHost } from '../net.js';
import { sameSecret } from '../policy/tokens.js';
import { DYNAMIC, headerNames, unknownToolsets } from '../policy/toolsets.js';
import type { SessionDirectory } from '../state/sessions.js';
import { choiceKey, type EnabledToolsets, memoryToolsets } from '../state/toolsets.js';
import { toolsets } from './catalog.js';
import { listenedUris } from './listen.js';
import type { ClientToolsets } from './server.js';

const MAX_BODY = 1 << 20;
const WELL_KNOWN = '/.well-known/oauth-protected-resource';
/** No MCP message nests this deep; the SDK's recursive checks would overflow the stack on much deeper input. */
const MAX_DEPTH = 64;

export interface HttpOptions {
  host: string;
  port: number;
  /** Who is asking (OAuth, named tokens, one token, or the OS user on loopback). */
  identity: Identity;
  allowedOrigins: string[];
  sessionIdleMs: number;
  /** Sessions held at once (DBOPS_HTTP_MAX_SESSIONS). */
  maxSessions?: number;
  /** Sessions one person may hold at once (DBOPS_HTTP_MAX_SESSIONS_PER_PERSON). */
  maxSessionsPerPerson?: number;
  logger: Logger;
  /**
   * A server for this person (a person without the write scope gets the read-only catalog) and this client
   * (its X-MCP-Toolsets header; on the sessionless era, the toolsets it enabled before).
   */
  newServer: (person: Person, client?: ClientToolsets) => McpServer;
  /**
   * DBOPS_TOOLSETS, and where the sessionless era keeps the toolsets each person's client enabled in dynamic
   * mode (in memory when absent).
   */
  toolsets?: { setting: string[]; enabled?: EnabledToolsets };
  /** Carries subscription events to the 2026-07-28 listen streams (shared by replicas); in process when absent. */
  bus?: ServerEventBus;
  /** A 2026-07-28 client opened a listen stream for these resource URIs; `closed` registers the clean-up. */
  onListen?: (uris: string[], closed: (stop: () => void) => void) => void;
  /** The origin people's browsers reach the server at (DBOPS_PUBLIC_URL, e.g. a load balancer). */
  publicUrl?: string;
  /** Where replicas record which of them holds a 2025 session (requests for it are passed on there). */
  directory?: SessionDirectory;
  /** Replicas sign what they record in the directory and the requests they pass on with this shared key. */
  forwardKey?: Uint8Array;
  /** GET /readyz: each dependency (platform, state store) and whether it answers now. */
  ready?: () => Promise<Record<string, { ok: boolean; detail?: string }>>;
  /** Other pages served on the same port (the approval page); return true when handled. */
  routes?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean;
}

export interface RunningHttp {
  url: string;
  origin: string;
  /** The origin a person's browser reaches the server at (a wildcard bind is reached by this machine's name). */
  publicOrigin: string;
  server: Server;
  sessions: () => number;
  close(): Promise<void>;
}

export async function startHttp(opts: HttpOptions): Promise<RunningHttp> {
  const { identity } = opts;
  if (!isLoopback(opts.host) && identity.mode === 'none')
    throw new ConfigError(
      `refusing to listen on ${opts.host} without DBOPS_HTTP_TOKEN: set a bearer token (16+ characters), DBOPS_HTTP_TOKENS_FILE or DBOPS_OAUTH_ISSUER, or bind 127.0.0.1`,
    );
  interface Session {
    transport: NodeStreamableHTTPServerTransport;
    server: McpServer;
    lastSeen: number;
    /** POST requests being answered (an open GET stream does not make a session busy). */
    inFlight: number;
    /** The person who opened it: only they may use it. */
    person: string;
  }
  const sessions = new Map<string, Session>();
  gauge('dbops_http_sessions', '2025-era HTTP sessions held now', () => sessions.size);
  const maxSessions = opts.maxSessions ?? 100;
  // Per person only where people are told apart: one shared token (or none) is everyone at once.
  const perPerson = tellsPeopleApart(identity.mode) ? (opts.maxSessionsPerPerson ?? 20) : Infinity;
  let port = opts.port;
  let selfOrigin = '';
  /** This replica's own address, for the others to pass a session's requests on to. */
  let ownOrigin = '';
  const relay = opts.forwardKey ? replicaSigner(opts.forwardKey) : undefined;
  const hold = async (id: string) => {
    if (relay) await opts.directory?.hold(id, relay.entry(id, ownOrigin), opts.sessionIdleMs).catch(() => {});
  };
  const release = (id: string) => void opts.directory?.release(id).catch(() => {});

  // Allowed origins: this server's loopback origins, the origin it is published at (the approval page's own
  // form posts) and DBOPS_ALLOWED_ORIGINS. Never "whatever the Host header says": a rebound DNS name would
  // match itself.
  const allowedOrigin = (origin: string) =>
    origin === selfOrigin ||
    opts.allowedOrigins.includes(origin) ||
    [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`].includes(origin);
  // Beyond loopback the person's token is the guard.
  const allowedHost = (host: string | undefined) => !isLoopback(opts.host) || isLoopbackHost(host);
  /** The person the request's Authorization header names, or the reason it names nobody. */
  const who = async (req: IncomingMessage): Promise<Person | TokenRefused> => {
    try {
      return await identity.verify(req.headers.authorization);
    } catch (e) {
      if (e instanceof TokenRefused) return e;
      throw e;
    }
  };
  const known = async (req: IncomingMessage) =>
    identity.mode === 'none' || !((await who(req)) instanceof TokenRefused);
  /** 401 with the challenge (and, under OAuth, where the metadata is); 403 when the token lacks the scope. */
  const refuse = (res: ServerResponse, r: TokenRefused) => {
    res.setHeader('WWW-Authenticate', identity.challenge(r));
    const scope = r.error === 'insufficient_scope';
    return sendJson(res, scope ? 403 : 401, {
      error: scope ? 'forbidden' : 'unauthorized',
      detail: r.message,
    });
  };
  const personFor = (auth: AuthInfo | undefined) => {
    const person = personOf(auth);
    if (!person) throw new Error('a request reached the MCP handler without a person');
    return person;
  };
  const forPerson = (auth: AuthInfo | undefined) => {
    const header = asked.getStore()?.header;
    return opts.newServer(personFor(auth), header ? { header } : undefined);
  };
  // Dynamic toolsets on the sessionless era: what each person's client enabled is kept in the shared state
  // (every request has a fresh server), and a change is announced on that client's listen streams only.
  const enabledSets = opts.toolsets?.enabled ?? memoryToolsets();
  const bus = targeted(opts.bus ?? new InMemoryServerEventBus());
  const forModern = async (auth: AuthInfo | undefined): Promise<McpServer> => {
    const person = personFor(auth);
    const r = asked.getStore();
    const header = r?.header;
    const dynamic = [...(opts.toolsets?.setting ?? []), ...(header ?? [])].includes(DYNAMIC);
    if (!dynamic) return opts.newServer(person, header ? { header } : undefined);
    const key = choiceKey(person.id, r?.client ?? '');
    const enabled = await enabledSets.get(key).catch((e: Error) => {
      opts.logger.warn('toolsets enabled earlier could not be read from the shared state', {
        error: e.message,
      });
      return [] as string[];
    });
    return opts.newServer(person, {
      ...(header ? { header } : {}),
      shared: {
        enabled,
        keep: (sets) => enabledSets.add(key, sets),
        announce: () => bus.publish({ kind: 'tools_list_changed', target: key } as ServerEvent),
      },
    });
  };
  const modern = createMcpHandler((ctx) => forModern(ctx.authInfo), {
    legacy: 'reject',
    bus,
    maxRequestBodySize: MAX_BODY,
    onerror: (e) => opts.logger.debug('mcp request refused', { error: e.message }),
  });
  const serveModern = toNodeHandler(modern, { maxRequestBodySize: MAX_BODY });
  const stateless = toNodeHandler(
    {
      fetch: legacyStatelessFallback((ctx) => forPerson(ctx.authInfo), undefined, {
        maxRequestBodySize: MAX_BODY,
      }),
    },
    { maxRequestBodySize: MAX_BODY },
  );

  const server = createServer(async (req, res) => {
    try {
      // Only a plain path is taken as the request target: an absolute-form or scheme-relative one could
      // otherwise name another host wherever the target is resolved against a base (forwarding).
      const url = originForm(req.url);
      if (!url)
        return sendJson(res, 400, { error: 'bad request', detail: 'the request target must be a path' });
      // RFC 9728: public, for any origin (browser-based clients read it before they have a token).
      if (identity.resourceMetadata && url.pathname.startsWith(WELL_KNOWN)) {
        const path = url.pathname.slice(WELL_KNOWN.length);
        if (path !== '' && path !== new URL(identity.resource()).pathname)
          return sendJson(res, 404, { error: 'not found' });
        res.setHeader('access-control-allow-origin', '*');
        return sendJson(res, 200, identity.resourceMetadata());
      }
      const origin = req.headers.origin;
      if ((origin !== undefined && !allowedOrigin(origin)) || !allowedHost(req.headers.host))
        return sendJson(res, 403, { error: 'forbidden', detail: 'Origin or Host not allowed' });
      // Liveness for anyone; how busy the server is only for holders of the token.
      if (url.pathname === '/healthz')
        return sendJson(
          res,
          200,
          (await known(req)) ? { status: 'ok', sessions: sessions.size, maxSessions } : { status: 'ok' },
        );
      // Readiness: the platform and the state store answer now (503 naming the one that does not).
      if (url.pathname === '/readyz') {
        const checks = (await opts.ready?.()) ?? {};
        const ok = Object.values(checks).every((c) => c.ok);
        const shown = (await known(req)) ? { checks } : {};
        return sendJson(res, ok ? 200 : 503, { status: ok ? 'ready' : 'not ready', ...shown });
      }
      // Metrics: the same people as /mcp.
      if (url.pathname === '/metrics') {
        const person = await who(req);
        if (person instanceof TokenRefused)
          return refuse(
            res,
            new TokenRefused(person.error, `GET /metrics needs the bearer token of /mcp. ${person.message}`),
          );
        res.writeHead(200, { 'content-type': registry.contentType }).end(await registry.metrics());
        return;
      }
      if (opts.routes && (await opts.routes(req, res, url))) return;
      if (url.pathname !== '/mcp') return sendJson(res, 404, { error: 'not found' });
      // Say what is wrong with the token: bridges such as mcp-remote otherwise try OAuth where this server
      // does not offer it, and report a registration failure instead.
      const person = await who(req);
      if (person instanceof TokenRefused) return refuse(res, person);
      await handleMcp(req, res, url, person);
    } catch (e) {
      opts.logger.error('http request failed', { error: (e as Error).message });
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
      else res.end();
    }
  });

  async function handleMcp(req: IncomingMessage, res: ServerResponse, url: URL, person: Person) {
    const sessionId = req.headers['mcp-session-id'];
    // X-MCP-Toolsets narrows what this client sees; a name that is no toolset is refused with the valid ones.
    const header = headerNames(req.headers['x-mcp-toolsets']);
    const refused = header && unknownToolsets(header, toolsets);
    if (refused) return sendJson(res, 400, rpcError(-32602, `X-MCP-Toolsets: ${refused}`));
    // Passed on by another replica: only when signed with the replicas' key; a client's claim is dropped.
    const fromReplica = relay?.verifyHop(req, url, sessionId) ?? false;
    delete req.headers[FORWARDED];
    let body: unknown;
    if (req.method === 'POST') {
      const raw = await readBody(req);
      if (raw === undefined)
        return sendJson(res, 413, rpcError(-32600, `request body over ${MAX_BODY} bytes`));
      if (nesting(raw) > MAX_DEPTH)
        return sendJson(res, 400, rpcError(-32600, `JSON nested deeper than ${MAX_DEPTH} levels`));
      try {
        body = JSON.parse(raw);
      } catch {
        return sendJson(res, 400, rpcError(-32700, 'Parse error: the body is not valid JSON'));
      }
    }
    const authed = Object.assign(req, { auth: authInfoOf(person, req.socket.remoteAddress) });
    const probe = new Request(`http://localhost${req.url ?? '/mcp'}`, {
      method: req.method === 'POST' ? 'POST' : (req.method ?? 'GET'),
      headers: Object.entries(req.headers).flatMap(([k, v]) =>
        typeof v === 'string' ? [[k, v] as [string, string]] : [],
      ),
      ...(req.method === 'POST' ? { body: '{}' } : {}),
    });
    if (!(await isLegacyRequest(probe, req.method === 'POST' ? body : undefined))) {
      const uris = listenedUris(body);
      if (uris.length > 0) opts.onListen?.(uris, (stop) => res.once('close', stop));
      const client = clientNameOf(body);
      return asked.run(
        { ...(header ? { header } : {}), client, listener: choiceKey(person.id, client) },
        () => serveModern(authed, res, body),
      );
    }
    if (typeof sessionId === 'string') {
      const s = sessions.get(sessionId);
      if (!s) {
        // Another replica's session: pass the request on to it; served without a session when it is gone.
        if (opts.directory && relay && !fromReplica) {
          const entry = await opts.directory.holder(sessionId).catch(() => undefined);
          const holder = entry === undefined ? undefined : relay.holderOf(sessionId, entry);
          if (holder && holder !== ownOrigin) {
            const hop = relay.signHop(req.method ?? 'GET', url, sessionId);
            if (await forward(holder, url, hop, req, res, body)) return;
          }
        }
        // Closed, evicted, or held by a replica that is gone: 404 is the protocol's signal to initialize anew
        // (answering without the session would leave the client without elicitation and subscriptions).
        return sendJson(res, 404, rpcError(-32001, 'Session not found: initialize a new session'));
      }
      if (s.person !== person.id)
        return sendJson(
          res,
          403,
          rpcError(-32001, 'This session was opened by another person: initialize a session of your own'),
        );
      s.lastSeen = Date.now();
      void hold(sessionId);
      if (req.method === 'POST') {
        s.inFlight++;
        res.once('close', () => s.inFlight--);
      }
      return s.transport.handleRequest(authed, res, body);
    }
    // No session, no stream: 405 tells a client that opens a GET stream first that the server offers none.
    if (req.method === 'GET') {
      res.setHeader('Allow', 'POST, DELETE');
      return sendJson(
        res,
        405,
        rpcError(-32000, 'Method not allowed: open a session with initialize (POST) first'),
      );
    }
    if (req.method !== 'POST' || !isInitializeRequest(body))
      return asked.run({ ...(header ? { header } : {}), client: '' }, () => stateless(authed, res, body));
    const own = [...sessions].filter(([, s]) => s.person === person.id);
    if (own.length >= perPerson && !evictIdle(own)) {
      res.setHeader('Retry-After', '5');
      return sendJson(
        res,
        503,
        rpcError(
          -32000,
          `Your ${perPerson} sessions (${person.id}) are all busy (DBOPS_HTTP_MAX_SESSIONS_PER_PERSON); retry shortly`,
        ),
      );
    }
    if (sessions.size >= maxSessions && !evictIdle([...sessions])) {
      res.setHeader('Retry-After', '5');
      return sendJson(
        res,
        503,
        rpcError(-32000, `All ${maxSessions} sessions are busy (DBOPS_HTTP_MAX_SESSIONS); retry shortly`),
      );
    }
    // A 2025 session reads the header once, at initialize: its toolsets then belong to the session.
    const mcp = opts.newServer(person, header ? { header } : undefined);
    // Recorded before the client learns the id: its next request may reach another replica at once.
    const id = randomUUID();
    await hold(id);
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => {
        sessions.set(id, { transport, server: mcp, lastSeen: Date.now(), inFlight: 0, person: person.id });
      },
    });
    transport.onclose = () => {
      if (!transport.sessionId) return;
      sessions.delete(transport.sessionId);
      release(transport.sessionId);
    };
    await mcp.connect(transport);
    await transport.handleRequest(authed, res, body);
    if (!sessions.has(id)) release(id);
  }

  /** Closes the least recently used of these sessions with nothing in flight; false when all are busy. */
  function evictIdle(among: Array<[string, Session]>): boolean {
    let victim: [string, Session] | undefined;
    for (const entry of among)
      if (entry[1].inFlight === 0 && (!victim || entry[1].lastSeen < victim[1].lastSeen)) victim = entry;
    if (!victim) return false;
    sessions.delete(victim[0]);
    release(victim[0]);
    opts.logger.info('session closed to make room (DBOPS_HTTP_MAX_SESSIONS)', { maxSessions });
    void victim[1].server.close().catch(() => {});
    return true;
  }

  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - opts.sessionIdleMs;
      for (const [id, s] of sessions)
        if (s.lastSeen < cutoff) {
          sessions.delete(id);
          release(id);
          void s.server.close().catch(() => {});
        }
    },
    Math.min(opts.sessionIdleMs, 60_000),
  );
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const hostForUrl = opts.host.includes(':') && !opts.host.startsWith('[') ? `[${opts.host}]` : opts.host;
  const origin = `http://${hostForUrl}:${port}`;
  ownOrigin = publicOrigin(origin, opts.host);
  selfOrigin = opts.publicUrl ?? ownOrigin;
  // Exactly the URL clients connect to: some clients refuse metadata whose resource differs by a slash.
  identity.useResource(`${selfOrigin}/mcp`);
  return {
    url: `${origin}/mcp`,
    origin,
    publicOrigin: selfOrigin,
    server,
    sessions: () => sessions.size,
    async close() {
      clearInterval(sweep);
      await modern.close().catch(() => {});
      await Promise.all([...sessions.values()].map((s) => s.server.close().catch(() => {})));
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The origin a person's browser can reach: a wildcard bind is reached through this machine's name. */
export function publicOrigin(origin: string, host: string): string {
  if (host !== '0.0.0.0' && host !== '::' && host !== '[::]') return origin;
  const u = new URL(origin);
  return `http://${hostname()}:${u.port}`;
}

/** The deepest nesting of arrays and objects in a JSON text (brackets inside strings do not count). */
function nesting(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/** Marks a request passed on by another replica (never passed on again): `<unix seconds>.<HMAC>`. */
const FORWARDED = 'x-dbops-forwarded';
/** How long a signed hand-over stays valid (clock skew between replicas included). */
const HOP_WINDOW_S = 30;
const PLACEHOLDER = 'http://request-target.invalid';

/** The request target as a URL when it is a plain path (origin-form), else undefined. */
export function originForm(target: string | undefined): URL | undefined {
  if (!target?.startsWith('/') || target.startsWith('//') || target.includes('\\')) return undefined;
  try {
    const url = new URL(target, PLACEHOLDER);
    return url.origin === PLACEHOLDER ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What replicas sign with their shared key: the directory entry naming a session's holder (so an entry
 * nobody with the key wrote is never followed) and each hand-over (method, path, session and time).
 */
function replicaSigner(key: Uint8Array) {
  const mac = (...parts: string[]) => createHmac('sha256', key).update(parts.join('\n')).digest('base64url');
  return {
    entry: (id: string, origin: string) => `${origin} ${mac('holder', id, origin)}`,
    holderOf(id: string, entry: string): string | undefined {
      const [origin, sig, extra] = entry.split(' ');
      if (!origin || !sig || extra !== undefined || !sameSecret(sig, mac('holder', id, origin)))
        return undefined;
      return origin;
    },
    signHop(method: string, url: URL, session: string): string {
      const at = String(Math.floor(Date.now() / 1000));
      return `${at}.${mac('hop', method, url.pathname + url.search, session, at)}`;
    },
    verifyHop(req: IncomingMessage, url: URL, session: unknown): boolean {
      const value = req.headers[FORWARDED];
      if (typeof value !== 'string' || typeof session !== 'string') return false;
      const [at, sig] = value.split('.');
      if (!at || !sig || !/^\d{1,12}$/.test(at)) return false;
      if (Math.abs(Date.now() / 1000 - Number(at)) > HOP_WINDOW_S) return false;
      return sameSecret(sig, mac('hop', req.method ?? 'GET', url.pathname + url.search, session, at));
    },
  };
}

/**
 * Passes a request on to the replica at `target` (a registered origin) and streams its answer back; false
 * (nothing sent yet) when that replica cannot be reached. The address is that origin plus the request's own
 * path and query, built here, never resolved from what the client sent.
 */
function forward(
  target: string,
  url: URL,
  hop: string,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
): Promise<boolean> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  // The client's hop-by-hop headers (and its Host) are not passed on: this is a new connection.
  const {
    'content-length': _len,
    'transfer-encoding': _te,
    host: _host,
    connection: _conn,
    'keep-alive': _ka,
    upgrade: _up,
    ...headers
  } = req.headers;
  const to = new URL(target);
  to.pathname = url.pathname;
  to.search = url.search;
  return new Promise((resolve) => {
    const out = request(
      to,
      {
        method: req.method,
        headers: { ...headers, [FORWARDED]: hop, ...(payload ? { 'content-length': payload.length } : {}) },
      },
      (answer) => {
        // Hop-by-hop headers belong to the replicas' own connection, not to the client's.
        const { connection: _c, 'keep-alive': _k, ...answerHeaders } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, answerHeaders);
        answer.pipe(res);
        resolve(true);
      },
    );
    out.once('error', () => {
      if (res.headersSent) res.destroy();
      resolve(res.headersSent);
    });
    res.once('close', () => out.destroy());
    out.end(payload);
  });
}

/** What the transport knows of the request being served: its X-MCP-Toolsets and the client's name. */
const asked = new AsyncLocalStorage<{ header?: string[]; client: string; listener?: string }>();

/** The client's name a 2026-07-28 request carries in its `_meta` (empty when it names none). */
function clientNameOf(body: unknown): string {
  const m = (Array.isArray(body) ? body[0] : body) as {
    params?: { _meta?: Record<string, { name?: unknown } | undefined> };
  };
  const name = m?.params?._meta?.['io.modelcontextprotocol/clientInfo']?.name;
  return typeof name === 'string' ? name.slice(0, 200) : '';
}

/**
 * The bus the listen streams read, with events meant for one client: a stream opened by a person's client
 * hears the events `target`ed at that person and client, and every untargeted event (feed changes).
 */
function targeted(bus: ServerEventBus): ServerEventBus {
  return {
    publish: (event) => bus.publish(event),
    subscribe(listener) {
      const own = asked.getStore()?.listener;
      return bus.subscribe((event) => {
        const target = (event as { target?: string }).target;
        if (target === undefined) return listener(event);
        if (target !== own) return;
        const { target: _t, ...plain } = event as ServerEvent & { target?: string };
        listener(plain as ServerEvent);
      });
    },
  };
}

function rpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The body as text, or undefined when over MAX_BODY. An oversized body is drained (up to 8× the cap, then the
 * socket is dropped) so the client reads the 413 instead of a connection reset. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 8 * MAX_BODY) {
      req.destroy();
      return undefined;
    }
    if (size <= MAX_BODY) chunks.push(chunk as Buffer);
  }
  return size > MAX_BODY ? undefined : Buffer.concat(chunks).toString('utf8');
}
