// Feed updates for both eras from the same pollers (src/feeds/subscriptions.ts: one per feed, however many
// listen). 2025 clients subscribe with resources/subscribe (src/mcp/resources.ts); 2026-07-28 clients open a
// subscriptions/listen stream naming the URIs, which the SDK serves itself — so the transports read the
// URIs off the listen request, keep the feeds' pollers running while the stream is open, and publish each
// change on the SDK's server event bus. With replicas the bus is Redis: every replica delivers a change to
// the streams it holds, once, whichever replica's poller saw it first.
import { createHash } from 'node:crypto';
import { InMemoryServerEventBus, type ServerEvent, type ServerEventBus } from '@modelcontextprotocol/server';
import { matchFeed } from '../feeds/index.js';
import { subscribe } from '../feeds/subscriptions.js';
import type { Logger } from '../log.js';
import type { RedisState } from '../state/redis.js';
import { reachableFor } from './listing.js';
import type { ServerDeps } from './server.js';

/** How each 2025 server's subscriptions end (src/mcp/resources.ts registers them). */
export const endings = new WeakMap<object, () => void>();

/** Ends a server's 2025 subscriptions: its client can no longer be told of changes (its stream closed). */
export function endSubscriptions(server: object): void {
  endings.get(server)?.();
}

/** Who listens: the person (subscriptions are capped per person) and the tools their client can reach. */
interface Listening {
  person: string;
  /** A feed is offered only while a tool reading the same data is reachable for the client. */
  reachable: (tool: string) => boolean;
}

/**
 * Starts (or joins) the poller of the feed at `uri`; undefined when no feed has that URI or the client cannot
 * reach the tool that reads its data. Throws SubscriptionRefused past the caps or for a feed the key cannot read.
 */
export async function watchFeed(
  deps: Pick<ServerDeps, 'api' | 'config' | 'logger' | 'now'>,
  uri: string,
  onChange: (fingerprint: string) => void,
  who: Listening,
): Promise<(() => void) | undefined> {
  const m = matchFeed(uri);
  if (!m || !who.reachable(m.feed.tool)) return undefined;
  const now = deps.now ?? (() => new Date());
  return subscribe(
    {
      api: deps.api,
      key: m.key,
      intervalMs: deps.config.feedPollMs,
      rateLimit: deps.config.rateLimit,
      logger: deps.logger,
      read: async (signal) => {
        const at = now();
        return m.feed.fingerprint(await m.feed.load({ api: deps.api, signal, now: at }, m.vars), at);
      },
    },
    onChange,
    who.person,
  );
}

/** The resource URIs a JSON-RPC `subscriptions/listen` request asks updates for (none for anything else). */
export function listenedUris(message: unknown): string[] {
  const m = (Array.isArray(message) ? message[0] : message) as {
    method?: unknown;
    params?: { notifications?: { resourceSubscriptions?: unknown } };
  };
  const uris =
    m?.method === 'subscriptions/listen' ? m.params?.notifications?.resourceSubscriptions : undefined;
  return Array.isArray(uris) ? uris.filter((u): u is string => typeof u === 'string').slice(0, 100) : [];
}

/**
 * Keeps the pollers of the listened feeds running until `closed` fires; each change is published as a
 * resource_updated event (with the feed's fingerprint, so replicas polling the same feed announce it once).
 */
export async function watchWhileOpen(
  deps: ServerDeps,
  uris: string[],
  publish: (uri: string, fingerprint: string) => void,
  closed: (stop: () => void) => void,
  who: { person: string; header?: string[] },
): Promise<void> {
  const listening = {
    person: who.person,
    reachable: reachableFor({ ...deps, client: { header: who.header } }),
  };
  const stops: Array<() => void> = [];
  let done = false;
  closed(() => {
    done = true;
    for (const stop of stops.splice(0)) stop();
  });
  for (const uri of new Set(uris)) {
    const stop = await watchFeed(deps, uri, (fp) => publish(uri, fp), listening).catch(() => undefined);
    if (!stop) continue;
    if (done) stop();
    else stops.push(stop);
  }
}

/** The HTTP transport's onListen: the named feeds are polled while the stream is open, changes go on the bus. */
export function listenOn(deps: ServerDeps, bus: FeedBus) {
  return (uris: string[], closed: (stop: () => void) => void, who: { person: string; header?: string[] }) =>
    void watchWhileOpen(deps, uris, bus.feedChanged, closed, who);
}

/** What a change event carries between replicas: the event and the fingerprint it was seen with. */
interface Wire {
  event: ServerEvent;
  seen?: string;
}

export interface FeedBus extends ServerEventBus {
  /** Publishes a feed change; replicas deliver each (uri, fingerprint) once. */
  feedChanged(uri: string, fingerprint: string): void;
  close(): Promise<void>;
}

/** The in-process bus (one server) with the same feedChanged() as the Redis one. */
export function localBus(): FeedBus {
  const bus = new InMemoryServerEventBus();
  const last = new Map<string, string>();
  return {
    publish: (e) => bus.publish(e),
    subscribe: (l) => bus.subscribe(l),
    feedChanged(uri, fingerprint) {
      if (!remember(last, uri, fingerprint)) return;
      bus.publish({ kind: 'resource_updated', uri });
    },
    close: async () => {},
  };
}

/** False when this fingerprint of the feed was announced already (by this or another replica's poller). */
function remember(last: Map<string, string>, uri: string, fingerprint: string): boolean {
  const digest = createHash('sha256').update(fingerprint).digest('base64url');
  if (last.get(uri) === digest) return false;
  last.delete(uri);
  last.set(uri, digest);
  if (last.size > 1000) last.delete(last.keys().next().value as string);
  return true;
}

/** The server event bus over Redis pub/sub: events published on any replica reach every replica's streams. */
export async function redisBus(redis: RedisState, logger: Logger): Promise<FeedBus> {
  const local = new InMemoryServerEventBus((e) =>
    logger.debug('event listener failed', { error: e.message }),
  );
  const last = new Map<string, string>();
  const channel = 'events';
  const unsubscribe = await redis.subscribe(channel, (raw) => {
    let wire: Wire;
    try {
      wire = JSON.parse(raw) as Wire;
    } catch {
      return;
    }
    const e = wire.event;
    if (e?.kind === 'resource_updated' && wire.seen !== undefined && !remember(last, e.uri, wire.seen))
      return;
    local.publish(e);
  });
  const send = (wire: Wire) =>
    void redis.publish(channel, JSON.stringify(wire)).catch((e: Error) => {
      logger.warn('change notification not published: the shared state store is unreachable', {
        error: e.message,
      });
    });
  return {
    publish: (event) => send({ event }),
    subscribe: (l) => local.subscribe(l),
    feedChanged: (uri, fingerprint) => send({ event: { kind: 'resource_updated', uri }, seen: fingerprint }),
    close: unsubscribe,
  };
}
