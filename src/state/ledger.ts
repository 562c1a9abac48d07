// The single-use ledger: a key can be claimed once, ever (until its record expires). Confirmation tokens and
// executed approvals are claimed here, so "single use" holds across processes and restarts, not just in
// memory. The file ledger (the default) serves one machine and any number of processes on it; a shared
// store (Redis) implements the same interface for several replicas.
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export interface Ledger {
  /** True for the first claim of `key`; false when it was claimed before and has not expired. */
  claim(key: string, expiresAtMs: number): Promise<boolean>;
}

export function memoryLedger(now: () => number = Date.now): Ledger {
  const claimed = new Map<string, number>();
  return {
    async claim(key, expiresAtMs) {
      const t = now();
      for (const [k, until] of claimed) if (until <= t) claimed.delete(k);
      if (claimed.has(key)) return false;
      claimed.set(key, expiresAtMs);
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
        await handle.writeFile(String(expiresAtMs));
        await handle.sync();
      } finally {
        await handle.close();
      }
      return true;
    },
  };
}
