// `npm run test:unit` is the fast loop: no build, no Redis, no browser, no global set-up. A test that needs
// one of them belongs in test/e2e, test/integration or test/replicas; this keeps the loop from growing one
// by accident (through the test itself or a helper it imports).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';

const root = resolve(new URL('../../', import.meta.url).pathname);
const unit = join(root, 'test/unit');
const self = new URL(import.meta.url).pathname;

/** What only a build, a Redis or a browser provides, as test code names it. */
const NEEDS: Array<[RegExp, string]> = [
  [/['"`][^'"`\n]*\bdist\//, 'the build (dist/)'],
  [/helpers\/(redis|replicas)\.js|redis-server/, 'a Redis'],
  [/helpers\/(browser|app-host)\.js|playwright|chromium/i, 'a browser'],
  [/helpers\/npm\.js/, 'npm'],
];

/** Every test file under test/unit and every test helper it imports (relative imports outside src/ etc.). */
function unitTestCode(): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/from\s+['"](\.[^'"]+)\.js['"]/g)) {
      const target = resolve(dirname(file), `${m[1]}.ts`);
      if (relative(root, target).startsWith('test/')) visit(target);
    }
  };
  for (const f of readdirSync(unit)) if (f.endsWith('.ts')) visit(join(unit, f));
  seen.delete(self); // this file names what it looks for
  return [...seen];
}

describe('the fast loop (npm run test:unit)', () => {
  it('is the unit project: test/unit alone, with no global set-up', () => {
    const projects = (config.test?.projects ?? []) as Array<{
      test?: { name?: string; include?: string[]; globalSetup?: unknown };
    }>;
    const project = projects.find((p) => p.test?.name === 'unit')?.test;
    expect(project?.include).toEqual(['test/unit/**/*.test.ts']);
    expect(project?.globalSetup).toBeUndefined();
    expect(config.test?.globalSetup).toBeUndefined();
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.scripts['test:unit']).toBe('vitest run --project unit');
  });

  it('needs no build, no Redis and no browser, in its tests or the helpers they import', () => {
    const files = unitTestCode();
    expect(files.length).toBeGreaterThan(20);
    const needs = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return NEEDS.filter(([re]) => re.test(text)).map(([, what]) => `${relative(root, file)} needs ${what}`);
    });
    expect(needs).toEqual([]);
  });
});
