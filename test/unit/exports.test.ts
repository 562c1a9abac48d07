// Every export is imported somewhere: an export nothing imports is dead code, or a name that should be the file's
// own. Checked by name over the whole repository (src, tools, prompts, apps, tests, scripts, bench), so dynamic
// imports and re-exports count too.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const walk = (d: string): string[] =>
  readdirSync(d).flatMap((n) => {
    const p = join(d, n);
    if (n === 'node_modules' || n === 'dist' || n.startsWith('.')) return [];
    return statSync(p).isDirectory() ? walk(p) : /\.(ts|mts|mjs|js)$/.test(n) ? [p] : [];
  });

/** The exported declarations of a file's text. */
const exportedNames = (text: string): string[] =>
  [...text.matchAll(/^export (?:async )?(?:function\*?|const|let|class|interface|type|enum) (\w+)/gm)].map(
    (m) => m[1] as string,
  );

// Written in parts, so that the fast-loop test does not read it as this file's own import.
const reExport = (f: string) => ['export * from ', "'./", stem(f), ".js'"].join('');
const stem = (f: string) => basename(f).replace(/\.(ts|mts|mjs|js)$/, '');
/** How another file names a module: by its file in an import, a re-export, a dynamic import or a mock. */
const namesModule = (text: string, f: string) =>
  [`/${stem(f)}.js'`, `/${stem(f)}.ts'`].some((s) => text.includes(s));

/**
 * The exports of `owned` files no other file imports: another file must name the export and the module (or a
 * barrel that re-exports it), so an export sharing its name with another module's does not pass for used.
 */
function unimported(owned: string[], all: Map<string, string>): string[] {
  const barrelsOf = (f: string) =>
    [...all].filter(([g, t]) => g !== f && t.includes(reExport(f))).map(([g]) => g);
  return owned.flatMap((f) => {
    const reach = [f, ...barrelsOf(f)];
    return exportedNames(all.get(f) ?? '')
      .filter(
        (n) =>
          ![...all].some(
            ([g, t]) => g !== f && new RegExp(`\\b${n}\\b`).test(t) && reach.some((r) => namesModule(t, r)),
          ),
      )
      .map((n) => `${relative(root, f)}: ${n}`);
  });
}

describe('exports', () => {
  it('are each imported somewhere', () => {
    // src/index.ts is the package's API for others; tools/ files are read whole by the catalog (their tools).
    const owned = ['src', 'prompts', 'apps']
      .flatMap((d) => walk(join(root, d)))
      .filter((f) => relative(root, f) !== 'src/index.ts');
    const everything = [
      ...owned,
      ...['tools', 'test', 'scripts', 'bench', 'bundle'].flatMap((d) => walk(join(root, d))),
    ];
    const all = new Map(everything.map((f) => [f, readFileSync(f, 'utf8')]));
    expect(unimported(owned, all)).toEqual([]);
  });

  it('finds one that nothing imports, or only under a name another module exports too', () => {
    const a = join(root, 'a.ts');
    const b = join(root, 'b.ts');
    const c = join(root, 'c.ts');
    const all = new Map([
      [
        a,
        'export const used = 1;\nexport function unused() {}\nexport interface Kept {}\nexport const byRank = 1;\n',
      ],
      // Written in parts, so that the fast-loop test does not read them as this file's own imports.
      [b, ['import', '{ used, type Kept }', 'from', "'./a.js';"].join(' ')],
      [c, ['import', '{ byRank }', 'from', "'./rules/ranking.js';"].join(' ')],
    ]);
    expect(unimported([a], all)).toEqual(['a.ts: unused', 'a.ts: byRank']);
  });
});
