// The installation's id: created once in the state store, read by every process and replica that shares it.
// Proofs (confirmation tokens, sealed consent answers, sign-in cookies) are bound to it with
// DBOPS_TOKEN_SECRET, so replicas sharing the store accept each other's proofs, and a server with another
// store — whose ledger never saw them used — refuses them, whatever secret it shares.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StateError } from './errors.js';
import type { RedisState } from './redis.js';

const SHAPE = /^[0-9a-f]{32}$/;
const fresh = () => randomBytes(16).toString('hex');

/** The id kept in `dir` (the file store): created by the first process, with O_EXCL, and read by the rest. */
export async function fileInstallation(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'installation');
  try {
    await writeFile(file, fresh(), { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const id = (await readFile(file, 'utf8')).trim();
  if (!SHAPE.test(id))
    throw new StateError(`${file} does not hold an installation id; remove it to make one`);
  return id;
}

const GET_OR_SET = `local v = redis.call('GET', KEYS[1]) if v then return v end redis.call('SET', KEYS[1], ARGV[1]) return ARGV[1]`;

/** The id kept in Redis: the first replica sets it; a store that lost it gets it back from the replicas. */
export async function redisInstallation(redis: RedisState): Promise<string> {
  const key = `${redis.prefix}installation`;
  const id = String(await redis.eval(GET_OR_SET, [key], [fresh()]));
  if (!SHAPE.test(id)) throw new StateError(`the state store's ${key} does not hold an installation id`);
  redis.onReady(
    () => void redis.eval(`redis.call('SET', KEYS[1], ARGV[1], 'NX') return 1`, [key], [id]).catch(() => {}),
  );
  return id;
}
