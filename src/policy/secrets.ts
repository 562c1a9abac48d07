// A minted private key is written to a 0600 file and the model sees it masked with the file's path, unless
// the operator chose DBOPS_REVEAL_SECRETS=true. The folder must be private: one we own is tightened to 0700,
// one owned by someone else and open to others is refused.
import { createHash, randomInt } from 'node:crypto';
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiKey } from '../api/client.js';
import { isMaskedValue, mask } from '../format/redact.js';
import type { KeptKey } from '../format/views/access-keys.js';

/** Makes sure `dir` exists and only its owner (this user) can enter it; throws a message naming the fix. */
async function privateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const s = await stat(dir);
  if ((s.mode & 0o077) === 0) return;
  if (s.uid === process.getuid?.()) {
    await chmod(dir, 0o700);
    return;
  }
  throw new Error(
    `DBOPS_SECRETS_DIR ${dir} is open to other users (mode ${(s.mode & 0o777).toString(8)}) and not owned by this user: refusing to write private keys there. Use a folder of your own, or chmod 700 it.`,
  );
}

export function createSecretKeeper(dir: string, reveal: boolean) {
  return {
    /** `always`: to the file even under DBOPS_REVEAL_SECRETS (a generated password never goes to the chat). */
    async keep(label: string, value: string, always = false): Promise<{ shown: string; path?: string }> {
      if (reveal && !always) return { shown: value };
      await privateDir(dir);
      const file = join(dir, `${fileNameOf(label)}.key`);
      await writeFile(file, `${value}\n`, { mode: 0o600, flag: 'w' });
      return { shown: mask(value), path: file };
    },
  };
}

type SecretKeeper = ReturnType<typeof createSecretKeeper>;

/**
 * A file name of its own for each label: a label that had to be changed to fit (`a+b@x` and `a_b@x` both
 * become `a_b_x`) gets a short hash of the original, so one never overwrites the other's file.
 */
export function fileNameOf(label: string): string {
  const safe = label.replace(/[^A-Za-z0-9._-]/g, '_');
  return safe === label && !label.startsWith('.')
    ? label
    : `${safe.replace(/^\./, '_')}-${createHash('sha256').update(label).digest('hex').slice(0, 8)}`;
}

/** Hands a minted key's private half to the keeper; the returned copy holds only what may be shown. */
export async function keepKey(
  secrets: Pick<SecretKeeper, 'keep'>,
  key: ApiKey,
  /** Set for the older first-user answer, whose key is one string (kept under `label`). */
  legacy?: { label: string },
): Promise<KeptKey> {
  const older = legacy ? { legacy: true } : {};
  if (!key.privateKey) return { ...key, ...older };
  // Some server versions mask the private key even in the answer to its creation: nothing to keep.
  if (isMaskedValue(key.privateKey)) return { ...key, ...older, privateKeyMasked: true };
  const kept = await secrets.keep(legacy?.label ?? key.publicKey ?? key.id ?? 'api-key', key.privateKey);
  return { ...key, ...older, privateKey: kept.shown, ...(kept.path ? { privateKeyFile: kept.path } : {}) };
}

/**
 * A strong password for a new user when none was given (so none is typed into the chat): 24 characters from
 * a CSPRNG, with upper and lower case, digits and symbols, as the platform's password rules want.
 */
export function generatePassword(): string {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!#%+-.=?@^_~'];
  const all = sets.join('');
  const pick = (chars: string) => chars[randomInt(chars.length)] as string;
  const chosen = [...sets.map(pick), ...Array.from({ length: 20 }, () => pick(all))];
  // Shuffle (Fisher–Yates) so the guaranteed characters are not always first.
  for (let i = chosen.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chosen[i], chosen[j]] = [chosen[j] as string, chosen[i] as string];
  }
  return chosen.join('');
}
