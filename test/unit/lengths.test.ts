// Short functions and files: no function over 120 lines and no file over 450 in the product's sources, the
// simulator's demo world included (its derivations live beside data/, in src/simulator/derive-*.ts). A long
// factory that holds everything in one closure fails here; so does a room that grew past what one reading holds.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(new URL('../..', import.meta.url).pathname);
const MAX_FUNCTION = 120;
const MAX_FILE = 450;

function files(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const p = join(dir, name);
    return statSync(join(root, p)).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const sources = ['src', 'tools', 'prompts', 'apps'].flatMap(files);
const lines = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** Every function with a body (declarations, methods, arrows, expressions), as "file:line name (N lines)". */
function longFunctions(file: string, text = readFileSync(join(root, file), 'utf8')): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
  const visit = (n: ts.Node) => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const length = lineOf(n.getEnd()) - lineOf(n.getStart()) + 1;
      const p = n.parent;
      const name =
        (n as ts.FunctionLikeDeclaration).name?.getText() ??
        (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p)) ? p.name.getText() : 'anonymous');
      if (length > MAX_FUNCTION) found.push(`${file}:${lineOf(n.getStart()) + 1} ${name} (${length} lines)`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('lengths', () => {
  it('catches a function one line too long, nested or not, and lets one at the limit pass', () => {
    const fn = (lines: number) =>
      `function f() {\n${Array.from({ length: lines - 2 }, (_, i) => `  const a${i} = ${i};`).join('\n')}\n}\n`;
    expect(longFunctions('x.ts', fn(MAX_FUNCTION))).toEqual([]);
    expect(longFunctions('x.ts', fn(MAX_FUNCTION + 1))).toEqual([`x.ts:1 f (${MAX_FUNCTION + 1} lines)`]);
    const nested = `const make = () => ({\n  run: ${fn(MAX_FUNCTION + 1).replace('function f', 'function ')}});\n`;
    expect(longFunctions('x.ts', nested)).toContain(`x.ts:2 run (${MAX_FUNCTION + 1} lines)`);
    expect(sources.length).toBeGreaterThan(100);
  });

  it(`has no function over ${MAX_FUNCTION} lines`, () => {
    expect(sources.flatMap((f) => longFunctions(f))).toEqual([]);
  });

  it(`has no file over ${MAX_FILE} lines`, () => {
    const long = sources
      .map((f) => [f, lines(readFileSync(join(root, f), 'utf8'))] as const)
      .filter(([, n]) => n > MAX_FILE)
      .map(([f, n]) => `${f} (${n} lines)`);
    expect(long).toEqual([]);
  });
});
