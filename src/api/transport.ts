// HTTP for the API client: undici keep-alive pools, digest auth, one deadline per call, retries that
// never repeat a write the server may have received, and error answers turned into ApiError.

import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { Dispatcher } from 'undici';
import type { Logger } from '../log.js';
import { abortError, sleep } from './abort.js';
import { type Budget, BudgetSpent, createBudget } from './budget.js';
import { createReadCache, keyIdentity, type ReadCache, type ReadResult } from './cache.js';
import { createDigestAuth, type DigestChallenge, parseDigestChallenge, type Signed } from './digest.js';
import { ApiError, bodyExcerpt, errorFromResponse, sanitizeText } from './errors.js';
import { unwrapEnvelope } from './schemas.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type Query = Record<string, string | number | boolean | string[] | undefined>;

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

export interface TransportStats {
  /** HTTP requests actually sent (challenges and retries included). */
  requests: number;
  retries: number;
  /** Digest challenges (401 with WWW-Authenticate) received. */
  challenges: number;
}

export const API_PREFIX = '/api/public/v1.0';

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

/** Retry-After as milliseconds from now: delay-seconds or an HTTP date; undefined when absent or invalid. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // An HTTP date names its month; Date.parse alone would read "-1" as a year.
  const t = /[a-z]{3}/i.test(v) ? Date.parse(v) : Number.NaN;
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

const BACKOFF_BASE_MS = 100;
export const BACKOFF_CAP_MS = 5000;

/** Capped exponential backoff with full jitter: uniform in [0, min(cap, base·2^attempt)). */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt));
}

const RETRY_STATUS = new Set([429, 502, 503, 504]);
/** Refusals that say the same until something changes (not found, forbidden, a role check): kept like answers. */
const KEPT_REFUSALS = new Set([401, 403, 404]);
const IDEMPOTENT = new Set<Method>(['GET', 'PUT', 'DELETE']);
// Failures that happen before a byte of the request was written: safe to retry even for POST/PATCH.
// (UND_ERR_SOCKET / ECONNRESET on a reused keep-alive socket are not: the server may have the request.)
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TLS_CODE = /^(CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_TLS_|ERR_SSL_|HOSTNAME_MISMATCH)/;

export function errorCodeOf(err: unknown): string | undefined {
  for (
    let e: unknown = err, i = 0;
    e && typeof e === 'object' && i < 4;
    e = (e as { cause?: unknown }).cause, i++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** Whether a failed exchange (no HTTP answer) may be sent again. */
export function canRetryAfterError(method: Method, code: string | undefined): boolean {
  // Connection failures carry a code; anything else is a bug or a bad argument, not worth repeating.
  if (!code || TLS_CODE.test(code) || code === 'UND_ERR_INVALID_ARG') return false;
  if (IDEMPOTENT.has(method)) return true;
  return NOT_SENT.has(code);
}

/**
 * An https:// URL whose port answers plain HTTP: the TLS handshake reads an HTTP answer ("wrong version
 * number"). The fix is http://, never a CA file.
 */
export function isPlainHttpOnTls(err: unknown): boolean {
  const code = errorCodeOf(err) ?? '';
  let text = '';
  for (
    let e: unknown = err, i = 0;
    e && typeof e === 'object' && i < 4;
    e = (e as { cause?: unknown }).cause, i++
  )
    text += ` ${(e as { message?: unknown }).message ?? ''}`;
  return code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|packet length too long/i.test(text);
}

function networkError(err: unknown, method: Method, path: string, origin: string): ApiError {
  const code = errorCodeOf(err) ?? 'NETWORK_ERROR';
  const why = sanitizeText(err instanceof Error ? err.message : String(err), 160);
  let message: string;
  if (origin.startsWith('https:') && isPlainHttpOnTls(err)) {
    const host = new URL(origin).host;
    message = `${host} answers plain HTTP, not TLS (${code}): use http://${host} in DBOPS_BASE_URL (or enable TLS on the platform).`;
  } else if (TLS_CODE.test(code)) {
    message = `TLS verification of ${origin} failed (${code}: ${why}). If the server uses a private CA, set DBOPS_CA_FILE to its certificate bundle.`;
  } else if (code === 'ECONNREFUSED') {
    message = `Could not connect to ${origin} for ${method} ${path} (ECONNREFUSED). Check that the server is running and DBOPS_BASE_URL is right.`;
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    message = `Could not resolve the host of ${origin} (${code}). Check DBOPS_BASE_URL and DNS.`;
  } else {
    message = `The connection to ${origin} failed during ${method} ${path} (${code}: ${why}). Check the network and proxy settings (HTTPS_PROXY, NO_PROXY), then try again.`;
  }
  return new ApiError({ status: 0, errorCode: code, method, path, message, cause: err });
}

function queryString(q: Query | undefined): string {
  if (!q) return '';
  const parts: string[] = [];
  const enc = encodeURIComponent;
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) parts.push(`${enc(k)}=${enc(String(item))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

const PROXY_ENV = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

/**
 * One keep-alive pool per origin (undici Agent), through the environment's proxy when one is set. Settings are
 * checked at once (a bad CA file fails start-up); undici itself is loaded on the first request, which keeps
 * it off the server's cold start (tools/list needs no HTTP).
 */
function createDispatcher(cfg: { caFile?: string; tlsInsecure?: boolean; logger: Logger }): {
  get(): Promise<Dispatcher>;
  close(): Promise<void>;
} {
  const tls: { ca?: string[]; rejectUnauthorized?: boolean } = {};
  if (cfg.caFile) {
    let pem: string;
    try {
      pem = readFileSync(cfg.caFile, 'utf8');
    } catch (e) {
      throw new Error(
        `Cannot read the CA file ${cfg.caFile} (DBOPS_CA_FILE): ${errorCodeOf(e) ?? String(e)}`,
      );
    }
    // Added to the public roots rather than replacing them, so a proxy with a public cert still works.
    tls.ca = [...rootCertificates, pem];
  }
  if (cfg.tlsInsecure) {
    tls.rejectUnauthorized = false;
    cfg.logger.warn(
      'TLS CERTIFICATE VERIFICATION IS DISABLED (DBOPS_TLS_INSECURE). Anyone on the network path can read and alter API traffic, including credentials. Use DBOPS_CA_FILE instead.',
    );
  }
  const opts = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connect: tls };
  let dispatcher: Promise<Dispatcher> | undefined;
  return {
    get: () =>
      (dispatcher ??= import('undici').then(({ Agent, EnvHttpProxyAgent }) => {
        if (!PROXY_ENV.some((k) => process.env[k])) return new Agent(opts);
        cfg.logger.debug('using the proxy settings of the environment');
        return new EnvHttpProxyAgent({ ...opts, requestTls: tls, proxyTls: tls.ca ? { ca: tls.ca } : {} });
      })),
    close: async () => {
      if (dispatcher) await (await dispatcher).close();
    },
  };
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function hasErrorCode(body: string): boolean {
  try {
    const o = JSON.parse(body) as unknown;
    return !!o && typeof o === 'object' && typeof (o as { errorCode?: unknown }).errorCode === 'string';
  } catch {
    return false;
  }
}

export interface Transport {
  readonly baseUrl: string;
  readonly stats: TransportStats;
  readonly cache: ReadCache;
  readonly budget: Budget;
  request<T = unknown>(req: TransportRequest, opts?: { signal?: AbortSignal }): Promise<T>;
  close(): Promise<void>;
}

export function createTransport(cfg: TransportConfig): Transport {
  const baseUrl = normaliseBaseUrl(cfg.baseUrl);
  const { origin, pathname: basePath } = new URL(baseUrl);
  const timeoutMs = cfg.timeoutMs ?? 30_000;
  const maxRetries = Math.max(0, cfg.maxRetries ?? 3);
  const preemptive = cfg.preemptive ?? true;
  const logger = cfg.logger;
  const dispatcher = createDispatcher(cfg);
  const digest = createDigestAuth({ username: cfg.publicKey, password: cfg.privateKey });
  const stats: TransportStats = { requests: 0, retries: 0, challenges: 0 };
  const budget = createBudget({ ratePerMinute: cfg.rateLimit ?? 0, maxConcurrent: cfg.maxConcurrent ?? 0 });
  const cache = createReadCache({
    ttlMs: cfg.cacheTtlMs ?? 0,
    slowTtlMs: cfg.cacheSlowTtlMs,
    identity: keyIdentity(cfg.publicKey, baseUrl),
    onRead: cfg.onRead,
  });

  async function send(
    method: Method,
    target: string,
    body: string | undefined,
    authorization: string | undefined,
    signal: AbortSignal,
  ): Promise<RawResponse> {
    const done = await budget.acquire(method, target.slice(basePath.length), signal);
    try {
      return await sendNow(method, target, body, authorization, signal);
    } finally {
      done();
    }
  }

  async function sendNow(
    method: Method,
    target: string,
    body: string | undefined,
    authorization: string | undefined,
    signal: AbortSignal,
  ): Promise<RawResponse> {
    stats.requests++;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'dbops-mcp' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (authorization) headers.authorization = authorization;
    const started = performance.now();
    try {
      const res = await (await dispatcher.get()).request({
        origin,
        path: target,
        method,
        headers,
        body,
        signal,
      });
      const answer = { status: res.statusCode, headers: res.headers, body: await res.body.text() };
      cfg.onResponse?.(method, answer.status, performance.now() - started);
      return answer;
    } catch (error) {
      cfg.onResponse?.(method, 'error', performance.now() - started);
      throw error;
    }
  }

  /** One attempt: the request plus the digest round trips it needs (at most one re-sign). */
  async function exchange(
    method: Method,
    target: string,
    body: string | undefined,
    auth: boolean,
    signal: AbortSignal,
  ): Promise<RawResponse> {
    if (!auth) return send(method, target, body, undefined, signal);
    let signed: Signed | undefined;
    let release: (() => void) | undefined;
    if (preemptive) {
      const p = await digest.prepare(origin, method, target, signal);
      if ('release' in p) release = p.release;
      else signed = p;
    }
    try {
      let res = await send(method, target, body, signed?.header, signal);
      let fresh: { challenge: DigestChallenge; replacing: string | undefined } | undefined;
      for (;;) {
        // A 401 with an errorCode (USER_UNAUTHORIZED, NOT_IN_GROUP…) is about roles, not credentials.
        const refused = res.status === 401 && !hasErrorCode(res.body);
        const challenge = refused ? parseDigestChallenge(res.headers['www-authenticate']) : undefined;
        if (!challenge) {
          // Accepted: share the challenge this request proved (see DigestAuth.adopt).
          if (fresh && preemptive && !refused) digest.adopt(origin, fresh.challenge, fresh.replacing);
          return res;
        }
        stats.challenges++;
        // Signed, refused, and neither stale nor a new nonce: the credentials are wrong. One re-sign at most.
        if (signed && (fresh || (!challenge.stale && challenge.nonce === signed.nonce))) return res;
        // A new nonce after a signed request may also mean that a concurrent request with a higher nc
        // arrived first; a fresh nonce, known to no other request yet, cannot be overtaken.
        fresh = { challenge, replacing: signed?.nonce };
        signed = digest.signFresh(challenge, method, target);
        res = await send(method, target, body, signed.header, signal);
      }
    } finally {
      release?.();
    }
  }

  async function request<T>(req: TransportRequest, opts: { signal?: AbortSignal } = {}): Promise<T> {
    const { method, path } = req;
    const relative = path + queryString(req.query);
    if (method === 'GET' && req.auth !== false) {
      // Shared with identical reads: fetched under a signal of its own, so one caller cancelling does not fail
      // the others (the last one leaving cancels it).
      const kept = await cache.read(
        relative,
        async (signal) => {
          const res = await withRetries(req, relative, signal, true);
          return { status: res?.status ?? 204, body: res?.body ?? '', at: Date.now() };
        },
        opts.signal,
      );
      // A refusal was kept like an answer (a name nobody may read costs one request, not one per call).
      if (kept.status >= 400) throw errorFromResponse({ status: kept.status, body: kept.body, method, path });
      return decode<T>(kept, method, path);
    }
    try {
      const res = await withRetries(req, relative, opts.signal);
      return res ? decode<T>(res, method, path) : (undefined as T);
    } finally {
      // Whatever the outcome (a lost answer may still have changed something): our reads of it are stale.
      if (method !== 'GET') await cache.invalidate(path).catch(() => {});
    }
  }

  /** The request with its retries: the successful answer, or undefined for a DELETE whose retry met 404. */
  async function withRetries(
    req: TransportRequest,
    relative: string,
    callerSignal: AbortSignal | undefined,
    /** Answer a lasting refusal (KEPT_REFUSALS) instead of throwing it, so a read can keep it. */
    refusals = false,
  ): Promise<RawResponse | undefined> {
    const { method, path } = req;
    const target = basePath + relative;
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    if (callerSignal?.aborted) throw abortError(callerSignal);
    const deadline = Date.now() + timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout.signal]) : timeout.signal;
    const timedOut = () =>
      new ApiError({
        status: 0,
        errorCode: 'TIMEOUT',
        method,
        path,
        message: `No answer from ${origin} to ${method} ${path} within ${timeoutMs} ms. The server may be overloaded or unreachable; try again, or raise DBOPS_TIMEOUT_MS.`,
      });
    const stopped = () => {
      if (callerSignal?.aborted) return abortError(callerSignal);
      if (timeout.signal.aborted) return timedOut();
      return undefined;
    };
    // A change whose request may have reached the platform without an answer coming back: from then on
    // every failure is reported as "may have been applied", and a retried DELETE that meets 404 has done
    // its work (the first attempt deleted the item).
    let maybeApplied = false;
    const uncertain = (cause: ApiError | Error, why: string) =>
      new ApiError({
        status: 0,
        errorCode: cause instanceof ApiError ? cause.errorCode : 'ABORTED',
        method,
        path,
        uncertain: true,
        cause,
        message: `No answer from ${origin} to ${method} ${path} (${why}): the change may have been applied.`,
      });
    const fail = (e: ApiError | Error): never => {
      if (!maybeApplied || method === 'GET') throw e;
      if (!(e instanceof ApiError)) throw uncertain(e, 'cancelled');
      throw uncertain(e, e.status ? `then HTTP ${e.status} on a retry` : (e.errorCode ?? 'connection lost'));
    };
    try {
      for (let attempt = 0; ; attempt++) {
        let res: RawResponse | undefined;
        let failure: unknown;
        try {
          res = await exchange(method, target, body, req.auth !== false, signal);
        } catch (err) {
          // Nothing was sent for this attempt: say so now rather than retrying into the same wall.
          if (err instanceof BudgetSpent) fail(err);
          failure = err;
        }
        let last: ApiError;
        let waitMs: number;
        let reason: string;
        if (res) {
          if (res.status < 400 || (refusals && KEPT_REFUSALS.has(res.status))) return res;
          if (res.status === 404 && method === 'DELETE' && maybeApplied) {
            logger.debug('a retried DELETE met 404: the earlier attempt whose answer was lost deleted it', {
              path,
            });
            return undefined;
          }
          const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
          last = errorFromResponse({
            status: res.status,
            body: res.body,
            method,
            path,
            retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
          });
          if (res.status === 429 && retryAfterMs !== undefined) budget.pause(Date.now() + retryAfterMs);
          if (!IDEMPOTENT.has(method) || !RETRY_STATUS.has(res.status)) throw last;
          // Jitter on top of Retry-After: waiting callers must not all come back in the same millisecond.
          waitMs = retryAfterMs === undefined ? backoffDelay(attempt) : retryAfterMs + backoffDelay(attempt);
          reason = `HTTP ${res.status}`;
        } else {
          const code = errorCodeOf(failure);
          if (method !== 'GET' && !(code && NOT_SENT.has(code))) maybeApplied = true;
          const stop = stopped();
          if (stop) fail(stop);
          last = networkError(failure, method, path, origin);
          if (!canRetryAfterError(method, code)) fail(last);
          waitMs = backoffDelay(attempt);
          reason = code ?? 'network error';
        }
        if (attempt >= maxRetries) fail(last);
        if (Date.now() + waitMs >= deadline) {
          logger.debug('not retrying: the wait would pass the deadline', { method, path, reason, waitMs });
          fail(last);
        }
        stats.retries++;
        logger.debug('retrying API request', { method, path, attempt: attempt + 1, reason, waitMs });
        try {
          await sleep(waitMs, signal);
        } catch {
          fail(stopped() ?? last);
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    baseUrl,
    stats,
    cache,
    budget,
    request,
    async close() {
      await dispatcher.close();
    },
  };
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
