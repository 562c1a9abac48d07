// What an operator watches: GET /metrics (Prometheus text) counts tool calls, platform requests and the read
// cache of the real server process; GET /readyz says whether the platform answers; beyond loopback both
// obey the bearer token of /mcp.
import { type ChildProcess, spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { serverEnv } from '../helpers/sim.js';

const bin = new URL('../../dist/bin/dbops-mcp.js', import.meta.url).pathname;
const TOKEN = 'metrics-test-token-0123456789';

let sim: Simulator;
let child: ChildProcess;
let origin: string;
let banner = '';

beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
  child = spawn(process.execPath, [bin, 'serve', '--transport', 'http', '--port', '0'], {
    // Every probe asks the platform here (the default keeps its answer 30 s), so a fault shows at once.
    env: { ...serverEnv(sim, 'dbops-metrics-'), DBOPS_HTTP_TOKEN: TOKEN, DBOPS_READY_KEEP_MS: '0' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  origin = await new Promise<string>((ok, fail) => {
    let out = '';
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}`)));
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      banner = out;
      const m = /(http:\/\/\S+)\/mcp/.exec(out);
      if (m && out.includes('Stop with Ctrl-C.')) ok(m[1] as string);
    });
  });
});
afterAll(async () => {
  child?.kill('SIGTERM');
  await sim?.close();
});

const auth = { authorization: `Bearer ${TOKEN}` };

describe('the start-up banner', () => {
  it('gives each client its own key: mcpServers for .mcp.json and Cursor, servers for VS Code', () => {
    const blocks = [...banner.matchAll(/\n(\{\n[\s\S]*?\n\})\n/g)].map((m) => JSON.parse(m[1] as string));
    expect(blocks.map((b) => Object.keys(b)[0])).toEqual(['mcpServers', 'servers']);
    expect(banner).toMatch(/For VS Code \(\.vscode\/mcp\.json\):\n\{\n {2}"servers"/);
    expect(blocks[1].servers.dbops.url).toBe(`${origin}/mcp`);
  });
});

describe('GET /metrics and /readyz', () => {
  it('count a tool call, its platform requests and its reads', async () => {
    const client = new Client({ name: 'metrics-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers: auth } }),
    );
    try {
      const r = await client.callTool({ name: 'list_alert_configs', arguments: {} });
      expect(r.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const res = await fetch(`${origin}/metrics`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/dbops_tool_calls_total\{tool="list_alert_configs",outcome="ok"\} 1/);
    expect(text).toMatch(
      /dbops_platform_requests_total\{platform="default",method="GET",status="200"\} [1-9]/,
    );
    expect(text).toMatch(/dbops_cache_requests_total\{result="miss"\} [1-9]/);
    expect(text).toMatch(/dbops_tool_call_duration_seconds_count\{tool="list_alert_configs"\} 1/);
    expect(text).toMatch(/dbops_http_sessions \d/);
  });

  it('refuses /metrics without the token, as /mcp does', async () => {
    expect((await fetch(`${origin}/metrics`)).status).toBe(401);
  });

  it('/readyz says the platform answers, and says which dependency does not', async () => {
    const ready = await fetch(`${origin}/readyz`, { headers: auth });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { platform: { ok: true } } });
    sim.setFaults({ errorRate: 1, errorStatuses: [500] });
    try {
      const down = await fetch(`${origin}/readyz`, { headers: auth });
      expect(down.status).toBe(503);
      const body = (await down.json()) as { checks: { platform: { ok: boolean; detail: string } } };
      expect(body.checks.platform.ok).toBe(false);
      expect(body.checks.platform.detail).toMatch(/500|UNEXPECTED_ERROR/);
    } finally {
      sim.setFaults({ errorRate: 0 });
    }
  });
});
