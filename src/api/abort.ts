// Abort helpers shared by the digest cache (waiting for a challenge), the transport (backoff sleeps) and every
// fan-out of reads.
import { setMaxListeners } from 'node:events';

/**
 * Marks a signal that many reads listen to at once — a tool call's, a fan-out's — so Node does not take more
 * than ten listeners for a leak: each read removes its own when it settles.
 */
export function fanOut(signal: AbortSignal): AbortSignal {
  setMaxListeners(1_000, signal);
  return signal;
}

/** Resolves with `p`, or rejects with the signal's abort reason as soon as it fires. */
export function abortable<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** An AbortError for a fired signal (its reason when that already is an Error). */
export function abortError(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  if (r instanceof Error) return r;
  return new DOMException(typeof r === 'string' ? r : 'The operation was aborted', 'AbortError');
}

/** Sleeps `ms`, or rejects as soon as the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
