import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every relative import of a file (static, dynamic and `import('…')` types), resolved from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.[^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)));
}

/** "file → target" for each import of a file under `dir` whose target matches `forbidden`. */
function offending(dir: string, forbidden: (target: string) => boolean): string[] {
  return tsFiles(dir).flatMap((f) =>
    importsOf(f)
      .filter(forbidden)
      .map((t) => `${f} → ${t}`),
  );
}

describe('layering of the spec and the simulator', () => {
  it('finds the imports it checks (the scanner is not blind)', () => {
    expect(importsOf('src/simulator/routes/access.ts')).toContain('src/spec/index.js');
    expect(importsOf('src/simulator/types.ts')).toContain('src/simulator/store.js');
  });

  it('the simulator imports nothing of the API client', () => {
    expect(offending('src/simulator', (t) => t.startsWith('src/api/'))).toEqual([]);
  });

  it('src/spec imports nothing of the project', () => {
    expect(offending('src/spec', (t) => !t.startsWith('src/spec/'))).toEqual([]);
  });

  it('the simulator records import nothing of the simulator but the spec', () => {
    expect(importsOf('src/simulator/records.ts').filter((t) => !t.startsWith('src/spec/'))).toEqual([]);
    expect(offending('src/simulator/data', (t) => /simulator\/(store|types|routes)/.test(t))).toEqual([]);
  });
});
