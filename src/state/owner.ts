// One HTTP server per state directory. Without a shared store (DBOPS_STATE_URL) pending approvals live in the
// server's memory, so a second server on the same directory (a second replica behind one address) would answer
// "unknown approval" for every approval the first one holds. The second one therefore refuses to start, naming
// the fix. The owner is a file in the directory: who holds it (pid, host, what it serves), its modification time
// renewed while the owner lives. It is stale when its process is gone (same host) or when it was not renewed
// for STALE_MS (another host sharing the directory, or a process that hangs).
import { randomBytes } from 'node:crypto';
import {
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { lockSync } from 'proper-lockfile';

const OWNER_FILE = 'server.owner';
const RENEW_MS = 10_000;
const STALE_MS = 30_000;

interface Owner {
  pid: number;
  host: string;
  /** What the owner serves (its MCP URL), for the message that names it. */
  serves?: string;
  since: string;
}

export class StateDirInUse extends Error {
  override name = 'StateDirInUse';
  constructor(
    readonly dir: string,
    readonly owner: Owner,
  ) {
    super(
      `the state directory ${dir} is in use by another dbops-mcp server (pid ${owner.pid} on ${owner.host}` +
        `${owner.serves ? `, serving ${owner.serves}` : ''}, since ${owner.since}). Two servers on one state ` +
        'directory do not share pending approvals: one made through either is unknown to the other. Give ' +
        'this server its own DBOPS_STATE_DIR, or run every server with DBOPS_STATE_URL (a shared Redis; ' +
        'approvals are shared there).',
    );
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

/** The live owner of `dir`, or undefined when there is none (no file, or a stale one). */
export function liveOwner(dir: string, now = Date.now()): Owner | undefined {
  const file = join(dir, OWNER_FILE);
  let owner: Owner;
  let renewedAt: number;
  try {
    owner = JSON.parse(readFileSync(file, 'utf8')) as Owner;
    renewedAt = statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
  if (typeof owner?.pid !== 'number' || typeof owner.host !== 'string') return undefined;
  if (now - renewedAt > STALE_MS) return undefined;
  if (owner.host === hostname() && !pidAlive(owner.pid)) return undefined;
  return owner;
}

const isMe = (o: Owner) => o.pid === process.pid && o.host === hostname();

/**
 * Makes this process the owner of `dir`, or throws StateDirInUse naming the live one. The check and the write
 * happen under an inter-process lock, so of two servers starting at once exactly one wins.
 */
export function claimStateDir(dir: string, serves?: string): { release(): void } {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, OWNER_FILE);
  const unlock = lockSync(dir, { lockfilePath: join(dir, `.${OWNER_FILE}.lock`), stale: 10_000 });
  try {
    const current = liveOwner(dir);
    if (current && !isMe(current)) throw new StateDirInUse(dir, current);
    const me: Owner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    if (serves) me.serves = serves;
    const temp = join(dir, `.${OWNER_FILE}.${randomBytes(4).toString('hex')}`);
    writeFileSync(temp, `${JSON.stringify(me)}\n`, { mode: 0o600 });
    renameSync(temp, file);
  } finally {
    unlock();
  }
  const renew = setInterval(() => {
    const t = new Date();
    try {
      utimesSync(file, t, t);
    } catch {
      // Removed under us: the next server may start; nothing to do here.
    }
  }, RENEW_MS);
  renew.unref();
  return {
    release() {
      clearInterval(renew);
      try {
        const o = JSON.parse(readFileSync(file, 'utf8')) as Owner;
        if (isMe(o)) unlinkSync(file);
      } catch {
        // Gone already.
      }
    },
  };
}
