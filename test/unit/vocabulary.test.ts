import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as spec from '../../src/vocabulary/index.js';

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

/** The import cycles among files under `dir` (each once, as "a → b → a"). */
function cycles(dir: string): string[] {
  const files = tsFiles(dir);
  const edges = new Map(files.map((f) => [f, importsOf(f).map((t) => t.replace(/\.js$/, '.ts'))]));
  const found = new Set<string>();
  const visit = (file: string, path: string[]): void => {
    for (const next of edges.get(file) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) found.add([...path.slice(at), next].join(' → '));
      else if (path.length < files.length) visit(next, [...path, next]);
    }
  };
  for (const f of files) visit(f, [f]);
  return [...found];
}

describe('layering of the spec and the simulator', () => {
  it('finds the imports it checks (the scanner is not blind)', () => {
    expect(importsOf('src/simulator/roles.ts')).toContain('src/vocabulary/index.js');
    expect(importsOf('src/simulator/types.ts')).toContain('src/simulator/store.js');
  });

  it('the simulator imports nothing of the API client', () => {
    expect(offending('src/simulator', (t) => t.startsWith('src/api/'))).toEqual([]);
  });

  it('the simulator has no import loop (types included)', () => {
    expect(cycles('src/simulator')).toEqual([]);
  });

  it('src/vocabulary imports nothing of the project', () => {
    expect(offending('src/vocabulary', (t) => !t.startsWith('src/vocabulary/'))).toEqual([]);
  });

  it('the simulator records import nothing of the simulator but the spec', () => {
    expect(importsOf('src/simulator/records.ts').filter((t) => !t.startsWith('src/vocabulary/'))).toEqual([]);
    expect(offending('src/simulator/data', (t) => /simulator\/(store|types|routes)/.test(t))).toEqual([]);
  });
});

/** Copies of a spec list written out again outside src/vocabulary: none may exist. */
const KNOWN_COPIES: string[] = [];

describe('the spec facts live once', () => {
  const lists = (Object.entries(spec) as Array<[string, unknown]>).filter(
    (e): e is [string, readonly string[]] =>
      Array.isArray(e[1]) && e[1].length >= 3 && e[1].every((v) => typeof v === 'string'),
  );

  /** String-array literals of a file: a list written out by hand. */
  function literals(file: string): string[][] {
    const text = readFileSync(join(ROOT, file), 'utf8');
    return [...text.matchAll(/\[\s*((?:'[^'\n]*'\s*,\s*)+'[^'\n]*'\s*,?\s*)\]/g)].map((m) =>
      [...m[1]!.matchAll(/'([^'\n]*)'/g)].map((x) => x[1]!),
    );
  }

  it('sees a copy when there is one (the scanner is not blind)', () => {
    expect(lists.map(([name]) => name)).toEqual(expect.arrayContaining(['PROJECT_ROLES', 'ALERT_STATUSES']));
    expect(literals('src/vocabulary/roles.ts')).toContainEqual([...spec.ORG_ROLES]);
  });

  it('no file outside src/vocabulary writes out a list of the spec again', () => {
    const files = ['src', 'tools', 'prompts']
      .flatMap((dir) => tsFiles(dir))
      .filter((f) => !f.startsWith('src/vocabulary/'));
    const copies = files.flatMap((file) =>
      literals(file).flatMap((items) =>
        lists
          .filter(([, list]) => items.length === list.length && list.every((v) => items.includes(v)))
          .map(([name]) => `${file}: ${name}`),
      ),
    );
    expect(copies.filter((c) => !KNOWN_COPIES.includes(c))).toEqual([]);
    // A copy switched to src/vocabulary leaves KNOWN_COPIES: remove its entry.
    expect(KNOWN_COPIES.filter((c) => !copies.includes(c))).toEqual([]);
  });
});
