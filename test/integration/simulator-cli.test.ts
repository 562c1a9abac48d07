// `dbops-mcp simulator` as a process (dist/ is built before the tests): flags, the JSON line, curl with
// digest against it, fault flags, and a clean exit on SIGTERM.

import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliSimulator, digestFetch, spawnCliSimulator } from '../helpers/sim.js';

const cli = new URL('../../dist/src/cli.js', import.meta.url).pathname;
const run = (...args: string[]) =>
  spawnSync(process.execPath, [cli, 'simulator', ...args], { encoding: 'utf8', timeout: 15_000 });

describe('simulator command line', () => {
  it('prints its options for --help', () => {
    const out = run('--help');
    expect(out.status).toBe(0);
    expect(out.stderr).toContain('--nonce-max-uses');
    expect(out.stdout).toBe('');
  });

  it.each([
    [['--prot', '1'], '--prot'],
    [['--port', 'abc'], '--port'],
    [['--error-rate', '2'], '--error-rate'],
    [['--error-statuses', '500,404'], '--error-statuses'],
    [['--dataset', 'big'], '--dataset'],
    [['--username-validation', 'maybe'], '--username-validation'],
    [['--latency-ms', '-5'], '--latency-ms'],
  ])('refuses %j with exit 2 naming the flag', (args, flag) => {
    const out = run(...args);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain(flag);
    expect(out.stdout).toBe('');
  });

  it('refuses a non-loopback host without --allow-remote', () => {
    const out = run('--host', '0.0.0.0');
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('--allow-remote');
  });
});

describe('a running simulator process', () => {
  let sim: CliSimulator;
  beforeAll(async () => {
    sim = await spawnCliSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('prints exactly one JSON line on stdout and the key in human form on stderr', () => {
    expect(sim.stdout().trim().split('\n')).toHaveLength(1);
    expect(sim.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/public\/v1\.0$/);
    expect(sim.keys.publicKey).not.toBe('');
    expect(sim.projectIds.length).toBeGreaterThan(0);
    expect(sim.stderr()).toContain(sim.keys.publicKey);
    expect(sim.stderr()).toContain(sim.baseUrl);
  });

  it('answers curl --digest with 200 JSON', (ctx) => {
    if (spawnSync('curl', ['--version']).error) {
      ctx.skip('curl is not installed: the curl --digest check is skipped');
    }
    const url = `${sim.baseUrl}/groups/${sim.projectIds[0]}/alertConfigs`;
    const out = spawnSync(
      'curl',
      [
        '-sS',
        '--max-time',
        '10',
        '--digest',
        '-u',
        `${sim.keys.publicKey}:${sim.keys.privateKey}`,
        '-w',
        '\n%{http_code} %{content_type}',
        url,
      ],
      { encoding: 'utf8', timeout: 15_000 },
    );
    expect(out.status).toBe(0);
    const lines = out.stdout.trimEnd().split('\n');
    const [status, type] = lines.pop()!.split(' ');
    expect(status).toBe('200');
    expect(type).toBe('application/json');
    const body = JSON.parse(lines.join('\n'));
    expect(body).toMatchObject({ results: expect.any(Array), totalCount: expect.any(Number) });
    // Wrong key: curl gives up after the second 401.
    const bad = spawnSync(
      'curl',
      [
        '-sS',
        '--max-time',
        '10',
        '--digest',
        '-u',
        `${sim.keys.publicKey}:wrong`,
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        url,
      ],
      { encoding: 'utf8', timeout: 15_000 },
    );
    expect(bad.stdout).toBe('401');
  });

  it('exits 0 on SIGTERM', async () => {
    expect(await sim.stop()).toBe(0);
  });
});

describe('fault flags', () => {
  it('injects the chosen errors and latency', async () => {
    const sim = await spawnCliSimulator([
      '--error-rate',
      '1',
      '--error-statuses',
      '429',
      '--latency-ms',
      '100',
    ]);
    try {
      const t0 = performance.now();
      const r = await digestFetch(sim, 'GET', `/groups/${sim.projectIds[0]}/alertConfigs`);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
      expect(r.status).toBe(429);
      expect(r.json.errorCode).toBe('RATE_LIMITED');
      expect(r.headers.get('retry-after')).toBe('1');
    } finally {
      expect(await sim.stop()).toBe(0);
    }
  });
});
