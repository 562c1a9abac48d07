// The simulator's HTTP layer: routing under /api/public/v1.0, digest auth, access lists, the common query
// parameters, JSON bodies, paging links, envelope/pretty, the platform's headers and error bodies, fault
// injection and statistics. Routes (the data layer) only see a SimRequest and return a SimResponse.

import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '../log.js';
import type { DigestVerifier } from './digest-server.js';
import { decideFault, type Faults, faultDelayMs, injectedAnswer, losesResponse } from './faults.js';
import type { KeyRecord } from './records.js';
import { bump, type Stats } from './stats.js';
import {
  type Caller,
  errorBody,
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
const VERSION_STRING = '8.0.12';
const GIT_HASH = createHash('sha1').update(`dbops-simulator ${VERSION_STRING}`).digest('hex');
const SERVICE_VERSION = `gitHash=${GIT_HASH}; versionString=${VERSION_STRING}`;

const WITH_BODY = new Set(['POST', 'PATCH', 'PUT']);

const UNAUTHORIZED_BODY = JSON.stringify({
  reason: 'Unauthorized',
  error: 401,
  detail: 'You are not authorized for this resource.',
});

/** What the HTTP layer asks of the store (implemented by Store in store.ts). */
export interface HttpStore {
  findApiKey(publicKey: string): KeyRecord | undefined;
  /** False = the caller's address is not allowed; also records the access (last used, count). */
  checkAccessList(key: KeyRecord, remoteAddress: string, now: Date): boolean;
}

export interface SimServerOptions {
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

interface Compiled {
  route: SimRoute;
  segments: string[];
  /** '1' per literal segment, '0' per parameter: a greater rank is a more specific pattern. */
  rank: string;
}

type Match =
  | { kind: 'route'; route: SimRoute; params: Record<string, string> }
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

function compile(routes: readonly SimRoute[]): Compiled[] {
  return routes.map((route) => {
    const segments = route.path.split('/').slice(1);
    return { route, segments, rank: segments.map((s) => (s.startsWith(':') ? '0' : '1')).join('') };
  });
}

function matchSegments(pattern: string[], segs: string[]): Record<string, string> | undefined {
  if (pattern.length !== segs.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const s = segs[i]!;
    if (p.startsWith(':')) {
      if (s === '') return undefined;
      params[p.slice(1)] = s;
    } else if (p !== s) {
      return undefined;
    }
  }
  return params;
}

function matchRoute(compiled: Compiled[], method: string, segs: string[]): Match {
  let best: { c: Compiled; params: Record<string, string> } | undefined;
  const allowed = new Set<string>();
  for (const c of compiled) {
    const params = matchSegments(c.segments, segs);
    if (!params) continue;
    allowed.add(c.route.method);
    if (c.route.method === method && (!best || c.rank > best.c.rank)) best = { c, params };
  }
  if (best) return { kind: 'route', route: best.c.route, params: best.params };
  return allowed.size > 0 ? { kind: 'method', allowed: [...allowed] } : { kind: 'none' };
}

/** Splits the path after the prefix into decoded segments; undefined when a segment does not decode. */
function decodeSegments(relPath: string): string[] | undefined {
  try {
    return relPath
      .split('/')
      .slice(1)
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

interface QueryFlags {
  pageNum: number;
  itemsPerPage: number;
  pretty: boolean;
  envelope: boolean;
}

function parseQuery(query: URLSearchParams): QueryFlags {
  const bad = (name: string, value: string, rule: string): never => {
    throw new SimError(
      400,
      'INVALID_QUERY_PARAMETER',
      `Invalid query parameter ${name} specified: ${JSON.stringify(value)} (${rule}).`,
      [name, value],
    );
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const value = query.get(name);
    if (value === null) return fallback;
    const n = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
    if (!(n >= min && n <= max)) bad(name, value, `an integer from ${min} to ${max}`);
    return n;
  };
  const bool = (name: string): boolean => {
    const value = query.get(name);
    if (value === null) return false;
    const v = value.toLowerCase();
    if (v !== 'true' && v !== 'false') bad(name, value, 'true or false');
    return v === 'true';
  };
  return {
    pageNum: int('pageNum', 1, 1, 999_999_999),
    itemsPerPage: int('itemsPerPage', 100, 1, 500),
    pretty: bool('pretty'),
    envelope: bool('envelope'),
  };
}

/** The body as text; undefined when it is (or says it is) longer than `max` bytes. */
function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => {
      req.resume(); // discard the rest; the answer closes the connection
      resolve(undefined);
    };
    if (Number(req.headers['content-length'] ?? 0) > max) return tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      req.off('data', onData);
      tooLarge();
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createSimServer(opts: SimServerOptions): Server {
  const { ctx, digest, faults, stats, logger } = opts;
  const compiled = compile(opts.routes);
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const rand = opts.rand ?? Math.random;

  function send(res: ServerResponse, status: number, headers: Record<string, string>, body = ''): void {
    bump(stats.byStatus, String(status));
    res.writeHead(status, {
      'Strict-Transport-Security': 'max-age=300',
      ...headers,
      'Content-Length': String(Buffer.byteLength(body)),
    });
    res.end(body);
  }

  function sendError(res: ServerResponse, e: SimError, extra: Record<string, string> = {}): void {
    const body = errorBody(e.status, e.errorCode, e.detail, e.parameters);
    send(res, e.status, { 'Content-Type': 'application/json', ...extra }, JSON.stringify(body));
  }

  function challenge(res: ServerResponse, stale: boolean): void {
    stats.challenges++;
    send(
      res,
      401,
      {
        'WWW-Authenticate': digest.challenge(stale),
        'Content-Type': 'application/json;charset=ISO-8859-1',
      },
      UNAUTHORIZED_BODY,
    );
  }

  function sendSuccess(res: ServerResponse, status: number, payload: unknown, pretty: boolean): void {
    const headers = {
      'X-Vendor-Service-Version': SERVICE_VERSION,
      Vary: 'Accept-Encoding',
      'Content-Type': 'application/json',
    };
    const body =
      status === 204 || payload === undefined ? '' : JSON.stringify(payload, null, pretty ? 2 : undefined);
    send(res, status, headers, body);
  }

  function page(list: unknown[], req: SimRequest, flags: QueryFlags, paged: boolean) {
    const total = list.length;
    if (!paged) {
      const query = req.query.toString();
      const self = `${req.baseUrl}${req.path}${query ? `?${query}` : ''}`;
      return { links: [{ rel: 'self', href: self }], results: list, totalCount: total };
    }
    const { pageNum, itemsPerPage: size } = flags;
    const start = (pageNum - 1) * size;
    const href = (n: number) => {
      const q = new URLSearchParams(req.query);
      q.set('pageNum', String(n));
      q.set('itemsPerPage', String(size));
      return `${req.baseUrl}${req.path}?${q}`;
    };
    const links = [{ rel: 'self', href: href(pageNum) }];
    if (start + size < total) links.push({ rel: 'next', href: href(pageNum + 1) });
    if (pageNum > 1) links.push({ rel: 'previous', href: href(pageNum - 1) });
    return { links, results: list.slice(start, start + size), totalCount: total };
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, rawPath: string, rawQuery: string) {
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    stats.requests++;
    bump(stats.byMethod, method);
    const delay = faultDelayMs(faults, rand);
    if (delay > 0) await sleep(delay);

    const relPath = rawPath.slice(API_PREFIX.length);
    const segs = decodeSegments(relPath);
    const match: Match = segs ? matchRoute(compiled, method, segs) : { kind: 'none' };
    if (match.kind === 'route') bump(stats.byRoute, `${match.route.method} ${match.route.path}`);

    // Another process sharing the data file may have changed it (a key it created signs this request).
    opts.refresh?.();
    // 1. Digest auth, before anything else (unknown paths and wrong methods are challenged too).
    const remoteAddress = normalizeAddress(req.socket.remoteAddress ?? '');
    let caller: Caller | null = null;
    if (match.kind !== 'route' || (match.route.auth ?? 'digest') === 'digest') {
      const result = digest.verify(
        req.headers.authorization,
        method,
        target,
        (user) => ctx.store.findApiKey(user)?.privateKey,
      );
      if (!result.ok) {
        if (result.badCredentials) stats.authFailures++;
        if (result.stale) stats.staleNonces++;
        challenge(res, result.stale);
        return;
      }
      const key = ctx.store.findApiKey(result.username);
      if (!key) return challenge(res, false);
      // 2. Access list of the key's user.
      if (!ctx.store.checkAccessList(key, remoteAddress, ctx.now())) {
        throw new SimError(
          403,
          'IP_ADDRESS_NOT_ON_ACCESS_LIST',
          `IP address ${remoteAddress} is not allowed to access this resource.`,
        );
      }
      caller = { key, remoteAddress };
    }

    if (match.kind === 'none') {
      throw new SimError(404, 'RESOURCE_NOT_FOUND', `Cannot find resource ${relPath}.`);
    }
    if (match.kind === 'method') {
      const e = new SimError(405, undefined, `Method ${method} is not allowed on ${relPath}.`);
      return sendError(res, e, { Allow: match.allowed.join(', ') });
    }
    const route = match.route;

    // 3. Common query parameters.
    const query = new URLSearchParams(rawQuery);
    const flags = parseQuery(query);

    // 4. JSON body.
    let body: unknown;
    if (WITH_BODY.has(method)) {
      const text = await readBody(req, maxBody);
      if (text === undefined) {
        const e = new SimError(413, 'REQUEST_TOO_LARGE', `Request bodies are limited to ${maxBody} bytes.`);
        return sendError(res, e, { Connection: 'close' });
      }
      if (text.trim() !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          throw new SimError(400, 'INVALID_JSON', 'Received JSON is malformed.');
        }
      }
    }

    // Injected faults: after auth, before the route, so they never apply a change.
    const fault = decideFault(faults, rand);
    if (fault?.kind === 'reset') {
      stats.resets++;
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'error') {
      stats.injectedErrors++;
      const answer = injectedAnswer(fault.status, faults, route.path);
      send(res, answer.status, answer.headers, answer.body);
      return;
    }

    // 5. The route.
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
    const apply = (): SimResponse => {
      const answer = route.handle(simReq, ctx);
      if (route.mutates && answer.status >= 200 && answer.status < 300) opts.persist?.();
      return answer;
    };
    const result: SimResponse = route.mutates && opts.shared ? opts.shared(apply) : apply();
    if (losesResponse(faults, method, rand)) {
      // The change is applied (and saved); the client never learns it.
      stats.lostResponses++;
      req.socket.destroy();
      return;
    }
    const payload = 'list' in result ? page(result.list, simReq, flags, route.paged !== false) : result.body;
    const enveloped =
      !flags.envelope || result.status === 204
        ? payload
        : 'list' in result
          ? { ...(payload as object), status: result.status }
          : { status: result.status, content: payload ?? null };
    sendSuccess(res, result.status, enveloped, flags.pretty);
  }

  return createServer((req, res) => {
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const rawPath = q < 0 ? target : target.slice(0, q);
    const rawQuery = q < 0 ? '' : target.slice(q + 1);

    if (rawPath === STATS_PATH) {
      if (req.method !== 'GET') return void sendError(res, new SimError(405, undefined, 'Use GET.'));
      return void send(res, 200, { 'Content-Type': 'application/json' }, JSON.stringify(stats.snapshot()));
    }
    if (!rawPath.startsWith(`${API_PREFIX}/`)) {
      return void sendError(res, new SimError(404, 'RESOURCE_NOT_FOUND', `Cannot find resource ${rawPath}.`));
    }

    handleApi(req, res, rawPath, rawQuery).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      if (error instanceof SimError) return sendError(res, error);
      logger.error('simulator request failed', {
        method: req.method,
        path: rawPath,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      sendError(res, new SimError(500, 'UNEXPECTED_ERROR', 'Unexpected error.'));
    });
  });
}
