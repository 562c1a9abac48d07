// The snapshot file: atomic saves, restarts that keep changes, and a simulator killed with SIGKILL in the
// middle of a stream of writes losing nothing it had answered 2xx.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshot, saveSnapshot } from '../../src/simulator/persistence.js';
import { Store } from '../../src/simulator/store.js';
import { digestFetch, spawnCliSimulator, startTestSimulator, type Target } from '../helpers/sim.js';

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

const windowBody = (description: string) => ({
  startDate: new Date(Date.now() + 86_400_000).toISOString(),
  endDate: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  alertTypeNames: ['HOST'],
  description,
});

async function createWindow(sim: Target, projectId: string, description: string) {
  return digestFetch(sim, 'POST', `/groups/${projectId}/maintenanceWindows`, {
    body: windowBody(description),
  });
}

describe('data file', () => {
  it('is written at start and keeps a change across a restart', async () => {
    const file = join(dir, 'restart.json');
    const first = await startTestSimulator({ dataFile: file });
    const projectId = first.projectIds[0]!;
    let windowId: string;
    try {
      expect(existsSync(file)).toBe(true);
      const r = await createWindow(first, projectId, 'kept across restart');
      expect(r.status).toBeGreaterThanOrEqual(200);
      expect(r.status).toBeLessThan(300);
      windowId = r.json.id;
    } finally {
      await first.close();
    }
    const second = await startTestSimulator({ dataFile: file });
    try {
      expect(second.keys).toEqual(first.keys);
      const r = await digestFetch(second, 'GET', `/groups/${projectId}/maintenanceWindows/${windowId}`);
      expect(r.status).toBe(200);
      expect(r.json.description).toBe('kept across restart');
    } finally {
      await second.close();
    }
  });

  it('refuses to start from a corrupt file and leaves it alone', async () => {
    const file = join(dir, 'corrupt.json');
    writeFileSync(file, '{"version":1,');
    await expect(startTestSimulator({ dataFile: file })).rejects.toThrow(/corrupt\.json is not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{"version":1,');
  });

  it('loses no answered write when the process is killed with SIGKILL mid-stream', async () => {
    const file = join(dir, 'killed.json');
    const sim = await spawnCliSimulator(['--data', file]);
    const projectId = sim.projectIds[0]!;
    const answered: string[] = [];
    let stop = false;
    let writerError: unknown;
    // Four writers in parallel, each sending one write after the other until the process dies.
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const r = await createWindow(sim, projectId, `kill-test ${w}-${i}`);
          if (r.status < 200 || r.status > 299) throw new Error(`unexpected ${r.status} ${r.text}`);
          answered.push(r.json.id);
        } catch (error) {
          // After the kill, requests in flight fail: they were never answered.
          if (!stop) writerError ??= error;
          stop = true;
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    const killAt = 30 + Math.floor(Math.random() * 30);
    while (answered.length < killAt && !stop) await new Promise((r) => setTimeout(r, 2));
    if (writerError) throw writerError;
    stop = true;
    sim.child.kill('SIGKILL');
    await Promise.all(writers);
    expect(sim.child.signalCode ?? (await new Promise((r) => sim.child.once('exit', (_c, s) => r(s))))).toBe(
      'SIGKILL',
    );

    const text = readFileSync(file, 'utf8');
    const data = JSON.parse(text);
    const store = Store.fromSnapshot(data, () => new Date());
    const ids = new Set(store.snapshot().maintenanceWindows.map((w) => w.id));
    for (const id of answered) expect(ids.has(id), `window ${id} answered 2xx but missing`).toBe(true);
    expect(answered.length).toBeGreaterThanOrEqual(killAt);

    // And a simulator restarted from the file serves them.
    const again = await startTestSimulator({ dataFile: file });
    try {
      const r = await digestFetch(again, 'GET', `/groups/${projectId}/maintenanceWindows/${answered.at(-1)}`);
      expect(r.status).toBe(200);
    } finally {
      await again.close();
    }
  });
});
