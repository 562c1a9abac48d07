// What the catalog says once is not written again in the tests: no table with a row per tool, no toolset's
// membership spelled out, no count of the tools. Each is derived from the tools (their `toolset`, `example`
// and `beyondSpec`), so adding a tool touches no test table. This reads every test file's syntax tree.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { catalog, everySet, toolsets } from '../../tools/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const names = new Set(catalog.map((t) => t.name));

/** Lists the catalog already holds: each set's tools (with and without list_projects), the tools beyond the spec. */
const derived: Array<[string, Set<string>]> = [
  ...toolsets.flatMap(
    (s): Array<[string, Set<string>]> => [
      [`toolset ${s.name}`, new Set(s.tools)],
      [`toolset ${s.name} with ${everySet.join(', ')}`, new Set([...s.tools, ...everySet])],
    ],
  ),
  ['the tools beyond the spec', new Set(catalog.filter((t) => t.beyondSpec).map((t) => t.name))],
];

/** A table of this many tools or more is a row per tool, whatever it is about. */
const TABLE = 10;

/** Witnesses kept on purpose: what the catalog is checked against, not what it says. */
const WITNESSES = new Set([
  // The spec's endpoints, as the design names them: the check of every `beyondSpec`.
  'test/unit/catalog.test.ts SPEC_TOOLS',
]);

function testFiles(dir = 'test'): string[] {
  return readdirSync(`${root}${dir}`, { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : testFiles(path);
    return /\.m?ts$/.test(e.name) ? [path] : [];
  });
}

const textOf = (n: ts.Node) =>
  ts.isStringLiteralLike(n) || ts.isIdentifier(n) || ts.isNumericLiteral(n) ? n.text : undefined;

/** The tool names a literal lists directly: an array's strings, an object's keys. */
function toolNamesIn(n: ts.ArrayLiteralExpression | ts.ObjectLiteralExpression): Set<string> {
  const items = ts.isArrayLiteralExpression(n)
    ? n.elements.map(textOf)
    : n.properties.map((p) => (p.name ? textOf(p.name) : undefined));
  return new Set(items.filter((s): s is string => s !== undefined && names.has(s)));
}

const same = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

/** Where a literal restates the catalog, and what it restates. */
function restated(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(`${root}${file}`, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const found: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isArrayLiteralExpression(n) || ts.isObjectLiteralExpression(n)) {
      const listed = toolNamesIn(n);
      const owner = ts.isVariableDeclaration(n.parent) ? n.parent.name.getText() : '';
      const what =
        listed.size >= TABLE ? `${listed.size} tools` : derived.find(([, set]) => same(listed, set))?.[0];
      if (what && listed.size > 1 && !WITNESSES.has(`${file} ${owner}`)) {
        const line = source.getLineAndCharacterOfPosition(n.getStart()).line + 1;
        found.push(`${file}:${line} lists ${what}`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

describe('the catalog is said once', () => {
  const files = testFiles();

  it('reads the test files', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files).toContain('test/unit/catalog-derived.test.ts');
  });

  it('has no test table of every tool, no toolset membership and no list of tools beyond the spec', () => {
    expect(files.flatMap(restated)).toEqual([]);
  });

  it('writes no tool count: tests take catalog.length and the sets', () => {
    const n = String(catalog.length);
    const count = new RegExp(`(?<![\\w.])${n}(?![\\w.])`);
    const found = files.flatMap((file) =>
      readFileSync(`${root}${file}`, 'utf8')
        .split('\n')
        .map((line, i) => [line, i + 1] as const)
        .filter(([line]) => count.test(line) && /tool|names\(|listed/i.test(line))
        .map(([line, i]) => `${file}:${i}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
