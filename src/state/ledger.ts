// The single-use ledger: a key can be claimed once, ever (until its record expires). Confirmation tokens and
// executed approvals are claimed here, so "single use" holds across processes and restarts, not just in
// memory. The file ledger (the default) serves one machine and any number of processes on it; a shared
// store (Redis) implements the same interface for several replicas.
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { StateError } from './errors.js';
import type { RedisState } from './redis.js';

export { StateError } from './errors.js';

export interface Ledger {
  /**
   * True for the first claim of `key`; false when it was claimed before and has not expired. `issuedAtMs`
   * (when the claimed thing was minted) lets a store that lost its records refuse what predates the loss.
   */
  claim(key: string, expiresAtMs: number, issuedAtMs?: number): Promise<boolean>;
}

/**
 * How long past its own expiry a claim is kept: longer than any clock between replicas may differ, so nothing
 * that can still redeem a claim (a token, a sealed consent state, an approval) outlives its record.
 */
const CLAIM_SKEW_MS = 5 * 60_000;

/** The one rule for how long a claim's record is kept. */
const keepClaimUntil = (expiresAtMs: number) => expiresAtMs + CLAIM_SKEW_MS;

export function memoryLedger(now: () => number = Date.now): Ledger {
  const claimed = new Map<string, number>();
  return {
    async claim(key, expiresAtMs) {
      const t = now();
      for (const [k, until] of claimed) if (until <= t) claimed.delete(k);
      if (claimed.has(key)) return false;
      claimed.set(key, keepClaimUntil(expiresAtMs));
      return true;
    },
  };
}

const PRUNE_EVERY_MS = 60_000;

/**
 * One file per claim, created with O_EXCL: the file system decides the race between processes atomically.
 * The file holds the expiry; expired files are removed now and then (an expired token is refused before it
 * is claimed, so removing its record cannot make it usable again).
 */
export function fileLedger(dir: string, now: () => number = Date.now): Ledger {
  let ready: Promise<unknown> | undefined;
  let prunedAt = 0;
  const fileOf = (key: string) => join(dir, `${createHash('sha256').update(key).digest('hex')}.claim`);

  async function prune(t: number) {
    prunedAt = t;
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!name.endsWith('.claim')) continue;
      const file = join(dir, name);
      const until = Number(await readFile(file, 'utf8').catch(() => ''));
      if (Number.isFinite(until) && until > 0 && until <= t) await unlink(file).catch(() => {});
    }
  }

  return {
    async claim(key, expiresAtMs) {
      ready ??= mkdir(dir, { recursive: true, mode: 0o700 });
      await ready;
      const t = now();
      if (t - prunedAt > PRUNE_EVERY_MS) await prune(t);
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(fileOf(key), 'wx', 0o600);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw e;
      }
      try {
        await handle.writeFile(String(keepClaimUntil(expiresAtMs)));
        await handle.sync();
      } finally {
        await handle.close();
      }
      return true;
    },
  };
}

// `since` marks when the store's records begin. It is set when a replica connects or reconnects (a restart
// without persistence lost the mark with the records), and, should it still be missing, by the next claim:
// anything minted before it may have been claimed in the lost records, so it is refused rather than risk a
// second use. Marking at reconnect lets what is minted after the restart work at once.
const CLAIM = `
local since = redis.call('GET', KEYS[2])
if not since then redis.call('SET', KEYS[2], ARGV[3]); since = ARGV[3] end
if tonumber(ARGV[2]) < tonumber(since) then return -1 end
if redis.call('SET', KEYS[1], '1', 'NX', 'PXAT', ARGV[1]) then return 1 end
return 0`;

/** The ledger in Redis: SET NX with the claim's expiry, atomic across every replica sharing the store. */
export async function redisLedger(redis: RedisState, now: () => number = Date.now): Promise<Ledger> {
  const since = `${redis.prefix}ledger:since`;
  const mark = () => redis.eval(`redis.call('SET', KEYS[1], ARGV[1], 'NX') return 1`, [since], [now()]);
  await mark();
  redis.onReady(() => void mark().catch(() => {}));
  return {
    async claim(key, expiresAtMs, issuedAtMs) {
      const t = now();
      const r = await redis.eval(
        CLAIM,
        [`${redis.prefix}ledger:${createHash('sha256').update(key).digest('hex')}`, since],
        [keepClaimUntil(expiresAtMs), issuedAtMs ?? t, t],
      );
      if (r === -1)
        throw new StateError(
          'The shared state store lost its records after this was issued (a restart without persistence), so its single use cannot be checked; nothing changed. Ask the person again for a new confirmation.',
        );
      return r === 1;
    },
  };
}
