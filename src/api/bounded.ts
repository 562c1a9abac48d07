// Fan-out with a bound: at most `limit` calls in flight, none started once the caller's signal fired, and the
// first failure aborts the calls still running (their answers would be thrown away anyway).
import { abortError, fanOut } from './abort.js';

export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal | undefined,
  fn: (item: T, signal: AbortSignal) => Promise<R>,
): Promise<R[]> {
  const inner = new AbortController();
  // Each of the `limit` calls may read several things at once, all listening here.
  fanOut(inner.signal);
  const onAbort = () => inner.abort(signal?.reason);
  if (signal?.aborted) throw abortError(signal);
  signal?.addEventListener('abort', onAbort, { once: true });
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      if (inner.signal.aborted) throw abortError(inner.signal);
      const i = next++;
      out[i] = await fn(items[i] as T, inner.signal);
    }
  };
  try {
    await Promise.all(
      Array.from({ length: Math.min(Math.max(1, limit), items.length) }, () =>
        worker().catch((e: unknown) => {
          inner.abort(e);
          throw e;
        }),
      ),
    );
    return out;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
