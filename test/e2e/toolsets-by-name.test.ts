// Reads by name in dynamic mode (call_read_tool): the way to a set's reads for a client that keeps the tools
// it listed first. It answers as the tool itself answers, validates against the tool's schema, and honours
// every setting that hides a tool — read-only, DBOPS_TOOLS, DBOPS_DISABLED_TOOLS, the client's X-MCP-Toolsets
// and the token's scope — each tried here; no change is reachable by name. On the sessionless 2026-07-28 era
// nothing a client enables is kept: a new conversation starts where every conversation starts.
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../src/catalog.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { maxKindOf } from '../../src/tool/index.js';
import { startTestHttp, startTestServer, type TestServer } from '../helpers/mcp.js';

type Json = Record<string, unknown>;
const textOf = (r: Json) => (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
const byName = (t: TestServer, tool: string, args: Json | string = {}) =>
  t.call('call_read_tool', { tool, arguments: typeof args === 'string' ? args : JSON.stringify(args) });
/** The platform requests that could change something. */
const changes = (t: TestServer) => {
  const m = t.sim.stats.snapshot().byMethod;
  return (m['POST'] ?? 0) + (m['PUT'] ?? 0) + (m['PATCH'] ?? 0) + (m['DELETE'] ?? 0);
};
const WRITES = catalog.filter((x) => maxKindOf(x) !== 'read').map((x) => x.name);

describe('call_read_tool on DBOPS_TOOLSETS=dynamic', () => {
  let t: TestServer;
  let all: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ config: { toolsets: 'dynamic' } });
    all = await startTestServer({ sim: t.sim });
  }, 60_000);
  afterAll(async () => {
    await all?.close();
    await t?.close();
  });

  it('is listed with the discovery tools, annotated read-only', async () => {
    const tools = (await t.client.listTools()).tools;
    const tool = tools.find((x) => x.name === 'call_read_tool');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tools.map((x) => x.name)).not.toContain('list_maintenance_windows');
  });

  it('answers as the tool answers: the same text and structured content', async () => {
    const direct = await all.call('get_alert_config', { alertConfigId: await firstConfig(all) });
    const named = await byName(t, 'get_alert_config', { alertConfigId: await firstConfig(all) });
    expect(named.isError, named.text).toBe(false);
    // The same answer; a Next: step naming a tool this client does not list says how to reach it.
    expect(named.text).toContain(
      '(list_open_alerts_for_config is in toolset alerts, not enabled: call it through call_read_tool, or enable_toolset {"toolset":"alerts"} first)',
    );
    const plain = (s: string) =>
      s.replace(/data-[0-9a-f]{8}/g, 'data-x').replace(/ \(\w+ is in toolset \w+, not enabled: [^)]*\)/g, '');
    expect(plain(named.text)).toBe(plain(direct.text));
    const { nextStep: _a, ...data } = named.structured ?? {};
    const { nextStep: _b, ...same } = direct.structured ?? {};
    expect(data).toEqual(same);
    // Its arguments may also come as an object (some clients send them so).
    const asObject = await t.call('call_read_tool', { tool: 'list_maintenance_windows', arguments: {} });
    expect(asObject.text).toMatch(/^# Maintenance windows/);
  });

  it("validates the arguments against that tool's schema, naming them; nothing is called", async () => {
    const before = t.sim.stats.snapshot().requests;
    const r = await byName(t, 'get_maintenance_window', { windowId: 'x' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(
      /^Input validation error: Invalid arguments for tool get_maintenance_window: maintenanceWindowId: .*Unrecognized key: "windowId".*Its arguments: projectId\? string: Id or name; maintenanceWindowId string/,
    );
    const notJson = await byName(t, 'list_hosts', '{projectId:');
    expect(notJson.text).toMatch(/^list_hosts: arguments must be a JSON object/);
    expect(t.sim.stats.snapshot().requests).toBe(before);
  });

  it('reaches no change: every write tool of the catalog is refused by name, and the platform sees no write', async () => {
    const before = changes(t);
    for (const name of WRITES) {
      const r = await byName(t, name, {});
      expect(r.isError, name).toBe(true);
      expect(r.text, name).toMatch(
        new RegExp(
          `^${name} changes something, and call_read_tool calls read tools only; nothing was called\\. To use it: call enable_toolset`,
        ),
      );
    }
    const unknown = await byName(t, 'drop_everything');
    expect(unknown.text).toMatch(/^No tool named "drop_everything"/);
    const self = await byName(t, 'call_read_tool', { tool: 'create_user' });
    expect(self.isError).toBe(true);
    expect(changes(t)).toBe(before);
  });

  it('a Next: step and a not-listed read say how to call it by name', async () => {
    const r = await t.call('list_maintenance_windows');
    expect(r.text).toMatch(
      /^list_maintenance_windows is in the toolset "windows", which is not enabled here; nothing was called\. To use it: call it through call_read_tool \{"tool":"list_maintenance_windows","arguments":"\{…\}"\} now, or call enable_toolset \{"toolset":"windows"\} first\.$/,
    );
  });
});

describe('call_read_tool honours every setting that hides a tool', () => {
  let t: TestServer | undefined;
  afterAll(async () => t?.close());
  const server = async (config: Json) => {
    await t?.close();
    t = await startTestServer({ config });
    return t;
  };

  it('DBOPS_READ_ONLY: writes stay hidden by name', async () => {
    const s = await server({ toolsets: 'dynamic', readOnly: true });
    const r = await byName(s, 'create_maintenance_window');
    expect(r.text).toMatch(/^create_maintenance_window is disabled on this server by DBOPS_READ_ONLY=true/);
    expect((await byName(s, 'list_maintenance_windows')).isError).toBe(false);
  });

  it('DBOPS_TOOLS and DBOPS_DISABLED_TOOLS: a read they hide is hidden by name too', async () => {
    const only = await server({ toolsets: 'dynamic', tools: 'read', disabledTools: 'list_hosts' });
    expect((await byName(only, 'list_hosts')).text).toMatch(
      /^list_hosts is disabled on this server by DBOPS_DISABLED_TOOLS/,
    );
    const some = await server({ toolsets: 'dynamic', tools: 'list_projects triage_project' });
    expect((await byName(some, 'list_project_events')).text).toMatch(
      /^list_project_events is disabled on this server by DBOPS_TOOLS/,
    );
    expect((await byName(some, 'triage_project')).isError).toBe(false);
  });

  it('DBOPS_TOOLSETS: a set the server does not offer is not reached by name', async () => {
    const s = await server({ toolsets: 'triage,windows' });
    const http = await startTestHttp(s.deps);
    const c = new V1Client({ name: 'header-dynamic', version: '1' });
    try {
      await c.connect(
        new V1Http(new URL(http.url), { requestInit: { headers: { 'X-MCP-Toolsets': 'dynamic triage' } } }),
      );
      const call = async (tool: string) =>
        textOf(await c.callTool({ name: 'call_read_tool', arguments: { tool, arguments: '{}' } }));
      expect(await call('list_project_events')).toMatch(
        /^list_project_events is in the toolset "events": this server does not offer it \(DBOPS_TOOLSETS=triage,windows\)/,
      );
      expect(await call('list_maintenance_windows')).toMatch(/^# Maintenance windows/);
    } finally {
      await c.close();
      await http.close();
    }
  });

  it('X-MCP-Toolsets without dynamic: this client has no call by name, and is told why', async () => {
    const s = await server({ toolsets: 'dynamic' });
    const http = await startTestHttp(s.deps);
    const c = new V1Client({ name: 'triage-only', version: '1' });
    try {
      await c.connect(
        new V1Http(new URL(http.url), { requestInit: { headers: { 'X-MCP-Toolsets': 'triage' } } }),
      );
      const names = (await c.listTools()).tools.map((x) => x.name);
      expect(names).not.toContain('call_read_tool');
      expect(names).toContain('triage_project');
      const r = await c.callTool({
        name: 'call_read_tool',
        arguments: { tool: 'list_maintenance_windows', arguments: '{}' },
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe(
        'call_read_tool is a tool of dynamic mode, which this client turned off: its X-MCP-Toolsets header does not name dynamic. Nothing was called.',
      );
    } finally {
      await c.close();
      await http.close();
    }
  });

  it("the token's scope: a read-only token reaches reads by name, never a change", async () => {
    const s = await server({ toolsets: 'dynamic', oauthScopes: 'dbops:read dbops:write' });
    const reader = createMcpServer({ ...s.deps, person: { id: 'reader', via: 'oauth', canWrite: false } });
    const c = new V1Client({ name: 'reader', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await reader.connect(b);
    await c.connect(a);
    try {
      const call = async (tool: string) =>
        textOf(await c.callTool({ name: 'call_read_tool', arguments: { tool, arguments: '{}' } }));
      expect(await call('delete_maintenance_window')).toMatch(
        /^delete_maintenance_window is disabled on this server by your access token, which lacks the "dbops:write" scope/,
      );
      expect(await call('list_maintenance_windows')).toMatch(/^# Maintenance windows/);
    } finally {
      await c.close();
      await reader.close();
    }
  });
});

describe('the 2026-07-28 era keeps no toolset choices', () => {
  let t: TestServer;
  let http: Awaited<ReturnType<typeof startTestHttp>>;
  beforeAll(async () => {
    t = await startTestServer({ config: { toolsets: 'dynamic' } });
    http = await startTestHttp(t.deps);
  }, 60_000);
  afterAll(async () => {
    await http?.close();
    await t?.close();
  });
  const conversation = async (name: string, headers: Record<string, string> = {}) => {
    const c = new V2Client({ name, version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await c.connect(new V2Http(new URL(http.url), { requestInit: { headers } }));
    return c;
  };
  const FIRST = ['list_toolsets', 'get_toolset_tools', 'enable_toolset', 'call_read_tool', 'list_projects'];

  it('enable_toolset answers with the reads by name and says changes come only by DBOPS_TOOLSETS or the header', async () => {
    const c = await conversation('agent');
    try {
      const on = await c.callTool({ name: 'enable_toolset', arguments: { toolset: 'windows' } });
      expect(on.isError).toBeFalsy();
      const text = textOf(on);
      expect(text).toMatch(
        /^Toolset windows is not added to your tools: here each request gets the tools of DBOPS_TOOLSETS and its X-MCP-Toolsets header, and nothing is kept between requests\. Its changes \(create_maintenance_window, update_maintenance_window, delete_maintenance_window\) come only through DBOPS_TOOLSETS or the X-MCP-Toolsets header: this client sends X-MCP-Toolsets: dynamic,windows, or the operator adds windows to DBOPS_TOOLSETS \(now dynamic\)\. Next: call_read_tool \{"tool":"list_maintenance_windows","arguments":"\{\}"\} for a read tool\./,
      );
      expect(text).toContain('  - maintenanceWindowId string: From list_maintenance_windows');
      // The tools it named work by name on the next request, with the tools this client already has.
      const r = await c.callTool({
        name: 'call_read_tool',
        arguments: { tool: 'list_maintenance_windows', arguments: '{}' },
      });
      expect(textOf(r)).toMatch(/^# Maintenance windows/);
      expect((await c.listTools()).tools.map((x) => x.name)).toEqual(FIRST);
    } finally {
      await c.close();
    }
  });

  it('nothing carries over between conversations, whatever the client calls itself (trust finding 6)', async () => {
    // One person, many client names, each enabling sets: nothing is kept for any of them.
    for (let i = 0; i < 20; i++) {
      const c = await conversation(`agent-${i}`);
      await c.callTool({ name: 'enable_toolset', arguments: { toolset: i % 2 ? 'events' : 'windows' } });
      await c.close();
    }
    const again = await conversation('agent-1');
    try {
      expect((await again.listTools()).tools.map((x) => x.name)).toEqual(FIRST);
    } finally {
      await again.close();
    }
  });

  it('the header lists a set for this request, on every request', async () => {
    const c = await conversation('with-windows', { 'X-MCP-Toolsets': 'dynamic windows' });
    try {
      const names = (await c.listTools()).tools.map((x) => x.name);
      expect(names).toEqual(expect.arrayContaining([...FIRST, 'create_maintenance_window']));
      const on = await c.callTool({ name: 'enable_toolset', arguments: { toolset: 'windows' } });
      expect(textOf(on)).toMatch(/^Toolset windows was already enabled/);
    } finally {
      await c.close();
    }
  });
});

async function firstConfig(t: TestServer): Promise<string> {
  const r = await t.call('list_alert_configs', { itemsPerPage: 5 });
  return ((r.structured?.['results'] as Json[]) ?? [])[0]?.['id'] as string;
}
