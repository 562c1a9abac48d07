// The connection to the shared state store (Redis or Valkey, DBOPS_STATE_URL=redis://…) through node-redis
// (@redis/client), the client Redis itself maintains. Loaded only when a state URL is set: one replica alone
// pays nothing for it. While the store is unreachable every command fails at once with StateUnavailable
// (no offline queue): a guarded call then refuses to change anything instead of waiting or guessing.
import type { Logger } from '../log.js';
import { StateError } from './errors.js';

/** The store could not answer: nothing that depends on shared state (consent, single use) may go ahead. */
class StateUnavailable extends StateError {
  override name = 'StateUnavailable';
  constructor(cause: unknown) {
    super(
      `The shared state store (DBOPS_STATE_URL) is unreachable (${(cause as Error)?.message ?? String(cause)}); nothing changed. Consent and single use cannot be checked until it is back: try again in a moment, and tell the operator if it persists.`,
    );
  }
}

export interface RedisState {
  /** Runs a Lua script atomically on the store. */
  eval(script: string, keys: string[], args: Array<string | number>): Promise<unknown>;
  /** Publishes to a channel; subscribe() delivers messages from every replica (this one included). */
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  /** Runs at every (re)connection, before any other command of this replica reaches the store. */
  onReady(listener: () => void): void;
  /** Key prefix every key of this deployment starts with. */
  prefix: string;
  close(): Promise<void>;
}

const START_MS = 10_000;

/**
 * Connecting, the client retries in the background whatever went wrong, so a wrong password would be retried
 * for ever and start-up would neither fail nor finish: a refusal of the credentials ends it at once, anything
 * else after START_MS.
 */
async function refusedOrTimely(
  client: {
    on(event: 'error', l: (e: Error) => void): unknown;
    off(event: 'error', l: (e: Error) => void): unknown;
  },
  connect: () => Promise<unknown>,
): Promise<void> {
  let onError: ((e: Error) => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      connect(),
      new Promise((_, reject) => {
        onError = (e) => {
          if (/WRONGPASS|NOAUTH|NOPERM|invalid (username|password)|AUTH/i.test(e.message))
            reject(new Error(`the store refused the credentials in DBOPS_STATE_URL (${e.message})`));
        };
        client.on('error', onError);
        timer = setTimeout(() => reject(new Error(`no answer within ${START_MS / 1000} s`)), START_MS);
      }),
    ]);
  } finally {
    if (onError) client.off('error', onError);
    clearTimeout(timer);
  }
}

/** Connects to a redis:// or rediss:// URL; throws when the store cannot be reached now (start-up fails). */
export async function connectRedis(url: string, logger: Logger, prefix = 'dbops:'): Promise<RedisState> {
  const { createClient } = await import('@redis/client');
  const options = {
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5_000,
      // Keep trying in the background (the store may be restarting); commands fail fast meanwhile.
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2_000),
    },
  };
  const client = createClient(options);
  let down = false;
  client.on('error', (e: Error) => {
    if (!down) logger.warn('shared state store unreachable', { error: e.message });
    down = true;
  });
  const readyListeners: Array<() => void> = [];
  client.on('ready', () => {
    if (down) logger.info('shared state store reachable again');
    down = false;
    for (const listener of readyListeners) listener();
  });
  const subscriber = client.duplicate();
  subscriber.on('error', () => {});
  try {
    await refusedOrTimely(client, () => client.connect());
    await refusedOrTimely(subscriber, () => subscriber.connect());
  } catch (e) {
    await Promise.allSettled([client.destroy(), subscriber.destroy()]);
    throw new Error(`the shared state store does not answer: ${(e as Error).message}`);
  }
  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (e) {
      throw new StateUnavailable(e);
    }
  };
  return {
    prefix,
    onReady: (listener) => void readyListeners.push(listener),
    eval: (script, keys, args) =>
      guard(() => client.sendCommand(['EVAL', script, String(keys.length), ...keys, ...args.map(String)])),
    publish: (channel, message) =>
      guard(async () => {
        await client.sendCommand(['PUBLISH', prefix + channel, message]);
      }),
    async subscribe(channel, listener) {
      await guard(() => subscriber.subscribe(prefix + channel, listener));
      return async () => {
        await subscriber.unsubscribe(prefix + channel, listener).catch(() => {});
      };
    },
    async close() {
      await Promise.allSettled([client.close(), subscriber.close()]);
    },
  };
}
