// Subscriptions to feeds: one poller per feed and API client, however many sessions subscribe, reading the
// feed every interval while anyone listens and telling every listener when its fingerprint changes. Nothing
// polls without a listener; timers never keep the process alive.
import type { ApiClient } from '../api/client.js';
import { type Logger, silentLogger } from '../log.js';

/** Told the feed's new fingerprint when it changed (replicas compare it to tell one change from another). */
export type Listener = (fingerprint: string) => void;

interface Poller {
  listeners: Set<Listener>;
  fingerprint?: string;
  /** The first reading, which later ones are compared with; subscribers wait for it. */
  baseline: Promise<void>;
  timer?: NodeJS.Timeout;
  inflight?: AbortController;
  stopped: boolean;
}

export interface FeedSource {
  api: ApiClient;
  /** The feed's identity for this client, e.g. "dbops://projects/abc/alerts". */
  key: string;
  intervalMs: number;
  /** Reads the feed and returns its fingerprint. */
  read: (signal: AbortSignal) => Promise<string>;
  logger?: Logger;
}

const registry = new WeakMap<ApiClient, Map<string, Poller>>();
/** Live pollers, for shutdown and for tests (WeakMap cannot be counted). */
const live = new Set<Poller>();

export function activePollers(): number {
  return live.size;
}

let polls = 0;
/** Polls finished since start, every feed counted: a test waits for polls, not for the clock. */
export function pollsDone(): number {
  return polls;
}

/**
 * Adds a listener to the feed's poller, starting it (and waiting for its first reading) when it is the
 * first. Returns the function that removes the listener; the last removal stops the poller.
 */
export async function subscribe(source: FeedSource, listener: Listener): Promise<() => void> {
  let byKey = registry.get(source.api);
  if (!byKey) {
    byKey = new Map();
    registry.set(source.api, byKey);
  }
  const pollers = byKey;
  const poller = pollers.get(source.key) ?? startPoller(source, pollers);
  poller.listeners.add(listener);
  await poller.baseline;
  return () => {
    if (!poller.listeners.delete(listener) || poller.listeners.size > 0) return;
    poller.stopped = true;
    clearTimeout(poller.timer);
    poller.inflight?.abort();
    live.delete(poller);
    if (pollers.get(source.key) === poller) pollers.delete(source.key);
  };
}

/** Takes the first reading, then reads every interval until stopped, telling listeners of changes. */
function startPoller(source: FeedSource, pollers: Map<string, Poller>): Poller {
  const logger = source.logger ?? silentLogger;
  const p: Poller = { listeners: new Set(), stopped: false, baseline: Promise.resolve() };
  const read = async (): Promise<string | undefined> => {
    const ac = new AbortController();
    p.inflight = ac;
    try {
      return await source.read(ac.signal);
    } catch (e) {
      if (!p.stopped) logger.debug('feed poll failed', { feed: source.key, error: String(e) });
      return undefined;
    } finally {
      p.inflight = undefined;
    }
  };
  const tick = async () => {
    const fp = await read();
    polls++;
    if (p.stopped) return;
    if (fp !== undefined) {
      const changed = p.fingerprint !== undefined && fp !== p.fingerprint;
      p.fingerprint = fp;
      if (changed)
        for (const l of [...p.listeners]) {
          try {
            l(fp);
          } catch (e) {
            logger.debug('feed listener failed', { feed: source.key, error: String(e) });
          }
        }
    }
    schedule();
  };
  const schedule = () => {
    if (p.stopped) return;
    p.timer = setTimeout(() => void tick(), source.intervalMs);
    p.timer.unref();
  };
  p.baseline = read().then((fp) => {
    p.fingerprint = fp;
    schedule();
  });
  pollers.set(source.key, p);
  live.add(p);
  return p;
}
