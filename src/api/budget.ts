// The request budget of one platform (one API client): a token bucket of DBOPS_RATE_LIMIT requests per minute,
// a cap on requests in flight (DBOPS_MAX_CONCURRENT_REQUESTS), and a pause the platform itself asks for (429
// with Retry-After). A spent budget fails at once with one clear answer (which setting, when it refills)
// instead of every call waiting out its deadline or failing one by one at the platform.
import { AsyncLocalStorage } from 'node:async_hooks';
import { abortError, sleep } from './abort.js';
import { ApiError } from './errors.js';

interface BudgetOptions {
  /** Requests per minute; 0 = no limit of ours. */
  ratePerMinute: number;
  /** Requests in flight at once; 0 = no cap. */
  maxConcurrent: number;
  /** How long a request may wait for a token before the budget counts as spent (default 2000 ms). */
  maxWaitMs?: number;
  now?: () => number;
}

export interface Budget {
  /** Takes a token and a slot; call the returned function when the request is over. */
  acquire(method: string, path: string, signal?: AbortSignal): Promise<() => void>;
  /** The platform answered 429: nothing is sent until `untilMs`. */
  pause(untilMs: number): void;
  readonly inFlight: number;
  /** A rate limit of ours is set: reads that are only nice to have (names) wait for the call's own reads. */
  readonly limited: boolean;
  /** Whether a nice-to-have read may be spent now: no rate limit, or at least half the bucket left. */
  spare(): boolean;
}

const outside = new AsyncLocalStorage<true>();

/**
 * Runs `fn` with its requests outside the tools' budget: the readiness probe, which is rate-limited on its
 * own (one request per installation per 30 s per replica) and must not spend what people's calls need.
 */
export function outsideBudget<T>(fn: () => Promise<T>): Promise<T> {
  return outside.run(true, fn);
}

/** Nothing was sent: the budget of this server (or the platform's own limit) is spent for now. */
export class BudgetSpent extends ApiError {}

export function createBudget(o: BudgetOptions): Budget {
  const now = o.now ?? Date.now;
  const maxWait = o.maxWaitMs ?? 2_000;
  const rate = o.ratePerMinute;
  const perMs = rate / 60_000;
  let left = rate;
  let refilled = now();
  let pausedUntil = 0;
  let inFlight = 0;
  const queue: Array<() => void> = [];

  const refill = () => {
    const t = now();
    left = Math.min(rate, left + (t - refilled) * perMs);
    refilled = t;
  };

  const spent = (method: string, path: string, waitMs: number, why: string) =>
    new BudgetSpent({
      status: 0,
      errorCode: 'RATE_BUDGET_SPENT',
      method,
      path,
      retryAfterSeconds: Math.ceil(waitMs / 1000),
      message: `${why}; nothing was sent. It refills in about ${Math.max(1, Math.ceil(waitMs / 1000))} s: try again then.`,
    });

  async function slot(signal?: AbortSignal): Promise<void> {
    if (!o.maxConcurrent || inFlight < o.maxConcurrent) {
      inFlight++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', onAbort);
        inFlight++;
        resolve();
      };
      const onAbort = () => {
        const i = queue.indexOf(go);
        if (i >= 0) queue.splice(i, 1);
        reject(abortError(signal as AbortSignal));
      };
      queue.push(go);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  function release(): void {
    inFlight--;
    queue.shift()?.();
  }

  return {
    get inFlight() {
      return inFlight;
    },
    limited: rate > 0,
    spare() {
      if (rate <= 0) return true;
      refill();
      return left >= rate / 2 && pausedUntil <= now();
    },
    pause(untilMs) {
      pausedUntil = Math.max(pausedUntil, untilMs);
    },
    async acquire(method, path, signal) {
      if (signal?.aborted) throw abortError(signal);
      if (outside.getStore()) return () => {};
      const pause = pausedUntil - now();
      if (pause > maxWait)
        throw spent(method, path, pause, 'The platform asked this server to slow down (HTTP 429)');
      if (pause > 0) await sleep(pause, signal);
      if (rate > 0) {
        refill();
        if (left < 1) {
          const needMs = (1 - left) / perMs;
          if (needMs > maxWait)
            throw spent(
              method,
              path,
              needMs,
              `This server's request budget for the platform is spent (DBOPS_RATE_LIMIT=${rate} requests per minute)`,
            );
          await sleep(needMs, signal);
          refill();
        }
        left -= 1;
      }
      await slot(signal);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        release();
      };
    },
  };
}
