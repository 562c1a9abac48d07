// Subscriptions to feeds: one poller per feed and API client, however many sessions subscribe, reading the
// feed every interval while anyone listens and telling every listener when its fingerprint changes. Nothing
// polls without a listener; timers never keep the process alive. Bounded: a person holds at most 100
// subscriptions, a feed the key cannot read is refused at its first reading, and the polls of all feeds
// together stay within a budget of platform requests a minute (a share of DBOPS_RATE_LIMIT, else 60 for each
// person listening), so subscriptions never starve the tools.
import type { ApiClient } from '../api/client.js';
import { type Logger, silentLogger } from '../log.js';

/** Told the feed's new fingerprint when it changed (replicas compare it to tell one change from another). */
type Listener = (fingerprint: string) => void;

/** Subscriptions one person (and one session, src/mcp/) may hold at once, as subscriptions/listen allows. */
export const MAX_SUBSCRIPTIONS = 100;
/** Platform requests a minute feed polls may take for each person listening, without DBOPS_RATE_LIMIT. */
export const POLL_REQUESTS_PER_PERSON = 60;
/** The share of DBOPS_RATE_LIMIT feed polls may take. */
export const POLL_SHARE = 0.2;

/** A subscription refused: the sentence says which rule. */
export class SubscriptionRefused extends Error {}

interface Poller {
  /** Each listener with the person it is for. */
  listeners: Map<Listener, string>;
  fingerprint?: string;
  /** The first reading, which later ones are compared with; subscribers wait for it. */
  baseline: Promise<void>;
  /** Why the first reading failed, when the key may not read the feed (it does not exist for this key). */
  refused?: string;
  timer?: NodeJS.Timeout;
  inflight?: AbortController;
  stopped: boolean;
}

/** Feed polls' share of the platform this minute. */
interface Budget {
  windowStart: number;
  used: number;
}

interface Feeds {
  pollers: Map<string, Poller>;
  perPerson: Map<string, number>;
  budget: Budget;
}

interface FeedSource {
  api: ApiClient;
  /** The feed's identity for this client, e.g. "dbops://projects/abc/alerts". */
  key: string;
  intervalMs: number;
  /** Reads the feed and returns its fingerprint. */
  read: (signal: AbortSignal) => Promise<string>;
  /** DBOPS_RATE_LIMIT (requests a minute; 0: none of ours). */
  rateLimit?: number;
  logger?: Logger;
}

const registry = new WeakMap<ApiClient, Feeds>();
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

function feedsOf(api: ApiClient): Feeds {
  let f = registry.get(api);
  if (!f) {
    f = { pollers: new Map(), perPerson: new Map(), budget: { windowStart: Date.now(), used: 0 } };
    registry.set(api, f);
  }
  return f;
}

/** The key cannot read the feed (no such project for it, or not allowed): refused, not polled. */
const refusal = (e: unknown) => {
  const status = (e as { status?: number }).status;
  return status === 400 || status === 401 || status === 403 || status === 404;
};

/**
 * Adds a listener for `person` to the feed's poller, starting it (and waiting for its first reading) when it
 * is the first. Returns the function that removes the listener; the last removal stops the poller. Throws
 * SubscriptionRefused past the person's cap or when the key cannot read the feed.
 */
export async function subscribe(source: FeedSource, listener: Listener, person = ''): Promise<() => void> {
  const feeds = feedsOf(source.api);
  const held = feeds.perPerson.get(person) ?? 0;
  if (held >= MAX_SUBSCRIPTIONS)
    throw new SubscriptionRefused(
      `${person || 'This person'} already holds ${MAX_SUBSCRIPTIONS} subscriptions (the cap per person and per session); unsubscribe from some first.`,
    );
  feeds.perPerson.set(person, held + 1);
  const poller = feeds.pollers.get(source.key) ?? startPoller(source, feeds);
  poller.listeners.set(listener, person);
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    const left = (feeds.perPerson.get(person) ?? 1) - 1;
    if (left > 0) feeds.perPerson.set(person, left);
    else feeds.perPerson.delete(person);
    if (!poller.listeners.delete(listener) || poller.listeners.size > 0) return;
    poller.stopped = true;
    clearTimeout(poller.timer);
    poller.inflight?.abort();
    live.delete(poller);
    if (feeds.pollers.get(source.key) === poller) feeds.pollers.delete(source.key);
  };
  await poller.baseline;
  if (poller.refused) {
    remove();
    throw new SubscriptionRefused(
      `${source.key} cannot be read with this server's API key: ${poller.refused}`,
    );
  }
  return remove;
}

/** Requests a minute all feed polls may take now: a share of DBOPS_RATE_LIMIT, else 60 per person listening. */
function budgetOf(source: FeedSource, feeds: Feeds): number {
  if (source.rateLimit) return Math.max(1, Math.floor(source.rateLimit * POLL_SHARE));
  return POLL_REQUESTS_PER_PERSON * Math.max(1, feeds.perPerson.size);
}

/** Takes the first reading, then reads every interval until stopped, telling listeners of changes. */
function startPoller(source: FeedSource, feeds: Feeds): Poller {
  const logger = source.logger ?? silentLogger;
  const p: Poller = { listeners: new Map(), stopped: false, baseline: Promise.resolve() };
  const { budget } = feeds;
  const read = async (first = false): Promise<string | undefined> => {
    const ac = new AbortController();
    p.inflight = ac;
    const before = source.api.stats.requests;
    try {
      return await source.read(ac.signal);
    } catch (e) {
      if (first && refusal(e)) p.refused = (e as Error).message;
      if (!p.stopped) logger.debug('feed poll failed', { feed: source.key, error: String(e) });
      return undefined;
    } finally {
      p.inflight = undefined;
      budget.used += source.api.stats.requests - before;
    }
  };
  const tick = async () => {
    // Over this minute's budget: the poll waits for the next minute.
    const now = Date.now();
    if (now - budget.windowStart >= 60_000) {
      budget.windowStart = now;
      budget.used = 0;
    }
    if (budget.used >= budgetOf(source, feeds)) return schedule(budget.windowStart + 60_000 - now);
    const fp = await read();
    polls++;
    if (p.stopped) return;
    if (fp !== undefined) {
      const changed = p.fingerprint !== undefined && fp !== p.fingerprint;
      p.fingerprint = fp;
      if (changed)
        for (const l of [...p.listeners.keys()]) {
          try {
            l(fp);
          } catch (e) {
            logger.debug('feed listener failed', { feed: source.key, error: String(e) });
          }
        }
    }
    schedule();
  };
  const schedule = (ms = source.intervalMs) => {
    if (p.stopped) return;
    p.timer = setTimeout(() => void tick(), Math.max(ms, source.intervalMs));
    p.timer.unref();
  };
  p.baseline = read(true).then((fp) => {
    p.fingerprint = fp;
    if (!p.refused) schedule();
  });
  feeds.pollers.set(source.key, p);
  live.add(p);
  return p;
}
