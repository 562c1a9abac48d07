// POST/GET/DELETE /mcp once the person is known: the X-MCP-Toolsets header checked, the body read within its
// bounds, then the request goes to its era — 2026-07-28 to the sessionless handler; 2025 to its session
// (here, passed on to the replica holding it, or 404 when it is gone), to a new session on initialize, or to
// the stateless fallback.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest, isLegacyRequest } from '@modelcontextprotocol/server';
import { toolsets } from '../../catalog.js';
import type { Person } from '../../identity/index.js';
import { headerNames, unknownToolsets } from '../../policy/toolsets.js';
import { listenedUris } from '../listen.js';
import { authInfoOf } from '../person.js';
import type { HttpCore } from './core.js';
import { asked } from './eras.js';
import { MAX_BODY, rpcError, sendJson } from './options.js';
import { FORWARDED, forward } from './replicas.js';

/** No MCP message nests this deep; the SDK's recursive checks would overflow the stack on much deeper input. */
const MAX_DEPTH = 64;

/** A request as the MCP handlers take it: the person in `auth`. */
type Authed = IncomingMessage & { auth: ReturnType<typeof authInfoOf> };

/** What one /mcp request carries, once read. */
interface McpRequest {
  req: Authed;
  res: ServerResponse;
  url: URL;
  person: Person;
  /** X-MCP-Toolsets, when sent. */
  header?: string[];
  body: unknown;
}

export async function handleMcp(
  core: HttpCore,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  person: Person,
) {
  // X-MCP-Toolsets narrows what this client sees; a name that is no toolset is refused with the valid ones.
  const header = headerNames(req.headers['x-mcp-toolsets']);
  const refused = header && unknownToolsets(header, toolsets);
  // Passed on by another replica: only when signed with the replicas' key; a client's claim is dropped.
  const fromReplica = core.relay?.verifyHop(req, url, req.headers['mcp-session-id']) ?? false;
  delete req.headers[FORWARDED];
  let body: unknown;
  if (req.method === 'POST') {
    const read = await readJson(req);
    if ('refusal' in read) return sendJson(res, read.refusal[0], read.refusal[1]);
    body = read.body;
  }
  const authed = Object.assign(req, { auth: authInfoOf(person, req.socket.remoteAddress) });
  const r: McpRequest = { req: authed, res, url, person, ...(header ? { header } : {}), body };
  const modern = !(await isLegacyRequest(probeOf(req), req.method === 'POST' ? body : undefined));
  if (refused) {
    // server/discover needs no toolsets: answered, so a 2026-07-28 client connects and reads the refusal next.
    if (!modern || (body as { method?: unknown })?.method !== 'server/discover')
      return refuseHeader(r, modern, `X-MCP-Toolsets: ${refused}`);
    delete r.header;
  }
  if (modern) return serveModern(core, r);
  const sessionId = req.headers['mcp-session-id'];
  if (typeof sessionId === 'string') return serveSession(core, r, sessionId, fromReplica);
  return serveWithoutSession(core, r);
}

/**
 * An X-MCP-Toolsets naming no toolset. A 2025 client reads a 400's body; a 2026-07-28 client reads a refused
 * server/discover only as "no modern server" ("Version negotiation failed"), so there discover is answered and
 * every other request gets the JSON-RPC error as its answer, naming the valid ones.
 */
function refuseHeader(r: McpRequest, modern: boolean, message: string) {
  if (!modern) return sendJson(r.res, 400, rpcError(-32602, message));
  const m = r.body as { id?: unknown } | undefined;
  const id = typeof m?.id === 'string' || typeof m?.id === 'number' ? m.id : null;
  return sendJson(r.res, id === null ? 400 : 200, { ...rpcError(-32602, message), id });
}

/** The body as JSON, or the refusal (status and JSON-RPC error) when it is too large, too deep or not JSON. */
async function readJson(req: IncomingMessage): Promise<{ body: unknown } | { refusal: [number, unknown] }> {
  const raw = await readBody(req);
  if (raw === undefined) return { refusal: [413, rpcError(-32600, `request body over ${MAX_BODY} bytes`)] };
  if (nesting(raw) > MAX_DEPTH)
    return { refusal: [400, rpcError(-32600, `JSON nested deeper than ${MAX_DEPTH} levels`)] };
  try {
    return { body: JSON.parse(raw) };
  } catch {
    return { refusal: [400, rpcError(-32700, 'Parse error: the body is not valid JSON')] };
  }
}

/** The request's method and headers as a fetch Request, for the SDK to tell the eras apart. */
function probeOf(req: IncomingMessage): Request {
  return new Request(`http://localhost${req.url ?? '/mcp'}`, {
    method: req.method === 'POST' ? 'POST' : (req.method ?? 'GET'),
    headers: Object.entries(req.headers).flatMap(([k, v]) =>
      typeof v === 'string' ? [[k, v] as [string, string]] : [],
    ),
    ...(req.method === 'POST' ? { body: '{}' } : {}),
  });
}

/** 2026-07-28: the sessionless handler; a listen stream keeps its feeds polled while it is open. */
function serveModern(core: HttpCore, r: McpRequest) {
  const uris = listenedUris(r.body);
  if (uris.length > 0)
    core.opts.onListen?.(uris, (stop) => r.res.once('close', stop), {
      person: r.person.id,
      ...(r.header ? { header: r.header } : {}),
    });
  return asked.run(r.header ? { header: r.header } : {}, () => core.eras.serveModern(r.req, r.res, r.body));
}

/** A 2025 request naming its session: served by it, passed on to the replica holding it, or 404. */
async function serveSession(core: HttpCore, r: McpRequest, sessionId: string, fromReplica: boolean) {
  const s = core.sessions.get(sessionId);
  if (!s) {
    // Another replica's session: pass the request on to it; served without a session when it is gone.
    if (!fromReplica && (await passOn(core, r, sessionId))) return;
    // Closed, evicted, or held by a replica that is gone: 404 is the protocol's signal to initialize anew
    // (answering without the session would leave the client without elicitation and subscriptions).
    return sendJson(r.res, 404, rpcError(-32001, 'Session not found: initialize a new session'));
  }
  if (s.person !== r.person.id)
    return sendJson(
      r.res,
      403,
      rpcError(-32001, 'This session was opened by another person: initialize a session of your own'),
    );
  core.sessions.use(sessionId, s, r.req, r.res);
  return s.transport.handleRequest(r.req, r.res, r.body);
}

/** Passes the request on to the replica the directory names as the session's holder; false when none answers. */
async function passOn(core: HttpCore, r: McpRequest, sessionId: string): Promise<boolean> {
  const { directory } = core.opts;
  const relay = core.relay;
  if (!directory || !relay) return false;
  const entry = await directory.holder(sessionId).catch(() => undefined);
  const holder = entry === undefined ? undefined : relay.holderOf(sessionId, entry);
  if (!holder || holder === core.at.ownOrigin) return false;
  const hop = relay.signHop(r.req.method ?? 'GET', r.url, sessionId);
  return forward(holder, r.url, hop, r.req, r.res, r.body);
}

/** A 2025 request without a session: 405 for a stream, a new session on initialize, else the stateless fallback. */
async function serveWithoutSession(core: HttpCore, r: McpRequest) {
  const { req, res, person, header, body } = r;
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
    return asked.run(header ? { header } : {}, () => core.eras.stateless(req, res, body));
  const full = core.sessions.noRoomFor(person);
  if (full) {
    res.setHeader('Retry-After', '5');
    return sendJson(res, 503, rpcError(-32000, full));
  }
  // A 2025 session reads the header once, at initialize: its toolsets then belong to the session.
  const mcp = core.opts.newServer(person, header ? { header } : undefined);
  await core.sessions.open(person, mcp, req, res, body);
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
