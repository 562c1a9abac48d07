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
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

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

/** A process killed between writing and renaming leaves its temp file behind; the next start removes it. */
function removeStaleTemps(file: string): void {
  const target = resolve(file);
  const dir = dirname(target);
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name.startsWith(tempPrefix(target)) && name.endsWith('.tmp'))
      rmSync(join(dir, name), { force: true });
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
