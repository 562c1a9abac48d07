// Snapshot file of the simulator (--data FILE). Saves are synchronous and atomic: temp file in the same
// directory, fsync, rename over the old file, fsync the directory. A change is answered 2xx only after its
// save returned, so a crash at any moment leaves either the old or the new complete file, never a torn one.

import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { lockSync } from 'proper-lockfile';

/** Reads the snapshot, or undefined when the file does not exist. A file that does not parse is an error. */
export function loadSnapshot(file: string): unknown {
  removeStaleTemps(file);
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(
      `simulator data file ${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}); ` +
        'move it away to start from the dataset',
    );
  }
}

const tempPrefix = (target: string) => `.${basename(target)}.`;

export function saveSnapshot(file: string, data: unknown): void {
  const target = resolve(file);
  const dir = dirname(target);
  const temp = join(dir, `${tempPrefix(target)}${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const text = `${JSON.stringify(data)}\n`;
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncDir(dir);
}

/**
 * A process killed between writing and renaming leaves its temp file behind; the next load removes it. A temp
 * file of a process still alive (another process sharing the file, saving right now) is left alone.
 */
function removeStaleTemps(file: string): void {
  const target = resolve(file);
  const dir = dirname(target);
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(tempPrefix(target)) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(tempPrefix(target).length).split('.')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) continue;
    rmSync(join(dir, name), { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Makes the rename itself durable. Some platforms cannot open or fsync a directory; there it is skipped. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL') throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** What identifies the file's current content cheaply: a save renames a new file in (new inode and time). */
export function fileStamp(file: string): string | undefined {
  try {
    const s = statSync(file);
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return undefined;
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));
const LOCK_WAIT_MS = 10_000;

/**
 * Runs `fn` holding the file's inter-process lock, so that processes sharing one data file (parallel
 * `call --demo`) read, change and save it one after another and no change is lost. Synchronous like the
 * routes it wraps; a lock left by a killed process is taken over after 10 s.
 */
export function exclusive<T>(file: string, fn: () => T): T {
  const target = resolve(file);
  const options = { realpath: false, lockfilePath: `${target}.lock`, stale: LOCK_WAIT_MS };
  const deadline = Date.now() + LOCK_WAIT_MS;
  let release: () => void;
  for (;;) {
    try {
      release = lockSync(target, options);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() > deadline) throw error;
      Atomics.wait(pause, 0, 0, 5 + Math.floor(Math.random() * 20));
    }
  }
  try {
    return fn();
  } finally {
    release();
  }
}
