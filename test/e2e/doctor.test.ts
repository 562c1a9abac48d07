// dbops-mcp doctor as an operator runs it: a real process, against the simulator and against each broken
// set-up the README's users met, each failure naming its real cause and fix. The installed command (dist/bin).
import { spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintNamedToken } from '../../src/identity/tokens.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { catalog, toolsets } from '../../tools/index.js';
import { hasOpenssl, selfSignedCert } from '../helpers/tls.js';

const cli = new URL('../../dist/bin/dbops-mcp.js', import.meta.url).pathname;
const isRoot = process.getuid?.() === 0;

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
    expect(r.out).toContain('✓ digest challenge: realm "MMS Public API"');
    expect(r.out).toMatch(/✓ server version: gitHash=\w+; versionString=[\d.]+/);
    expect(r.out).toMatch(/✓ clock: within \d+ s of the platform's/);
    expect(r.out).toMatch(/✓ API key: accepted; it sees \d+ project/);
    expect(r.out).toMatch(
      /✓ key roles: GLOBAL_OWNER \(every organization\), ORG_OWNER \(its organization\): the \d+ read tools work, and the \d+ change tools where these roles reach/,
    );
    expect(r.out).toContain('✓ state directory:');
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

  it('shows the toolsets listed, and fails an unknown one naming the valid ones', async () => {
    // The counts as the catalog has them: each set's own tools, and list_projects on top.
    const count = (set: string) => `${set} ${toolsets.find((s) => s.name === set)!.tools.length}`;
    const listed = ['triage', 'windows'].reduce(
      (n, s) => n + toolsets.find((x) => x.name === s)!.tools.length,
      1,
    );
    const some = await doctor({ DBOPS_TOOLSETS: 'triage,windows' });
    expect(some.out).toContain(
      `✓ toolsets: DBOPS_TOOLSETS=triage,windows: ${listed} of ${catalog.length} tools listed (${count('triage')}, ${count('windows')})`,
    );
    const dynamic = await doctor({ DBOPS_TOOLSETS: 'dynamic' });
    expect(dynamic.out).toContain(
      `✓ toolsets: DBOPS_TOOLSETS=dynamic: clients start with list_toolsets, get_toolset_tools, enable_toolset, call_read_tool and list_projects; each client reads by name or enables what it needs of ${catalog.length} tools (${toolsets.map((s) => count(s.name)).join(', ')})`,
    );
    const bad = await doctor({ DBOPS_TOOLSETS: 'paging' });
    expect(bad.out).toMatch(/✗ toolsets: DBOPS_TOOLSETS: unknown toolset "paging".*; valid: triage, alerts/);
    expect(bad.code).not.toBe(0);
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

  it('who asks over HTTP: an issuer that does not answer, a malformed tokens file, each with its fix', async () => {
    const issuer = await doctor({ ...platform(), DBOPS_OAUTH_ISSUER: 'http://127.0.0.1:1/realms/ops' }, [
      '--transport',
      'http',
      '--port',
      '0',
    ]);
    expect(issuer.out).toMatch(/✗ identity: cannot read the metadata of DBOPS_OAUTH_ISSUER/);
    expect(issuer.out).toContain('fix: Make DBOPS_OAUTH_ISSUER exactly the issuer');
    expect(issuer.code).toBe(1);
    const dir = mkdtempSync(join(tmpdir(), 'dbops-doctor-tokens-'));
    writeFileSync(join(dir, 'tokens'), 'priya plaintext\n');
    const file = await doctor({ ...platform(), DBOPS_HTTP_TOKENS_FILE: join(dir, 'tokens') }, [
      '--transport',
      'http',
      '--port',
      '0',
    ]);
    expect(file.out).toMatch(/✗ identity: .*line 1: expected "<name> sha256:<hash>"/);
    const ok = await doctor({ ...platform(), DBOPS_HTTP_TOKEN: 't'.repeat(24) }, [
      '--transport',
      'http',
      '--port',
      '0',
    ]);
    expect(ok.out).toContain('✓ identity: one person, the holder of DBOPS_HTTP_TOKEN');
  });

  it('four eyes where nobody can be told apart: says grants, keys and deletions will be refused, and the fix', async () => {
    const stdio = await doctor({ ...platform(), DBOPS_APPROVERS: 'bob' }, []);
    expect(stdio.out).toMatch(
      /✗ identity: stdio: this machine's user alone, and DBOPS_APPROVERS is set: the changes of DBOPS_FOUR_EYES \(grant, key/,
    );
    expect(stdio.out).toContain('fix: Give each person a token of their own');
    const one = await doctor({ ...platform(), DBOPS_APPROVERS: 'bob', DBOPS_HTTP_TOKEN: 't'.repeat(24) }, [
      '--transport',
      'http',
      '--port',
      '0',
    ]);
    expect(one.out).toMatch(
      /✗ identity: one person, the holder of DBOPS_HTTP_TOKEN, and DBOPS_APPROVERS is set/,
    );
    const dir = mkdtempSync(join(tmpdir(), 'dbops-doctor-four-eyes-'));
    writeFileSync(join(dir, 'tokens'), `${mintNamedToken('bob').line}\n`);
    const named = await doctor(
      { ...platform(), DBOPS_APPROVERS: 'bob', DBOPS_HTTP_TOKENS_FILE: join(dir, 'tokens') },
      ['--transport', 'http', '--port', '0'],
    );
    expect(named.out).toMatch(/✓ identity: named tokens from .*; four eyes: 1 approver\(s\)/);
    expect(named.out).toMatch(
      /window-long \(DBOPS_FOUR_EYES\), windows longer than 24 h \(DBOPS_LONG_WINDOW_HOURS\)/,
    );
  });

  it('several installations: checks each one, named, and says which fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbops-doctor-platforms-'));
    const file = join(dir, 'platforms.json');
    writeFileSync(
      file,
      JSON.stringify({
        default: 'prod',
        platforms: {
          prod: { baseUrl: sim.baseUrl, publicKey: sim.keys.publicKey, privateKey: sim.keys.privateKey },
          staging: { baseUrl: 'http://127.0.0.1:1', publicKey: 'k', privateKey: 'not-shown-anywhere' },
        },
      }),
    );
    const r = await doctor({ DBOPS_PLATFORMS: file, XDG_STATE_HOME: dir });
    expect(r.out).toMatch(/✓ prod: URL/);
    expect(r.out).toMatch(/✓ prod: API key/);
    expect(r.out).toMatch(/✗ staging: URL/);
    expect(r.out).not.toContain('not-shown-anywhere');
    expect(r.code).toBe(1);
  });

  it('an unreachable state store: says so', async () => {
    const r = await doctor({
      ...platform(),
      DBOPS_STATE_URL: 'redis://127.0.0.1:1',
      DBOPS_TOKEN_SECRET: 's'.repeat(32),
    });
    expect(r.out).toContain('✗ state store: Redis at 127.0.0.1:1 (DBOPS_STATE_URL) does not answer');
    expect(r.out).toContain('fix: Start Redis there, or correct DBOPS_STATE_URL');
    expect(r.code).toBe(1);
  });

  it('a key whose roles only read, with change tools offered: says they would be refused', async () => {
    const key = sim.store.fixtures?.readOnly;
    if (!key) throw new Error('the demo dataset has a read-only key');
    const env = { ...platform(), DBOPS_PUBLIC_KEY: key.publicKey, DBOPS_PRIVATE_KEY: key.privateKey };
    const r = await doctor(env);
    expect(r.out).toMatch(
      /✗ key roles: GROUP_READ_ONLY \(project payments-prod\), ORG_MEMBER \(its organization\) only read: the \d+ read tools work, and the platform would refuse all \d+ change tools/,
    );
    expect(r.out).toContain('fix: Set DBOPS_READ_ONLY=true');
    expect(r.code).toBe(1);
    // The same key with DBOPS_READ_ONLY: nothing offered that it cannot do.
    const ok = await doctor({ ...env, DBOPS_READ_ONLY: 'true' });
    expect(ok.out).toMatch(/✓ key roles: .*: the \d+ read tools offered all work/);
    expect(ok.code).toBe(0);
  });

  it('a key that writes on one project: says where its change tools work', async () => {
    const key = sim.store.fixtures?.monitoringAdmin;
    if (!key) throw new Error('the demo dataset has a monitoring-admin key');
    const r = await doctor({
      ...platform(),
      DBOPS_PUBLIC_KEY: key.publicKey,
      DBOPS_PRIVATE_KEY: key.privateKey,
    });
    expect(r.out).toMatch(
      /✓ key roles: GROUP_MONITORING_ADMIN \(project payments-prod\), ORG_MEMBER \(its organization\): the \d+ read tools work, and the \d+ change tools where GROUP_MONITORING_ADMIN \(project payments-prod\) reaches/,
    );
    expect(r.code).toBe(0);
  });

  it('an unwritable state directory: says so and names DBOPS_STATE_DIR', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'dbops-doctor-file-'));
    const file = join(parent, 'a-file');
    writeFileSync(file, '');
    // Beneath a regular file nothing can be created, whoever runs the test (root included).
    const r = await doctor({ ...platform(), DBOPS_STATE_DIR: join(file, 'state') });
    expect(r.out).toContain(`✗ state directory: ${join(file, 'state')} is not writable`);
    expect(r.out).toContain('fix: Point DBOPS_STATE_DIR at a directory this user can create and write');
    expect(r.code).toBe(1);
  });

  it.skipIf(!isRoot)(
    'a state directory of another user: says whose it is (needs root to chown)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dbops-doctor-foreign-'));
      chownSync(dir, 4242, 4242);
      const r = await doctor({ ...platform(), DBOPS_STATE_DIR: dir });
      expect(r.out).toContain(`✗ state directory: ${dir} belongs to another user (uid 4242)`);
      expect(r.out).toContain('DBOPS_STATE_DIR');
      expect(r.code).toBe(1);
    },
  );

  it('a state directory a running HTTP server holds: names it and DBOPS_STATE_URL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbops-doctor-held-'));
    const server = spawn(process.execPath, [cli, 'serve', '--transport', 'http', '--port', '0'], {
      env: { PATH: process.env.PATH, HOME: dir, ...platform(), DBOPS_STATE_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        server.stdout.on('data', (d) => {
          out += d;
          if (out.includes('Streamable HTTP at')) resolve();
        });
        server.once('exit', (code) => reject(new Error(`server exited (${code})`)));
      });
      const r = await doctor({ ...platform(), DBOPS_STATE_DIR: dir }, ['--transport', 'http', '--port', '0']);
      expect(r.out).toContain(
        `✗ state directory: ${dir} is held by a running dbops-mcp HTTP server (pid ${server.pid} on`,
      );
      expect(r.out).toContain('DBOPS_STATE_URL');
      expect(r.code).toBe(1);
      // A stdio server keeps its approvals to its own client: it may share the directory.
      const stdio = await doctor({ ...platform(), DBOPS_STATE_DIR: dir });
      expect(stdio.out).toContain(
        `✓ state directory: ${dir} is writable and ours (also used by the HTTP server`,
      );
    } finally {
      server.kill('SIGTERM');
    }
  });

  describe.skipIf(!hasOpenssl)('TLS (needs openssl to make a certificate)', () => {
    let port = 0;
    let certFile = '';
    let https: ReturnType<typeof createHttpsServer>;
    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dbops-doctor-tls-'));
      const made = selfSignedCert(dir);
      certFile = made.certFile;
      // Not the platform: a TLS server answering 200 to anything.
      https = createHttpsServer(
        { key: readFileSync(made.keyFile), cert: readFileSync(certFile) },
        (_req, res) => res.end('{}'),
      );
      await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
      port = (https.address() as AddressInfo).port;
    });
    afterAll(() => {
      https?.close();
    });

    it('an untrusted certificate: names DBOPS_CA_FILE; with it, the certificate passes', async () => {
      const env = { ...platform(), DBOPS_BASE_URL: `https://127.0.0.1:${port}` };
      const r = await doctor(env);
      expect(r.out).toMatch(/✗ URL and TLS: the TLS certificate of 127\.0\.0\.1:\d+ is not trusted/);
      expect(r.out).toContain('fix: Point DBOPS_CA_FILE at the CA bundle that signed it');
      expect(r.code).toBe(1);
      const trusted = await doctor({ ...env, DBOPS_CA_FILE: certFile });
      expect(trusted.out).toContain('✓ URL and TLS: https://127.0.0.1');
      // …and the next step finds that it is not the platform.
      expect(trusted.out).toContain('✗ digest challenge:');
      expect(trusted.code).toBe(1);
    });
  });
});
