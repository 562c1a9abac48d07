// Which replica holds a 2025-era session (Mcp-Session-Id → the replica's own address), so a request that a
// plain load balancer sends elsewhere is passed on to the replica holding the session: 2025 clients keep
// elicitation and subscriptions behind round-robin. Entries expire with the session's idle time.
import type { RedisState } from './redis.js';

export interface SessionDirectory {
  /** Records (or refreshes) that this replica, reachable at `origin`, holds the session. */
  hold(id: string, origin: string, ttlMs: number): Promise<void>;
  /** The origin of the replica holding the session, if any. */
  holder(id: string): Promise<string | undefined>;
  release(id: string): Promise<void>;
}

export function redisSessions(redis: RedisState): SessionDirectory {
  const key = (id: string) => `${redis.prefix}session:${id}`;
  return {
    async hold(id, origin, ttlMs) {
      await redis.eval(
        `redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1`,
        [key(id)],
        [origin, ttlMs],
      );
    },
    async holder(id) {
      const v = await redis.eval(`return redis.call('GET', KEYS[1])`, [key(id)], []);
      return typeof v === 'string' ? v : undefined;
    },
    async release(id) {
      await redis.eval(`redis.call('DEL', KEYS[1]) return 1`, [key(id)], []);
    },
  };
}
