// What a configuration does not use is not loaded: over stdio with a real DBOPS_BASE_URL the installed command
// never loads the embedded simulator's code, a client that does not show MCP Apps never makes it read an
// app's HTML, the approval page (a consent channel by default) loads when a change first asks, not before, and
// the file lock only where a lock is taken. Each check has its counterpart (demo mode loads the simulator; reading ui:// reads the page),
// so the log it reads is known to see what it looks for.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startTestSimulator } from '../helpers/sim.js';

const bin = new URL('../../dist/bin/dbops-mcp.js', import.meta.url).pathname;
const hook = new URL('../fixtures/log-loads.mjs', import.meta.url).pathname;

/** Raw JSON-RPC lines to a spawned server: each request answered in turn. */
function rpc(child: ChildProcess) {
  let buf = '';
  let id = 0;
  const waiting = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const msg = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      waiting.get(msg.id)?.(msg);
    }
  });
  return {
    request(method: string, params: unknown = {}) {
      const n = ++id;
      child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`);
      return new Promise<{ result?: any; error?: unknown }>((r) => waiting.set(n, r));
    },
    notify(method: string) {
      child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
    },
  };
}

let sim: Simulator;
let dir: string;
beforeAll(async () => {
  sim = await startTestSimulator();
  dir = mkdtempSync(join(tmpdir(), 'dbops-loads-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `serve` with `env`, runs `session` over stdio, stops it; what it loaded and read, one per line. */
async function loadsOf(
  name: string,
  env: Record<string, string>,
  session: (c: ReturnType<typeof rpc>) => Promise<void>,
): Promise<string[]> {
  const log = join(dir, `${name}.log`);
  const child = spawn(process.execPath, ['--import', hook, bin, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      LOAD_LOG: log,
      DBOPS_STATE_DIR: join(dir, name, 'state'),
      DBOPS_AUDIT_LOG: join(dir, name, 'audit.log'),
      DBOPS_SECRETS_DIR: join(dir, name, 'secrets'),
      DBOPS_LOG_LEVEL: 'error',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  try {
    const c = rpc(child);
    const init = await c.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'loads', version: '1' },
    });
    expect(init.result).toBeDefined();
    c.notify('notifications/initialized');
    expect((await c.request('tools/list')).result.tools.length).toBeGreaterThan(0);
    await session(c);
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill();
    await exited;
  }
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const simulatorCode = (lines: string[]) => lines.filter((l) => /^load .*\/simulator[^/]*\.js$/.test(l));
const appPages = (lines: string[]) => lines.filter((l) => /^read .*\.html$/.test(l));
const approvalCode = (lines: string[]) => lines.filter((l) => /^load .*\/approval[^/]*\.js$/.test(l));
const lockCode = (lines: string[]) => lines.filter((l) => /^load .*\/proper-lockfile[^/]*\.js$/.test(l));

describe('start-up loads only what the configuration uses', () => {
  it('with a real DBOPS_BASE_URL: no simulator code; a client without MCP Apps: no app page read', async () => {
    const lines = await loadsOf(
      'real',
      {
        DBOPS_BASE_URL: sim.baseUrl,
        DBOPS_PUBLIC_KEY: sim.keys.publicKey,
        DBOPS_PRIVATE_KEY: sim.keys.privateKey,
        DBOPS_PROJECT_ID: sim.projectIds[0] ?? '',
      },
      async (c) => {
        const r = await c.request('tools/call', { name: 'triage_project', arguments: {} });
        expect(r.result.isError).toBeFalsy();
      },
    );
    expect(lines.some((l) => l.includes('/dist/bin/'))).toBe(true);
    expect(simulatorCode(lines)).toEqual([]);
    expect(appPages(lines)).toEqual([]);
    expect(approvalCode(lines)).toEqual([]);
    // The file lock is for HTTP's claim on the state directory and an audit log's rotation: a stdio start never takes it.
    expect(lockCode(lines)).toEqual([]);
  }, 60_000);

  it('the counterparts: demo mode loads the simulator (once the client is past its handshake: test/e2e/no-orphans), and reading an app reads its page', async () => {
    const lines = await loadsOf('demo', {}, async (c) => {
      const r = await c.request('resources/read', { uri: 'ui://dbops-mcp/incident-timeline' });
      expect(r.result.contents[0].mimeType).toContain('mcp-app');
      // A change asks a client without elicitation: the approval page is one of the ways offered.
      const configs = await c.request('tools/call', { name: 'list_alert_configs', arguments: {} });
      const alertConfigId = configs.result.structuredContent.results[0].id;
      const change = await c.request('tools/call', {
        name: 'set_alert_config_enabled',
        arguments: { alertConfigId, enabled: false },
      });
      expect(JSON.stringify(change.result)).toMatch(/http:\/\/127\.0\.0\.1:\d+\/approvals/);
    });
    expect(simulatorCode(lines).length).toBeGreaterThan(0);
    expect(appPages(lines)).toHaveLength(1);
    expect(approvalCode(lines).length).toBeGreaterThan(0);
    // The simulator locks its data file: the lock's chunk, seen loading.
    expect(lockCode(lines).length).toBeGreaterThan(0);
  }, 60_000);
});
