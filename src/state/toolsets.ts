// The toolsets a client enabled in dynamic mode on the sessionless 2026-07-28 era, kept per person and client
// name: every request builds a fresh server, on whichever replica, and each must list what the client
// enabled before. (Stdio and 2025 sessions keep theirs in the session.) In memory for one server; in the
// shared store (Redis) for replicas. Entries expire a day after their last change.
import { createHash } from 'node:crypto';
import type { RedisState } from './redis.js';

export interface EnabledToolsets {
  /** The sets enabled under this key ([] when none). */
  get(key: string): Promise<string[]>;
  /** Adds sets; resolves the sets enabled now. */
  add(key: string, sets: string[]): Promise<string[]>;
}

const TTL_MS = 24 * 60 * 60_000;
/** The key of a person's client: hashed, so a person's id or a client's name never sits in the store as is. */
export const choiceKey = (person: string, client: string) =>
  createHash('sha256').update(`${person}\n${client}`).digest('base64url');

export function memoryToolsets(now: () => number = Date.now): EnabledToolsets {
  const held = new Map<string, { sets: string[]; until: number }>();
  const live = (key: string) => {
    const e = held.get(key);
    if (e && e.until <= now()) held.delete(key);
    return held.get(key);
  };
  return {
    async get(key) {
      return [...(live(key)?.sets ?? [])];
    },
    async add(key, sets) {
      const merged = [...new Set([...(live(key)?.sets ?? []), ...sets])];
      held.delete(key);
      held.set(key, { sets: merged, until: now() + TTL_MS });
      // Bounded: the least recently changed entries go first.
      if (held.size > 10_000) held.delete(held.keys().next().value as string);
      return [...merged];
    },
  };
}

export function redisToolsets(redis: RedisState): EnabledToolsets {
  const key = (k: string) => `${redis.prefix}toolsets:${k}`;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
  return {
    async get(k) {
      return list(await redis.eval(`return redis.call('SMEMBERS', KEYS[1])`, [key(k)], []));
    },
    async add(k, sets) {
      return list(
        await redis.eval(
          `for i = 2, #ARGV do redis.call('SADD', KEYS[1], ARGV[i]) end
           redis.call('PEXPIRE', KEYS[1], ARGV[1])
           return redis.call('SMEMBERS', KEYS[1])`,
          [key(k)],
          [TTL_MS, ...sets],
        ),
      );
    },
  };
}
