// A minted private key is written to a 0600 file and the model sees it masked with the file's path, unless
// the operator chose DBOPS_REVEAL_SECRETS=true.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mask } from '../format/redact.js';

export function createSecretKeeper(dir: string, reveal: boolean) {
  return {
    async keep(label: string, value: string): Promise<{ shown: string; path?: string }> {
      if (reveal) return { shown: value };
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, `${label.replace(/[^A-Za-z0-9._-]/g, '_')}.key`);
      await writeFile(file, `${value}\n`, { mode: 0o600, flag: 'w' });
      return { shown: mask(value), path: file };
    },
  };
}
