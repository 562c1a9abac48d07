// The simulator's HTTP layer: routing under /api/public/v1.0, digest auth, access lists, the common query
// parameters, JSON bodies, paging links, envelope/pretty, the platform's headers and error bodies, fault
// injection and statistics. Routes (the data layer) only see a SimRequest and return a SimResponse.
// One request goes through the steps of handleApi; matching is server-routing.ts, reading the query and
// body server-request.ts, the answers' shape server-replies.ts.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '../log.js';
import type { DigestVerifier } from './digest-server.js';
import { decideFault, type Faults, faultDelayMs, injectedReply, losesResponse } from './faults.js';
import type { KeyRecord } from './records.js';
import { createReplies, payloadOf, type Replies } from './server-replies.js';
import { parseQuery, readJsonBody } from './server-request.js';
import { type Compiled, compile, findRoute } from './server-routing.js';
import { bump, type Stats } from './stats.js';
import {
  type Caller,
  type SimContext,
  SimError,
  type SimRequest,
  type SimResponse,
  type SimRoute,
} from './types.js';
import { normalizeAddress } from './values.js';

export const API_PREFIX = '/api/public/v1.0';
export const STATS_PATH = '/__simulator/stats';
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const WITH_BODY = new Set(['POST', 'PATCH', 'PUT']);

/** What the HTTP layer asks of the store (implemented by Store in store.ts). */
interface HttpStore {
  findApiKey(publicKey: string): KeyRecord | undefined;
  /** False = the caller's address is not allowed; also records the access (last used, count). */
  checkAccessList(key: KeyRecord, remoteAddress: string, now: Date): boolean;
}

interface SimServerOptions {
  ctx: SimContext & { store: HttpStore };
  routes: readonly SimRoute[];
  digest: DigestVerifier;
  faults: Faults;
  stats: Stats;
  logger: Logger;
  /** Runs after a 2xx answer of a route with `mutates`, before the answer is sent; a throw turns it into a 500. */
  persist?: () => void;
  /** Takes changes another process saved to the shared data file (before a read). */
  refresh?: () => void;
  /** Runs a change and its save under the data file's inter-process lock, on fresh data. */
  shared?: <T>(change: () => T) => T;
  maxBodyBytes?: number;
  rand?: () => number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** What every request's steps share: the options, the compiled routes and the ways to answer. */
interface Http {
  opts: SimServerOptions;
  compiled: Compiled[];
  maxBody: number;
  rand: () => number;
  reply: Replies;
}

/**
 * Digest auth (before anything else: unknown paths and wrong methods are challenged too), then the access
 * list of the key's user. The caller, or undefined when a challenge was answered.
 */
function authenticate(
  h: Http,
  req: IncomingMessage,
  res: ServerResponse,
  remoteAddress: string,
): Caller | undefined {
  const { ctx, digest, stats } = h.opts;
  const result = digest.verify(
    req.headers.authorization,
    req.method ?? 'GET',
    req.url ?? '/',
    (user) => ctx.store.findApiKey(user)?.privateKey,
  );
  if (!result.ok) {
    if (result.badCredentials) stats.authFailures++;
    if (result.stale) stats.staleNonces++;
    h.reply.challenge(res, result.stale);
    return undefined;
  }
  const key = ctx.store.findApiKey(result.username);
  if (!key) return void h.reply.challenge(res, false);
  if (!ctx.store.checkAccessList(key, remoteAddress, ctx.now())) {
    throw new SimError(
      403,
      'IP_ADDRESS_NOT_ON_ACCESS_LIST',
      `IP address ${remoteAddress} is not allowed to access this resource.`,
    );
  }
  return { key, remoteAddress };
}

/** Injected faults: after auth, before the route, so they never apply a change. True when one answered. */
function injectFault(h: Http, req: IncomingMessage, res: ServerResponse, route: SimRoute): boolean {
  const { faults, stats } = h.opts;
  const fault = decideFault(faults, h.rand);
  if (fault?.kind === 'reset') {
    stats.resets++;
    req.socket.destroy();
    return true;
  }
  if (fault?.kind === 'error') {
    stats.injectedErrors++;
    const reply = injectedReply(fault.status, faults, route.path);
    h.reply.send(res, reply.status, reply.headers, reply.body);
    return true;
  }
  return false;
}

/** The route itself; a change is saved after a 2xx reply, under the data file's lock when it is shared. */
function runRoute(h: Http, route: SimRoute, simReq: SimRequest): SimResponse {
  const { ctx, persist, shared } = h.opts;
  const apply = (): SimResponse => {
    let reply: SimResponse;
    try {
      reply = route.handle(simReq, ctx);
    } finally {
      // Even a refused change may have touched a record: per-project views are rebuilt.
      if (route.mutates) ctx.store.changed();
    }
    if (route.mutates && reply.status >= 200 && reply.status < 300) persist?.();
    return reply;
  };
  return route.mutates && shared ? shared(apply) : apply();
}

async function handleApi(
  h: Http,
  req: IncomingMessage,
  res: ServerResponse,
  rawPath: string,
  rawQuery: string,
) {
  const { ctx, faults, stats } = h.opts;
  const method = req.method ?? 'GET';
  stats.requests++;
  bump(stats.byMethod, method);
  const delay = faultDelayMs(faults, h.rand);
  if (delay > 0) await sleep(delay);

  const relPath = rawPath.slice(API_PREFIX.length);
  const match = findRoute(h.compiled, method, relPath);
  if (match.kind === 'route') bump(stats.byRoute, `${match.route.method} ${match.route.path}`);

  // Another process sharing the data file may have changed it (a key it created signs this request).
  h.opts.refresh?.();
  const remoteAddress = normalizeAddress(req.socket.remoteAddress ?? '');
  let caller: Caller | null = null;
  if (match.kind !== 'route' || (match.route.auth ?? 'digest') === 'digest') {
    const known = authenticate(h, req, res, remoteAddress);
    if (!known) return;
    caller = known;
  }
  if (match.kind === 'none') {
    throw new SimError(404, 'RESOURCE_NOT_FOUND', `Cannot find resource ${relPath}.`);
  }
  if (match.kind === 'method') {
    const e = new SimError(405, undefined, `Method ${method} is not allowed on ${relPath}.`);
    return h.reply.error(res, e, { Allow: match.allowed.join(', ') });
  }
  const route = match.route;
  const query = new URLSearchParams(rawQuery);
  const flags = parseQuery(query);
  let body: unknown;
  if (WITH_BODY.has(method)) {
    const read = await readJsonBody(req, h.maxBody);
    if (read === 'too large') {
      const e = new SimError(413, 'REQUEST_TOO_LARGE', `Request bodies are limited to ${h.maxBody} bytes.`);
      return h.reply.error(res, e, { Connection: 'close' });
    }
    body = read.body;
  }
  if (injectFault(h, req, res, route)) return;

  const simReq: SimRequest = {
    method: route.method,
    path: relPath,
    params: match.params,
    query,
    body,
    caller,
    remoteAddress,
    baseUrl: `http://${req.headers.host ?? 'localhost'}${API_PREFIX}`,
    now: ctx.now(),
  };
  const result = runRoute(h, route, simReq);
  if (losesResponse(faults, method, h.rand)) {
    // The change is applied (and saved); the client never learns it.
    stats.lostResponses++;
    req.socket.destroy();
    return;
  }
  h.reply.success(res, result.status, payloadOf(result, simReq, flags, route.paged !== false), flags.pretty);
}

/** Anything a step threw: its SimError as the platform's error body, else a logged 500. */
function replyFailure(
  h: Http,
  req: IncomingMessage,
  res: ServerResponse,
  rawPath: string,
  error: unknown,
): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  if (error instanceof SimError) {
    h.reply.error(res, error);
    return;
  }
  h.opts.logger.error('simulator request failed', {
    method: req.method,
    path: rawPath,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  h.reply.error(res, new SimError(500, 'UNEXPECTED_ERROR', 'Unexpected error.'));
}

export function createSimServer(opts: SimServerOptions): Server {
  const h: Http = {
    opts,
    compiled: compile(opts.routes),
    maxBody: opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    rand: opts.rand ?? Math.random,
    reply: createReplies(opts.stats, opts.digest),
  };
  return createServer((req, res) => {
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const rawPath = q < 0 ? target : target.slice(0, q);
    const rawQuery = q < 0 ? '' : target.slice(q + 1);

    if (rawPath === STATS_PATH) {
      if (req.method !== 'GET') return void h.reply.error(res, new SimError(405, undefined, 'Use GET.'));
      const snapshot = JSON.stringify(opts.stats.snapshot());
      return void h.reply.send(res, 200, { 'Content-Type': 'application/json' }, snapshot);
    }
    if (!rawPath.startsWith(`${API_PREFIX}/`)) {
      const e = new SimError(404, 'RESOURCE_NOT_FOUND', `Cannot find resource ${rawPath}.`);
      return void h.reply.error(res, e);
    }
    handleApi(h, req, res, rawPath, rawQuery).catch((error: unknown) =>
      replyFailure(h, req, res, rawPath, error),
    );
  });
}
