// Reads shared between replicas (DBOPS_STATE_URL): a platform answer fetched by one replica is kept in the
// store for the cache's time, under the key's identity (never the secret). A lock per read makes one replica
// fetch while the others wait a moment and then read its answer. Writes bump a generation per identity, so a
// read that was under way during a write does not keep its answer. The store is a help, never a condition: when
// it does not answer, the replica fetches for itself.
import type { Kept, SharedReads } from '../api/cache.js';
import type { Logger } from '../log.js';
import type { RedisState } from './redis.js';

const LOOK = `
local v = redis.call('GET', KEYS[1])
if v then return {1, v} end
local g = redis.call('GET', KEYS[3]) or '0'
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[1]) then return {2, g} end
return {3, g}`;

const POLL = `
local v = redis.call('GET', KEYS[1])
if v then return {1, v} end
if redis.call('EXISTS', KEYS[2]) == 0 then return {0} end
return {3}`;

// Kept only when no write happened since the fetch began (the generation is unchanged).
const STORE = `
redis.call('DEL', KEYS[2])
if (redis.call('GET', KEYS[3]) or '0') ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
for i = 4, 5 do
  redis.call('SADD', KEYS[i], KEYS[1])
  if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
return 1`;

const DROP = `
redis.call('INCR', KEYS[1])
local ks = redis.call('SMEMBERS', KEYS[2])
for i = 1, #ks do redis.call('DEL', ks[i]) end
redis.call('DEL', KEYS[2])
return #ks`;

interface RedisReadsOptions {
  /** How long a fetch may hold a read's lock (default 10 s). */
  lockMs?: number;
  /** How long the other replicas wait for the fetching one before fetching themselves (default 3 s). */
  waitMs?: number;
  /** Between looks at the store while waiting (default 20 ms). */
  pollMs?: number;
}

export function redisReads(redis: RedisState, logger: Logger, o: RedisReadsOptions = {}): SharedReads {
  const lockMs = o.lockMs ?? 10_000;
  const waitMs = o.waitMs ?? 3_000;
  const pollMs = o.pollMs ?? 20;
  const p = `${redis.prefix}read:`;
  const keys = (identity: string, target: string, scope: string) => [
    `${p}${identity}:v:${target}`,
    `${p}${identity}:lock:${target}`,
    `${p}${identity}:gen`,
    `${p}${identity}:scope:${scope}`,
    `${p}${identity}:scope:`,
  ];
  let warned = false;
  const unavailable = (e: unknown) => {
    if (!warned)
      logger.warn('shared reads: the store did not answer; fetching directly', { error: String(e) });
    warned = true;
  };
  const parse = (v: unknown): Kept => {
    const o = JSON.parse(String(v)) as { s: number; b: string; a: number };
    return { status: o.s, body: o.b, at: o.a };
  };

  return {
    async read(identity, target, scope, ttlMs, fetch) {
      const k = keys(identity, target, scope);
      let look: [number, unknown];
      try {
        look = (await redis.eval(LOOK, k, [lockMs])) as [number, unknown];
      } catch (e) {
        unavailable(e);
        return { kept: await fetch(), fetched: true };
      }
      if (look[0] === 1) return { kept: parse(look[1]), fetched: false };
      const gen = String(look[1]);
      if (look[0] === 3) {
        // Another replica is fetching: its answer will be in the store shortly.
        const end = Date.now() + waitMs;
        while (Date.now() < end) {
          await new Promise((r) => setTimeout(r, pollMs));
          try {
            const r = (await redis.eval(POLL, k, [])) as [number, unknown?];
            if (r[0] === 1) return { kept: parse(r[1]), fetched: false };
            if (r[0] === 0) break;
          } catch (e) {
            unavailable(e);
            break;
          }
        }
        return { kept: await fetch(), fetched: true };
      }
      let kept: Kept;
      try {
        kept = await fetch();
      } catch (e) {
        await redis.eval(`redis.call('DEL', KEYS[1]) return 1`, [k[1] as string], []).catch(() => {});
        throw e;
      }
      const value = JSON.stringify({ s: kept.status, b: kept.body, a: kept.at });
      await redis.eval(STORE, k, [value, ttlMs, gen]).catch(unavailable);
      return { kept, fetched: true };
    },
    async invalidate(identity, scope) {
      try {
        await redis.eval(DROP, [`${p}${identity}:gen`, `${p}${identity}:scope:${scope}`], []);
      } catch (e) {
        unavailable(e);
      }
    },
  };
}
