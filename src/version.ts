// The package's version: the nearest package.json named dbops-mcp above this module (source, build or bundle).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)), i = 0; i < 5; dir = dirname(dir), i++) {
    try {
      const p = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (p.name === 'dbops-mcp' && p.version) return p.version;
    } catch {
      // not here: look one folder up
    }
  }
  return '0.0.0';
}
