// dbops-mcp doctor as an operator runs it: a real process, against the simulator and against each broken
// set-up the README's users met, each failure naming its real cause and fix.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';

const cli = new URL('../../dist/src/cli.js', import.meta.url).pathname;

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
});
afterAll(async () => {
  await sim?.close();
});

/** Runs the doctor as a process (asynchronously: the simulator answers from this process). */
function doctor(env: Record<string, string>, args: string[] = []) {
  const home = mkdtempSync(join(tmpdir(), 'dbops-doctor-'));
  const child = spawn(process.execPath, [cli, 'doctor', ...args], {
    env: { PATH: process.env.PATH, HOME: home, XDG_STATE_HOME: join(home, 'state'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out, err })),
  );
}

const platform = () => ({
  DBOPS_BASE_URL: sim.baseUrl,
  DBOPS_PUBLIC_KEY: sim.keys.publicKey,
  DBOPS_PRIVATE_KEY: sim.keys.privateKey,
});

describe('dbops-mcp doctor', () => {
  it('passes against the platform, naming what it found', async () => {
    const r = await doctor(platform());
    expect(r.out).toContain('✓ digest challenge: MMS Public API');
    expect(r.out).toMatch(/✓ API key: accepted; it sees \d+ project/);
    expect(r.out).toMatch(/All \d+ checks passed\./);
    expect(r.code).toBe(0);
  });

  it('passes in demo mode, and prints JSON for scripts', async () => {
    const r = await doctor({}, ['--json']);
    const parsed = JSON.parse(r.out) as { ok: boolean; checks: Array<{ step: string; ok: boolean }> };
    expect(parsed.ok).toBe(true);
    expect(parsed.checks.map((c) => c.step)).toContain('API key');
    expect(r.code).toBe(0);
  });

  it('a URL without a scheme: says to add one', async () => {
    const host = new URL(sim.baseUrl).host;
    const r = await doctor({ ...platform(), DBOPS_BASE_URL: host });
    expect(r.out).toContain(`fix: Write it with its scheme: https://${host} (or http://${host})`);
    expect(r.code).toBe(1);
  });

  it('https against a plain-http port: says the port speaks HTTP, not to set a CA file', async () => {
    const r = await doctor({ ...platform(), DBOPS_BASE_URL: sim.baseUrl.replace('http://', 'https://') });
    expect(r.out).toContain('answers plain HTTP, not TLS');
    expect(r.out).toContain('fix: Use http://');
    expect(r.out).not.toContain('DBOPS_CA_FILE');
    expect(r.code).toBe(1);
  });

  it('a wrong key: says the platform refused it', async () => {
    const r = await doctor({ ...platform(), DBOPS_PRIVATE_KEY: 'wrong-wrong-wrong' });
    expect(r.out).toContain('✗ API key: the platform refused the key (401)');
    expect(r.code).toBe(1);
  });

  it('a misspelt setting: names the real one', async () => {
    const r = await doctor({ ...platform(), DBOPS_READONLY: 'true' });
    expect(r.out).toContain(
      '✗ settings: DBOPS_READONLY is not a setting and is ignored; did you mean DBOPS_READ_ONLY',
    );
    expect(r.code).toBe(1);
  });

  it('a refused value: lists the accepted ones', async () => {
    const r = await doctor({ ...platform(), DBOPS_READ_ONLY: 'maybe' });
    expect(r.out).toMatch(/✗ settings: .*must be true or false/);
    expect(r.code).toBe(1);
  });

  it('a taken HTTP port: says so and names --port', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const r = await doctor(platform(), ['--transport', 'http', '--port', String(port)]);
      expect(r.out).toContain(`✗ HTTP port: 127.0.0.1:${port} is taken by another process`);
      expect(r.out).toContain('--port');
      expect(r.code).toBe(1);
    } finally {
      taken.close();
    }
  });

  it('an unreachable state store: says so', async () => {
    const r = await doctor({
      ...platform(),
      DBOPS_STATE_URL: 'redis://127.0.0.1:1',
      DBOPS_TOKEN_SECRET: 's'.repeat(32),
    });
    expect(r.out).toMatch(/✗ (state store|platform): /);
    expect(r.code).toBe(1);
  });
});
