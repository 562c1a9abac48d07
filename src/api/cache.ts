// Reads shared between calls: identical GETs in flight share one platform request, and answers are kept for a
// few seconds (DBOPS_CACHE_TTL_MS; what changes rarely, longer). One cache per API client, so per key and
// platform: nothing is ever shared across keys. Our own writes drop the reads they may change. With a shared
// store (src/state/reads.ts) replicas share answers too, one replica fetching per key at a time.
// Answers are kept as the platform's text (what Redis shares) and decoded once per read, frozen: callers share
// the value and none can change it for another (src/api/transport.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { abortable, abortError } from './abort.js';

/** A kept answer: its text and when it was fetched (ms since the epoch). */
export interface Kept {
  status: number;
  body: string;
  at: number;
}

/** What a read cost: answered from a kept answer, joined a request in flight, or fetched. */
export type ReadResult = 'hit' | 'coalesced' | 'miss';

/** Replicas' shared answers (Redis): a lock per key so that one replica fetches while the others wait. */
export interface SharedReads {
  /**
   * The kept answer, or fetches it under the key's lock (others wait for it a moment, then fetch themselves).
   * Never throws for the store's sake: an unreachable store means fetching.
   */
  read(
    identity: string,
    target: string,
    scope: string,
    ttlMs: number,
    fetch: () => Promise<Kept>,
  ): Promise<{ kept: Kept; fetched: boolean }>;
  /** Drops the shared answers under `scope` ('' = all of this identity). */
  invalidate(identity: string, scope: string): Promise<void>;
}

interface ReadCacheOptions {
  /** How long an answer is kept; 0 keeps nothing (requests in flight are still shared). */
  ttlMs: number;
  /** How long what changes rarely is kept (default ttlMs × SLOW_FACTOR). */
  slowTtlMs?: number;
  /** Identity of the key the answers belong to (see keyIdentity). */
  identity: string;
  /** Most answers kept in this process (oldest dropped first). */
  maxEntries?: number;
  now?: () => number;
  /** Each read's outcome, for metrics. */
  onRead?: (result: ReadResult) => void;
}

/** The key's identity: a hash of the public key and the platform's URL (the secret never enters it). */
export function keyIdentity(publicKey: string, baseUrl: string): string {
  return createHash('sha256').update(`${publicKey}\n${baseUrl}`).digest('base64url').slice(0, 22);
}

/** What changes rarely is kept this many times longer: projects, hosts, global alert configurations. */
const SLOW_FACTOR = 12;
const SLOW = [
  /^\/groups(\?|$)/,
  /^\/groups\/[^/?]+(\?|$)/,
  /^\/groups\/[^/]+\/hosts/,
  /^\/globalAlertConfigs(\?|$)/,
];

function ttlFor(target: string, ttlMs: number, slowTtlMs = ttlMs * SLOW_FACTOR): number {
  if (ttlMs <= 0) return 0;
  return SLOW.some((r) => r.test(target)) ? slowTtlMs : ttlMs;
}

/** Each target's time to keep, matched once: a warm triage of 500 projects asks ~5,000 times per call. */
function ttlTable(o: { ttlMs: number; slowTtlMs?: number }, max: number): (target: string) => number {
  const ttls = new Map<string, number>();
  return (target) => {
    let t = ttls.get(target);
    if (t === undefined) {
      if (ttls.size >= max) ttls.clear();
      t = ttlFor(target, o.ttlMs, o.slowTtlMs);
      ttls.set(target, t);
    }
    return t;
  };
}

/**
 * The reads a write may change: everything of the project for a write under /groups/{id}/…, everything of
 * the key otherwise (a global alert, a user, the project itself: their effects reach across lists).
 */
function scopeOf(path: string): string {
  const m = /^\/groups\/([^/?]+)\/[^?]/.exec(path);
  return m ? `/groups/${m[1]}/` : '';
}

/**
 * Per tool call: the age of the oldest kept answer it used (recorded by the cache, read by the MCP layer), or
 * `fresh`: every read goes to the platform (what a change is previewed and made from must be current).
 */
export const readAges = new AsyncLocalStorage<{ oldestAt?: number; fresh?: boolean }>();

/** Runs `fn` with every read fetched from the platform, none kept or shared. */
export function freshReads<T>(fn: () => Promise<T>): Promise<T> {
  return readAges.run({ fresh: true }, fn);
}

function noteAge(at: number): void {
  const s = readAges.getStore();
  if (s && (s.oldestAt === undefined || at < s.oldestAt)) s.oldestAt = at;
}

interface Flight {
  promise: Promise<Kept>;
  controller: AbortController;
  waiters: number;
  /** Whether the answer came from the shared store rather than the platform. */
  shared?: boolean;
}

export interface ReadCache {
  readonly ttlMs: number;
  /**
   * The kept answer for `target` if one is fresh enough, at once (counted as a hit, as `read` would): a warm
   * read across hundreds of projects then costs no promise per layer.
   */
  peek(target: string): Kept | undefined;
  /** The kept answer for `target`, the one in flight, or a new fetch (handed a signal of its own). */
  read(target: string, fetch: (signal: AbortSignal) => Promise<Kept>, signal?: AbortSignal): Promise<Kept>;
  /** After a write to `path`: drops the reads it may change, here and in the shared store. */
  invalidate(path: string): Promise<void>;
  /** Shares answers with other replicas from now on. */
  share(shared: SharedReads): void;
  readonly size: number;
}

export function createReadCache(o: ReadCacheOptions): ReadCache {
  const now = o.now ?? Date.now;
  // A read across every project keeps one answer per project and list: a triage of 500 projects is ~4,300.
  const max = o.maxEntries ?? 10_000;
  const kept = new Map<string, Kept>();
  const flights = new Map<string, Flight>();
  const ttlOf = ttlTable(o, max);
  let shared: SharedReads | undefined;
  // Bumped by every invalidation: a fetch that started before it must not keep its (possibly stale) answer.
  let epoch = 0;

  /** The kept answer if fresh (a hit, counted and its age noted); a stale one is dropped. */
  function hit(target: string): Kept | undefined {
    const k = kept.get(target);
    if (!k) return undefined;
    if (now() - k.at < ttlOf(target)) {
      o.onRead?.('hit');
      noteAge(k.at);
      return k;
    }
    kept.delete(target);
    return undefined;
  }

  function keep(target: string, k: Kept): void {
    kept.delete(target);
    kept.set(target, k);
    if (kept.size > max) kept.delete(kept.keys().next().value as string);
  }

  function start(target: string, fetch: (signal: AbortSignal) => Promise<Kept>): Flight {
    const controller = new AbortController();
    const began = epoch;
    const flight: Flight = { controller, waiters: 0, promise: undefined as never };
    const ttl = ttlOf(target);
    const run = async (): Promise<Kept> => {
      if (shared && o.ttlMs > 0) {
        const r = await shared.read(o.identity, target, scopeOf(target), ttl, () => fetch(controller.signal));
        flight.shared = !r.fetched;
        return r.kept;
      }
      return fetch(controller.signal);
    };
    flight.promise = run().then(
      (k) => {
        if (flights.get(target) === flight) flights.delete(target);
        // With replicas the store keeps answers (another replica's write must reach every reader).
        if (o.ttlMs > 0 && epoch === began && !shared) keep(target, k);
        return k;
      },
      (e: unknown) => {
        if (flights.get(target) === flight) flights.delete(target);
        throw e;
      },
    );
    flight.promise.catch(() => {});
    flights.set(target, flight);
    return flight;
  }

  return {
    ttlMs: o.ttlMs,
    get size() {
      return kept.size;
    },
    share(s) {
      shared = s;
    },
    peek(target) {
      return readAges.getStore()?.fresh ? undefined : hit(target);
    },
    async read(target, fetch, signal) {
      if (signal?.aborted) throw abortError(signal);
      if (readAges.getStore()?.fresh) {
        o.onRead?.('miss');
        const own = new AbortController();
        const stop = () => own.abort(signal?.reason);
        signal?.addEventListener('abort', stop, { once: true });
        try {
          return await fetch(own.signal);
        } finally {
          signal?.removeEventListener('abort', stop);
        }
      }
      const k = hit(target);
      if (k) return k;
      let flight = flights.get(target);
      const joined = !!flight;
      flight ??= start(target, fetch);
      o.onRead?.(joined ? 'coalesced' : 'miss');
      flight.waiters++;
      const f = flight;
      try {
        const got = await abortable(f.promise, signal);
        if (f.shared) noteAge(got.at);
        return got;
      } finally {
        // The last caller gone cancels the request: nobody is left to read its answer.
        if (--f.waiters === 0 && signal?.aborted) f.controller.abort(signal.reason);
      }
    },
    async invalidate(path) {
      epoch++;
      const scope = scopeOf(path);
      for (const t of [...kept.keys()]) if (t.startsWith(scope)) kept.delete(t);
      // A read in flight may have been answered before the write: later callers start a new one.
      for (const t of [...flights.keys()]) if (t.startsWith(scope)) flights.delete(t);
      if (shared && o.ttlMs > 0) await shared.invalidate(o.identity, scope);
    },
  };
}
