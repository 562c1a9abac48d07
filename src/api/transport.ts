// HTTP for the API client: undici keep-alive pools, digest auth, one deadline per call, retries that
// never repeat a write the server may have received, and error answers turned into ApiError. This file puts
// the parts together and reads through the cache: one exchange is transport-http.ts, its digest round trips
// transport-digest.ts, its retries transport-retry.ts, what a failure means transport-errors.ts.

import type { Logger } from '../log.js';
import { type Budget, createBudget } from './budget.js';
import { createReadCache, type Kept, keyIdentity, type ReadCache, type ReadResult } from './cache.js';
import { ApiError, bodyExcerpt, errorFromResponse } from './errors.js';
import { unwrapEnvelope } from './schemas.js';
import { createSignedExchange } from './transport-digest.js';
import {
  createDispatcher,
  createSender,
  type Method,
  type Query,
  queryString,
  type RawResponse,
  type TransportStats,
} from './transport-http.js';
import { type RetryOptions, sendWithRetries } from './transport-retry.js';

export { errorCodeOf, isPlainHttpOnTls } from './transport-errors.js';
export type { Method, Query, TransportStats } from './transport-http.js';
export { BACKOFF_CAP_MS, backoffDelay, canRetryAfterError, parseRetryAfter } from './transport-retry.js';

export interface TransportRequest {
  method: Method;
  /** Path below the API prefix, already encoded (see apiPath). */
  path: string;
  query?: Query;
  body?: unknown;
  /** false for the one endpoint that needs no API key (POST /unauth/users). */
  auth?: boolean;
}

export interface TransportConfig {
  /** Host root or the full /api/public/v1.0 prefix. */
  baseUrl: string;
  publicKey: string;
  privateKey: string;
  /** Deadline of one call, retries included (default 30000). */
  timeoutMs?: number;
  /** Retries of idempotent calls (default 3). */
  maxRetries?: number;
  caFile?: string;
  tlsInsecure?: boolean;
  logger: Logger;
  /** Default true; false = answer a challenge on every request (two round trips per call), for benchmarks. */
  preemptive?: boolean;
  /** How long answers of GETs are kept (ms); 0 or absent keeps none. Identical GETs in flight are always shared. */
  cacheTtlMs?: number;
  /** How long what changes rarely (projects, hosts, global alert configurations) is kept; default 12 × cacheTtlMs. */
  cacheSlowTtlMs?: number;
  /** Each GET's outcome (hit, coalesced, miss), for metrics. */
  onRead?: (result: ReadResult) => void;
  /** Each HTTP exchange with the platform, as it completes (metrics). */
  onResponse?: (method: string, status: number | 'error', ms: number) => void;
  /** Requests per minute this client may send (token bucket); 0 or absent = no limit. */
  rateLimit?: number;
  /** Requests in flight at once; 0 or absent = no cap. */
  maxConcurrent?: number;
}

const API_PREFIX = '/api/public/v1.0';

/** Accepts the host root or the full API prefix, with or without a trailing slash. */
export function normaliseBaseUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new Error('DBOPS_BASE_URL is not a valid URL (expected e.g. https://ops.example.com:8080)');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    throw new Error(`DBOPS_BASE_URL must use http or https, not ${u.protocol.replace(':', '')}`);
  }
  if (u.username || u.password) {
    throw new Error(
      'DBOPS_BASE_URL must not contain credentials; set DBOPS_PUBLIC_KEY and DBOPS_PRIVATE_KEY',
    );
  }
  if (u.search || u.hash) throw new Error('DBOPS_BASE_URL must not contain a query or fragment');
  let path = u.pathname.replace(/\/+$/, '');
  for (const partial of [API_PREFIX, '/api/public', '/api']) {
    if (path.endsWith(partial)) {
      path = path.slice(0, -partial.length);
      break;
    }
  }
  return `${u.origin}${path}${API_PREFIX}`;
}

/** What `kept` answers when nothing fresh is kept. */
export const MISS: unique symbol = Symbol('not kept');

interface Transport {
  readonly baseUrl: string;
  readonly stats: TransportStats;
  readonly cache: ReadCache;
  readonly budget: Budget;
  request<T = unknown>(req: TransportRequest, opts?: { signal?: AbortSignal }): Promise<T>;
  /**
   * What `request` would answer from a kept read, at once (a kept refusal throws its error); MISS when it
   * would ask the platform (or join a read in flight) — then call `request`.
   */
  kept<T = unknown>(req: TransportRequest, opts?: { signal?: AbortSignal }): T | typeof MISS;
  close(): Promise<void>;
}

export function createTransport(cfg: TransportConfig): Transport {
  const baseUrl = normaliseBaseUrl(cfg.baseUrl);
  const { origin, pathname: basePath } = new URL(baseUrl);
  const dispatcher = createDispatcher(cfg);
  const stats: TransportStats = { requests: 0, retries: 0, challenges: 0 };
  const budget = createBudget({ ratePerMinute: cfg.rateLimit ?? 0, maxConcurrent: cfg.maxConcurrent ?? 0 });
  const cache = createReadCache({
    ttlMs: cfg.cacheTtlMs ?? 0,
    slowTtlMs: cfg.cacheSlowTtlMs,
    identity: keyIdentity(cfg.publicKey, baseUrl),
    onRead: cfg.onRead,
  });
  const send = createSender({ origin, basePath, dispatcher, budget, stats, onResponse: cfg.onResponse });
  const retry: RetryOptions = {
    origin,
    timeoutMs: cfg.timeoutMs ?? 30_000,
    maxRetries: Math.max(0, cfg.maxRetries ?? 3),
    logger: cfg.logger,
    stats,
    budget,
    exchange: createSignedExchange({
      origin,
      publicKey: cfg.publicKey,
      privateKey: cfg.privateKey,
      preemptive: cfg.preemptive ?? true,
      send,
      stats,
    }),
  };

  /** The request with its retries (see sendWithRetries), its path below the prefix given with its query. */
  function withRetries(req: TransportRequest, relative: string, signal?: AbortSignal, refusals = false) {
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const attempted = { ...req, target: basePath + relative, body, auth: req.auth !== false };
    return sendWithRetries(retry, attempted, signal, refusals);
  }

  function kept<T>(req: TransportRequest, opts: { signal?: AbortSignal } = {}): T | typeof MISS {
    if (req.method !== 'GET' || req.auth === false || opts.signal?.aborted) return MISS;
    const k = cache.peek(req.path + queryString(req.query));
    return k ? answerOf<T>(k, req) : MISS;
  }

  /** A kept read's answer: its value (decoded once), or the refusal it keeps thrown as the error it was. */
  function answerOf<T>(k: Kept, { method, path }: TransportRequest): T {
    // A refusal was kept like an answer (a name nobody may read costs one request, not one per call).
    if (k.status >= 400) throw errorFromResponse({ status: k.status, body: k.body, method, path });
    return decodeShared<T>(k, method, path);
  }

  async function request<T>(req: TransportRequest, opts: { signal?: AbortSignal } = {}): Promise<T> {
    const { method, path } = req;
    const relative = path + queryString(req.query);
    if (method === 'GET' && req.auth !== false) {
      // Shared with identical reads: fetched under a signal of its own, so one caller cancelling does not fail
      // the others (the last one leaving cancels it).
      const got = await cache.read(
        relative,
        async (signal) => {
          const res = await withRetries(req, relative, signal, true);
          return { status: res?.status ?? 204, body: res?.body ?? '', at: Date.now() };
        },
        opts.signal,
      );
      return answerOf<T>(got, req);
    }
    try {
      const res = await withRetries(req, relative, opts.signal);
      return res ? decode<T>(res, method, path) : (undefined as T);
    } finally {
      // Whatever the outcome (a lost answer may still have changed something): our reads of it are stale.
      if (method !== 'GET') await cache.invalidate(path).catch(() => {});
    }
  }

  return {
    baseUrl,
    stats,
    cache,
    budget,
    request,
    kept,
    async close() {
      await dispatcher.close();
    },
  };
}

/** Each read's answer decoded once: its callers share the value, frozen (see decodeShared). */
const decoded = new WeakMap<Kept, unknown>();

/** Freezes a decoded JSON value and everything in it. */
function deepFreeze(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  for (const x of Array.isArray(v) ? v : Object.values(v)) deepFreeze(x);
  return Object.freeze(v);
}

/**
 * A read's answer, decoded on its first use only: every caller of one read (in flight together, or later from
 * the cache) holds the same value, frozen so that none can change what another reads. A warm answer across
 * hundreds of projects decodes nothing again.
 */
function decodeShared<T>(kept: Kept, method: Method, path: string): T {
  if (decoded.has(kept)) return decoded.get(kept) as T;
  const v = deepFreeze(decode(kept, method, path));
  decoded.set(kept, v);
  return v as T;
}

function decode<T>(res: Pick<RawResponse, 'status' | 'body'>, method: Method, path: string): T {
  if (res.status === 204 || res.body.trim() === '') return undefined as T;
  try {
    return unwrapEnvelope(JSON.parse(res.body)) as T;
  } catch {
    throw new ApiError({
      status: res.status,
      method,
      path,
      errorCode: 'INVALID_RESPONSE',
      message: `The answer to ${method} ${path} (${res.status}) was not JSON; a proxy or web server may have answered instead of the API: "${bodyExcerpt(res.body)}". Check DBOPS_BASE_URL.`,
    });
  }
}
