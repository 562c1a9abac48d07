// The doctor as a user runs it after installing the package: `npm pack`, a global install of the tarball into
// an empty prefix, then `dbops-mcp doctor` from the PATH — passing in demo mode (no configuration), failing with
// the fix for a broken set-up. Catches a doctor that needs something the package does not ship.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installGlobally, npm, run } from '../helpers/npm.js';

const root = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'dbops-doctor-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The installed command's exit code and output (a failing doctor exits 1, which execFile rejects). */
async function doctor(env: Record<string, string>, args: string[] = []) {
  try {
    const r = await run('dbops-mcp', ['doctor', ...args], { env, timeout: 60_000 });
    return { code: 0, out: r.stdout };
  } catch (e) {
    const err = e as { code?: number; stdout?: string };
    return { code: err.code ?? -1, out: err.stdout ?? '' };
  }
}

describe('dbops-mcp doctor from the installed package', () => {
  it('passes in demo mode and fails with the fix for a broken set-up', { timeout: 180_000 }, async () => {
    // --ignore-scripts: pack the build the tests run against instead of rebuilding it.
    const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root);
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string }>;
    const env = await installGlobally(join(dir, info!.filename), dir);

    const demo = await doctor(env);
    expect(demo.out).toContain('✓ API key: the demo key is accepted');
    expect(demo.out).toMatch(/All \d+ checks passed\./);
    expect(demo.code).toBe(0);

    const misspelt = await doctor({ ...env, DBOPS_READONLY: 'true' }, ['--json']);
    const parsed = JSON.parse(misspelt.out) as {
      ok: boolean;
      checks: Array<{ step: string; ok: boolean; fix?: string; detail: string }>;
    };
    expect(parsed.ok).toBe(false);
    expect(parsed.checks.find((c) => !c.ok)?.detail).toContain('did you mean DBOPS_READ_ONLY');
    expect(misspelt.code).toBe(1);

    const noScheme = await doctor({ ...env, DBOPS_BASE_URL: 'ops.example.com:8080' });
    expect(noScheme.out).toContain('fix: Write it with its scheme: https://ops.example.com:8080');
    expect(noScheme.code).toBe(1);
  });
});
