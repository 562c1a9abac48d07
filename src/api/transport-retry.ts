// Retries: one deadline per call, capped exponential backoff with jitter, Retry-After (which also pauses the
// rate budget), and never a repeat of a write the server may have received — a change whose answer was lost
// is reported as "may have been applied", and a retried DELETE that meets 404 has done its work.

import type { Logger } from '../log.js';
import { abortError, sleep } from './abort.js';
import { type Budget, BudgetSpent } from './budget.js';
import { ApiError, errorFromResponse } from './errors.js';
import type { Exchange } from './transport-digest.js';
import { errorCodeOf, networkError, TLS_CODE, timeoutError, uncertainError } from './transport-errors.js';
import type { Method, RawResponse, TransportStats } from './transport-http.js';

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

/** Whether a failed exchange (no HTTP answer) may be sent again. */
export function canRetryAfterError(method: Method, code: string | undefined): boolean {
  // Connection failures carry a code; anything else is a bug or a bad argument, not worth repeating.
  if (!code || TLS_CODE.test(code) || code === 'UND_ERR_INVALID_ARG') return false;
  if (IDEMPOTENT.has(method)) return true;
  return NOT_SENT.has(code);
}

export interface RetryOptions {
  origin: string;
  timeoutMs: number;
  maxRetries: number;
  logger: Logger;
  stats: TransportStats;
  budget: Budget;
  exchange: Exchange;
}

interface Attempted {
  method: Method;
  /** The path as the caller named it (for messages and logs). */
  path: string;
  /** The full request target (API prefix, path and query). */
  target: string;
  body: string | undefined;
  auth: boolean;
}

/** One call in progress: its deadline, the caller's signal, and whether its change may already be applied. */
class Call {
  readonly deadline: number;
  readonly signal: AbortSignal;
  /** The request may have reached the platform without its answer coming back (never for a GET). */
  maybeApplied = false;
  private readonly timeout = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(
    readonly o: RetryOptions,
    readonly req: Attempted,
    private readonly callerSignal: AbortSignal | undefined,
  ) {
    this.deadline = Date.now() + o.timeoutMs;
    this.timer = setTimeout(() => this.timeout.abort(), o.timeoutMs);
    this.signal = callerSignal ? AbortSignal.any([callerSignal, this.timeout.signal]) : this.timeout.signal;
  }

  /** Why the call stopped (the caller cancelled, the deadline passed), if it did. */
  stopped(): Error | undefined {
    if (this.callerSignal?.aborted) return abortError(this.callerSignal);
    if (this.timeout.signal.aborted) {
      return timeoutError(this.req.method, this.req.path, this.o.origin, this.o.timeoutMs);
    }
    return undefined;
  }

  /** Ends the call with `e`, or with "may have been applied" when a change's answer was lost before. */
  fail(e: ApiError | Error): never {
    const { method, path } = this.req;
    if (!this.maybeApplied || method === 'GET') throw e;
    if (!(e instanceof ApiError)) throw uncertainError(e, 'cancelled', method, path, this.o.origin);
    const why = e.status ? `then HTTP ${e.status} on a retry` : (e.errorCode ?? 'connection lost');
    throw uncertainError(e, why, method, path, this.o.origin);
  }

  end(): void {
    clearTimeout(this.timer);
  }
}

/** What to do after one attempt: answer (a DELETE already done answers undefined), or wait and try again. */
type Verdict = { answer: RawResponse | undefined } | { last: ApiError; waitMs: number; reason: string };

/** Judges an HTTP answer: success, a kept refusal, a retryable status (with its wait), or a thrown error. */
function judgeResponse(call: Call, res: RawResponse, attempt: number, refusals: boolean): Verdict {
  const { method, path } = call.req;
  if (res.status < 400 || (refusals && KEPT_REFUSALS.has(res.status))) return { answer: res };
  if (res.status === 404 && method === 'DELETE' && call.maybeApplied) {
    call.o.logger.debug('a retried DELETE met 404: the earlier attempt whose answer was lost deleted it', {
      path,
    });
    return { answer: undefined };
  }
  const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
  const last = errorFromResponse({
    status: res.status,
    body: res.body,
    method,
    path,
    retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
  });
  if (res.status === 429 && retryAfterMs !== undefined) call.o.budget.pause(Date.now() + retryAfterMs);
  if (!IDEMPOTENT.has(method) || !RETRY_STATUS.has(res.status)) throw last;
  // Jitter on top of Retry-After: waiting callers must not all come back in the same millisecond.
  const waitMs = retryAfterMs === undefined ? backoffDelay(attempt) : retryAfterMs + backoffDelay(attempt);
  return { last, waitMs, reason: `HTTP ${res.status}` };
}

/** Judges an exchange that got no HTTP answer: stop (cancelled, past the deadline, not retryable) or wait. */
function judgeFailure(call: Call, failure: unknown, attempt: number): Verdict {
  const { method, path } = call.req;
  const code = errorCodeOf(failure);
  if (method !== 'GET' && !(code && NOT_SENT.has(code))) call.maybeApplied = true;
  const stop = call.stopped();
  if (stop) call.fail(stop);
  const last = networkError(failure, method, path, call.o.origin);
  if (!canRetryAfterError(method, code)) call.fail(last);
  return { last, waitMs: backoffDelay(attempt), reason: code ?? 'network error' };
}

/** Waits before the next attempt, unless retries are spent or the wait would pass the deadline. */
async function waitToRetry(
  call: Call,
  attempt: number,
  v: Exclude<Verdict, { answer: unknown }>,
): Promise<void> {
  const { o, req } = call;
  const { method, path } = req;
  const { last, waitMs, reason } = v;
  if (attempt >= o.maxRetries) call.fail(last);
  if (Date.now() + waitMs >= call.deadline) {
    o.logger.debug('not retrying: the wait would pass the deadline', { method, path, reason, waitMs });
    call.fail(last);
  }
  o.stats.retries++;
  o.logger.debug('retrying API request', { method, path, attempt: attempt + 1, reason, waitMs });
  try {
    await sleep(waitMs, call.signal);
  } catch {
    call.fail(call.stopped() ?? last);
  }
}

/**
 * The request with its retries: the successful answer, or undefined for a DELETE whose retry met 404.
 * With `refusals`, a lasting refusal (KEPT_REFUSALS) is answered instead of thrown, so a read can keep it.
 */
export async function sendWithRetries(
  o: RetryOptions,
  req: Attempted,
  callerSignal: AbortSignal | undefined,
  refusals = false,
): Promise<RawResponse | undefined> {
  if (callerSignal?.aborted) throw abortError(callerSignal);
  const call = new Call(o, req, callerSignal);
  try {
    for (let attempt = 0; ; attempt++) {
      let res: RawResponse | undefined;
      let failure: unknown;
      try {
        res = await o.exchange(req.method, req.target, req.body, req.auth, call.signal);
      } catch (err) {
        // Nothing was sent for this attempt: say so now rather than retrying into the same wall.
        if (err instanceof BudgetSpent) call.fail(err);
        failure = err;
      }
      const verdict = res
        ? judgeResponse(call, res, attempt, refusals)
        : judgeFailure(call, failure, attempt);
      if ('answer' in verdict) return verdict.answer;
      await waitToRetry(call, attempt, verdict);
    }
  } finally {
    call.end();
  }
}
