// The server over its real transports: Streamable HTTP (Origin, Host, bearer token, limits) and stdio
// (the built CLI as a child process, stdout carrying only the protocol).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/config/index.js';
import { createIdentity } from '../../src/identity/index.js';
import { startHttp } from '../../src/mcp/http/index.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { startSimulator } from '../../src/simulator/index.js';
import { startTestHttp, startTestServer, type TestServer } from '../helpers/mcp.js';

const cli = new URL('../../dist/src/cli.js', import.meta.url).pathname;
type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let base: TestServer;

beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
  base = await startTestServer({ sim });
});
afterAll(async () => {
  await base.close();
  await sim.close();
});

async function http(token?: string) {
  return startTestHttp(base.deps, { token, allowedOrigins: ['https://app.example'] });
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** A POST with exact Host and Origin headers (fetch will not send a foreign Host). */
async function rawPost(origin: string, headers: Record<string, string>): Promise<number> {
  const { request } = await import('node:http');
  const u = new URL(origin);
  return new Promise<number>((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(initialize));
  });
}

describe('Streamable HTTP transport', () => {
  it('serves tools to the SDK client and answers /healthz', async () => {
    const h = await http();
    try {
      const client = new Client({ name: 'http-test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(h.url)));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('list_alert_configs');
      const r = await client.callTool({ name: 'list_alert_configs', arguments: {} });
      expect(r.isError).not.toBe(true);
      expect(h.sessions()).toBe(1);
      await client.close();
      const health = await fetch(`${h.origin}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it('refuses a foreign Origin and a foreign Host with 403, accepts allowed ones', async () => {
    const h = await http();
    try {
      expect((await post(h.url, initialize, { origin: 'https://evil.example' })).status).toBe(403);
      expect((await post(h.url, initialize, { origin: 'https://app.example' })).status).toBe(200);
      expect((await post(h.url, initialize, { origin: h.origin })).status).toBe(200);
      const sameOrigin = await rawPost(h.origin, {
        host: 'ops.example.internal:3000',
        origin: 'http://ops.example.internal:3000',
      });
      expect(sameOrigin).toBe(403); // on loopback a foreign Host is refused even when it matches the Origin
      const port = new URL(h.origin).port;
      const rebound = await new Promise<number>((resolve, reject) => {
        import('node:http').then(({ request }) => {
          const req = request(
            {
              host: '127.0.0.1',
              port,
              path: '/mcp',
              method: 'POST',
              headers: { host: `evil.example:${port}`, 'content-type': 'application/json' },
            },
            (res) => resolve(res.statusCode ?? 0),
          );
          req.on('error', reject);
          req.end(JSON.stringify(initialize));
        }, reject);
      });
      expect(rebound).toBe(403);
    } finally {
      await h.close();
    }
  });

  it('requires the bearer token when one is set, compared in constant time', async () => {
    const token = 'correct-horse-battery-staple';
    const h = await http(token);
    try {
      expect((await post(h.url, initialize)).status).toBe(401);
      expect((await post(h.url, initialize, { authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await post(h.url, initialize, { authorization: `Bearer ${token}` })).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it('beyond loopback, accepts its published origin and listed origins, not whatever the Host names', async () => {
    const token = 'correct-horse-battery-staple';
    const h = await startTestHttp(base.deps, {
      host: '0.0.0.0',
      token,
      allowedOrigins: ['https://ops.example.internal'],
    });
    try {
      const port = new URL(h.origin).port;
      const auth = { authorization: `Bearer ${token}` };
      const local = `http://127.0.0.1:${port}`;
      const post = (host: string, origin: string) => rawPost(local, { ...auth, host, origin });
      // The approval page's own form posts come from the published origin (this machine's name).
      expect(h.publicOrigin).toBe(`http://${hostname()}:${port}`);
      expect(await post(`${hostname()}:${port}`, h.publicOrigin)).toBe(200);
      expect(await post(`ops.example.internal:${port}`, 'https://ops.example.internal')).toBe(200);
      // A name that resolves here (DNS rebinding) matching its own Host is not enough.
      expect(await post(`ops.example.internal:${port}`, `http://ops.example.internal:${port}`)).toBe(403);
      expect(await post(`ops.example.internal:${port}`, 'http://evil.example')).toBe(403);
    } finally {
      await h.close();
    }
  });

  it('closes idle sessions; a request for a closed one gets 404, and a new initialize works', async () => {
    // The idle sweep's clock and interval are faked (requests still go over the real network).
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const h = await startHttp({
      host: '127.0.0.1',
      port: 0,
      allowedOrigins: [],
      sessionIdleMs: 1000,
      logger: base.deps.logger,
      identity: createIdentity({ oauthScopes: [] }, base.deps.logger),
      newServer: () => createMcpServer(base.deps),
    });
    try {
      const init = await post(h.url, initialize);
      const sessionId = init.headers.get('mcp-session-id')!;
      expect(h.sessions()).toBe(1);
      vi.advanceTimersByTime(900);
      expect(h.sessions()).toBe(1);
      vi.advanceTimersByTime(1600);
      expect(h.sessions()).toBe(0);
      // A closed session: 404 tells the client to initialize anew (served without its session it would
      // silently lose elicitation and subscriptions).
      const late = await post(
        h.url,
        { jsonrpc: '2.0', id: 2, method: 'ping' },
        { 'mcp-session-id': sessionId },
      );
      expect(late.status).toBe(404);
      expect(h.sessions()).toBe(0);
      expect((await post(h.url, initialize)).status).toBe(200);
      expect(h.sessions()).toBe(1);
    } finally {
      await h.close();
      vi.useRealTimers();
    }
  });

  it('refuses to bind beyond loopback without a token', async () => {
    await expect(
      startHttp({
        host: '0.0.0.0',
        port: 0,
        allowedOrigins: [],
        sessionIdleMs: 1000,
        logger: base.deps.logger,
        identity: createIdentity({ oauthScopes: [] }, base.deps.logger),
        newServer: () => createMcpServer(base.deps),
      }),
    ).rejects.toThrow(ConfigError);
  });

  it('answers malformed and oversized requests with errors and keeps serving', async () => {
    const h = await http();
    try {
      expect((await post(h.url, '{not json')).status).toBe(400);
      // A 2025 request without a session is served statelessly (replicas behind a plain load balancer).
      expect((await post(h.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(200);
      const huge = JSON.stringify({ ...initialize, pad: 'x'.repeat(2 << 20) });
      expect((await post(h.url, huge)).status).toBe(413);
      expect((await post(h.url, initialize, { 'mcp-session-id': 'nope' })).status).toBe(404);
      expect((await post(h.url, initialize)).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});

describe('stdio transport (built CLI)', () => {
  it('serves MCP on stdout and logs only to stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbops-stdio-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'serve'],
      env: {
        PATH: process.env.PATH ?? '',
        DBOPS_BASE_URL: sim.origin,
        DBOPS_PUBLIC_KEY: sim.keys.publicKey,
        DBOPS_PRIVATE_KEY: sim.keys.privateKey,
        DBOPS_PROJECT_ID: sim.projectIds[0]!,
        DBOPS_AUDIT_LOG: join(dir, 'audit.log'),
        DBOPS_SECRETS_DIR: join(dir, 'secrets'),
        DBOPS_LOG_LEVEL: 'debug',
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(3);
      const r = await client.callTool({ name: 'list_alert_configs', arguments: {} });
      expect(r.isError).not.toBe(true);
      expect((r.content as Array<{ text: string }>)[0]!.text).toContain('Alert configurations');
    } finally {
      await client.close();
    }
  });

  it('starts in demo mode with nothing configured and says so on stderr', async () => {
    const child = spawn(process.execPath, [cli, 'tools', '--json'], {
      env: { PATH: process.env.PATH ?? '' },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    await new Promise((r) => child.on('close', r));
    const tools = JSON.parse(out) as Array<{ name: string; kind: string }>;
    expect(tools.find((t) => t.name === 'set_alert_config_enabled')?.kind).toBe('destructive');
  });

  it('runs one tool through dbops-mcp call in demo mode, exit 1 on a tool error', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'dbops-call-'));
    const configId = sim.store.data.alertConfigs.find(
      (c) => c.enabled && c.groupId === sim.projectIds[0],
    )!.id;
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, [cli, 'call', ...args], {
          env: {
            PATH: process.env.PATH ?? '',
            DBOPS_AUDIT_LOG: join(stateDir, 'audit.log'),
          },
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => {
          out += d;
        });
        child.stderr.on('data', (d) => {
          err += d;
        });
        child.on('close', (code) => resolve({ code, out, err }));
      });
    const ok = await run(['list_alert_configs', '{}', '--demo']);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('Alert configurations');
    expect(ok.err).toContain('demo mode');
    const bad = await run(['get_alert_config', '{"alertConfigId":"ffffffffffffffffffffffff"}', '--demo']);
    expect(bad.code).toBe(1);
    // A guarded change: the first call prints a token, a second call (another process) redeems it once.
    const first = await run([
      'set_alert_config_enabled',
      `{"alertConfigId":"${configId}","enabled":false}`,
      '--demo',
    ]);
    expect(first.code).toBe(0);
    const token = /"confirmationToken`: "([^"]+)"|confirmationToken`: "([^"]+)"/.exec(first.out);
    const value = token?.[1] ?? token?.[2];
    expect(value, first.out).toBeDefined();
    const args = `{"alertConfigId":"${configId}","enabled":false,"confirmationToken":"${value}"}`;
    const second = await run(['set_alert_config_enabled', args, '--demo']);
    expect(second.code, second.err).toBe(0);
    expect(second.out).toContain('is now disabled');
    const badJson = await run(['get_alert_config', '{nope']);
    expect(badJson.code).toBe(2);
    expect(badJson.err).toContain('not valid JSON');
  }, 120_000); // five `call` processes in turn: seconds each on a busy machine

  it('keeps demo state between calls in the state directory; --demo-reset starts over', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'dbops-demo-state-'));
    const run = (args: string[]) =>
      runCli(['call', ...args], { DBOPS_AUDIT_LOG: join(stateDir, 'audit.log') });
    // The demo dataset is seeded: the simulator here holds the same window the CLI's demo does.
    const w = sim.store.data.maintenanceWindows.find(
      (x) =>
        x.groupId === sim.projectIds[0] &&
        Date.parse(x.startDate) <= Date.now() &&
        Date.parse(x.endDate) > Date.now(),
    )!;
    const id = `{"maintenanceWindowId":"${w.id}"}`;
    expect((await run(['get_maintenance_window', id, '--demo'])).code).toBe(0);
    const del = await run(['delete_maintenance_window', id, '--demo', '--yes']);
    expect(del.code, del.err).toBe(0);
    expect(del.out).toContain(`Maintenance window ${w.id} deleted`);
    // Over the command line the person is this machine's user, and --yes is their consent, on record as such.
    const audited = readFileSync(join(stateDir, 'audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.tool === 'delete_maintenance_window');
    expect(audited.map((e) => [e.outcome, e.channel])).toEqual([
      ['confirmed', '--yes'],
      ['executed', '--yes'],
    ]);
    for (const e of audited)
      expect(e).toMatchObject({
        requester: userInfo().username,
        approver: userInfo().username,
        client: 'dbops-mcp-call 1',
      });
    // Gone in the next process too: the delete really happened.
    const after = await run(['get_maintenance_window', id, '--demo']);
    expect(after.code).toBe(1);
    expect(after.err).toMatch(/MAINTENANCE_WINDOW_NOT_FOUND|not found/i);
    const reset = await run(['get_maintenance_window', id, '--demo', '--demo-reset']);
    expect(reset.code, reset.err).toBe(0);
    expect(reset.out).toContain(w.id);
  }, 120_000); // four `call` processes in turn

  it('keeps all ten of ten parallel demo writes (the state file is changed under an inter-process lock)', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'dbops-demo-parallel-'));
    const run = (args: string[]) =>
      runCli(['call', ...args], { DBOPS_AUDIT_LOG: join(stateDir, 'audit.log') });
    expect((await run(['list_projects', '{}', '--demo'])).code).toBe(0); // the state file exists
    const day = 24 * 3_600_000;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        run([
          'create_maintenance_window',
          JSON.stringify({
            startDate: new Date(Date.now() + (i + 2) * day).toISOString(),
            endDate: new Date(Date.now() + (i + 2) * day + 3_600_000).toISOString(),
            // AGENT: in the demo's first project it pages nobody, so the window is made at once (a HOST one asks).
            alertTypeNames: ['AGENT'],
            description: `parallel-${i}`,
          }),
          '--demo',
        ]),
      ),
    );
    for (const r of results) expect(r.code, r.err).toBe(0);
    const list = await run(['list_maintenance_windows', '{"itemsPerPage":100}', '--demo']);
    expect(list.code, list.err).toBe(0);
    for (let i = 0; i < 10; i++) expect(list.out, `parallel-${i}`).toContain(`parallel-${i}`);
  }, 180_000); // ten `call` processes at once

  it('exits quietly when the reader closes the pipe (dbops-mcp tools | head -1)', async () => {
    for (const args of [['tools'], ['call', 'list_alert_configs', '{}', '--demo']]) {
      const r = await runCli(args, {}, { closeStdout: true });
      expect(r.err, args.join(' ')).not.toMatch(/EPIPE|Unhandled|node:events/);
      expect(r.code, args.join(' ')).toBe(0);
    }
  });

  it('runs create_first_user with only DBOPS_BASE_URL set: that endpoint needs no key', async () => {
    const fresh = await startSimulator({ dataset: 'empty', port: 0 });
    const stateDir = mkdtempSync(join(tmpdir(), 'dbops-first-user-'));
    try {
      const env = {
        DBOPS_BASE_URL: fresh.baseUrl,
        DBOPS_AUDIT_LOG: join(stateDir, 'audit.log'),
        DBOPS_SECRETS_DIR: join(stateDir, 'secrets'),
        DBOPS_STATE_DIR: stateDir,
      };
      const args = JSON.stringify({
        username: 'admin@example.com',
        password: 'Correct-Horse-Battery-9',
        firstName: 'Ada',
        lastName: 'Admin',
      });
      // It grants GLOBAL_OWNER, so it asks first: --yes is the person's consent from this shell.
      const r = await runCli(['call', 'create_first_user', args, '--yes'], env);
      expect(r.code, r.err).toBe(0);
      expect(fresh.store.data.users.map((u) => u.username)).toEqual(['admin@example.com']);
      // Every other tool needs a key: said plainly, not a digest failure.
      const other = await runCli(['call', 'list_alert_configs', '{}'], env);
      expect(other.code).not.toBe(0);
      expect(other.err).toMatch(/DBOPS_PUBLIC_KEY/);
    } finally {
      await fresh.close();
    }
  });
});

/** Runs the built CLI; closeStdout closes the reading end at once, as `| head -1` does after one line. */
function runCli(
  args: string[],
  env: Record<string, string>,
  o: { closeStdout?: boolean } = {},
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
    let out = '';
    let err = '';
    if (o.closeStdout) child.stdout.destroy();
    else
      child.stdout.on('data', (d) => {
        out += d;
      });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => resolve({ code, out, err }));
  });
}
