// Toolsets end to end: DBOPS_TOOLSETS lists the named sets; in dynamic mode a client starts with three small
// tools, enables a set and hears tools/list_changed — over stdio (both eras) and over HTTP (a 2025 session,
// and the sessionless 2026-07-28 era, where the set is kept per person and client name and announced on that
// client's listen stream only); the X-MCP-Toolsets header narrows one client (400 on an unknown name); a tool
// outside the enabled sets answers which set holds it and how to enable it.
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings, until } from '../helpers/eras.js';
import { startTestHttp, startTestServer, type TestServer } from '../helpers/mcp.js';

const DISCOVERY = ['list_toolsets', 'get_toolset_tools', 'enable_toolset'];
const WINDOWS = [
  'list_maintenance_windows',
  'get_maintenance_window',
  'create_maintenance_window',
  'update_maintenance_window',
  'delete_maintenance_window',
];
const textOf = (r: Record<string, unknown>) =>
  (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');

/** A v2 client (pinned to 2026-07-28, or `auto`) that records every tools/list it is told changed. */
async function v2(
  name: string,
  where: { url?: string; headers?: Record<string, string>; env?: Record<string, string> },
  era: 'pinned' | 'auto' = 'pinned',
) {
  const heard: string[][] = [];
  const c = new V2Client(
    { name, version: '1' },
    {
      versionNegotiation: { mode: era === 'pinned' ? { pin: '2026-07-28' } : 'auto' },
      listChanged: {
        tools: {
          onChanged: (error, tools) => {
            if (!error) heard.push((tools ?? []).map((t) => t.name));
          },
        },
      },
    },
  );
  await c.connect(
    where.url
      ? new V2Http(new URL(where.url), { requestInit: { headers: where.headers ?? {} } })
      : new StdioClientTransport({
          command: process.execPath,
          args: ['dist/bin/dbops-mcp.js', 'serve'],
          env: { ...process.env, ...where.env } as Record<string, string>,
          stderr: 'ignore',
        }),
  );
  const names = async () => (await c.listTools()).tools.map((t) => t.name);
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const r = await c.callTool({ name: tool, arguments: args });
    return { text: textOf(r), isError: r.isError === true, structured: r.structuredContent };
  };
  return { c, heard, names, call, era: () => c.getProtocolEra() };
}

/** A 2025 (v1 SDK) client over HTTP that counts tools/list_changed on its session. */
async function v1(url: string, headers: Record<string, string> = {}) {
  const c = new V1Client({ name: 'v1-client', version: '1' });
  let changed = 0;
  c.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    changed++;
  });
  await c.connect(new V1Http(new URL(url), { requestInit: { headers } }));
  return {
    c,
    changed: () => changed,
    names: async () => (await c.listTools()).tools.map((t) => t.name),
    call: async (tool: string, args: Record<string, unknown> = {}) => {
      const r = await c.callTool({ name: tool, arguments: args });
      return { text: textOf(r), isError: r.isError === true };
    },
  };
}

describe('DBOPS_TOOLSETS and dynamic discovery over HTTP', () => {
  let t: TestServer;
  let http: Awaited<ReturnType<typeof startTestHttp>>;
  beforeAll(async () => {
    t = await startTestServer({ config: { toolsets: 'dynamic,triage' } });
    http = await startTestHttp(t.deps);
  }, 60_000);
  afterAll(async () => {
    await http?.close();
    await t?.close();
  });

  it('starts with the discovery tools, list_projects and the starting set; a hidden tool says how to enable it', async () => {
    const names = await (await t.client.listTools()).tools.map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining([...DISCOVERY, 'list_projects', 'triage_project']));
    expect(names).not.toContain('list_maintenance_windows');
    const list = await t.call('list_toolsets');
    expect(list.text).toMatch(/\| triage \| 8 \| yes \|/);
    expect(list.text).toMatch(/\| windows \| 6 \| no \|/);
    const hidden = await t.call('create_maintenance_window', { whatever: 1 });
    expect(hidden.isError).toBe(true);
    expect(hidden.text).toBe(
      'create_maintenance_window is in the toolset "windows", which is not enabled here; nothing was called. To use it: call enable_toolset {"toolset":"windows"} first.',
    );
    const bad = await t.call('enable_toolset', { toolset: 'widnows' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(
      /No toolset named "widnows" here; valid: triage, alerts, windows, events, deployment, access, integrations/,
    );
    const shown = await t.call('get_toolset_tools', { toolset: 'windows' });
    expect(shown.text).toMatch(/# Toolset windows — 6 tools \(not enabled\)/);
  });

  it('says which toolset holds a Next: step outside the enabled sets', async () => {
    const r = await t.call('triage_project');
    expect(r.isError, r.text).toBe(false);
    const next = r.text.split('\n').filter((l) => l.startsWith('Next: '));
    expect(next.length).toBeGreaterThan(0);
    const line = next.find((l) => l.includes('get_project_event'));
    expect(line).toMatch(
      /\(get_project_event is in toolset events, not enabled: enable_toolset \{"toolset":"events"\} first\)/,
    );
    // A tool of an enabled set (triage) gets no note.
    expect(line).not.toMatch(/get_alert_config is in toolset/);
  });

  it('a 2025 session enables a set, hears tools/list_changed, and calls a tool in it; twice is harmless', async () => {
    const c = await v1(http.url);
    try {
      expect(await c.names()).not.toContain('list_maintenance_windows');
      const on = await c.call('enable_toolset', { toolset: 'windows' });
      expect(on.text).toMatch(/^Enabled toolset windows: list_projects, list_maintenance_windows/);
      await until('tools/list_changed', () => c.changed() > 0);
      expect(await c.names()).toEqual(expect.arrayContaining(WINDOWS));
      const again = await c.call('enable_toolset', { toolset: 'windows' });
      expect(again.text).toMatch(/^Toolset windows was already enabled/);
      const r = await c.call('list_maintenance_windows');
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toMatch(/^# Maintenance windows/);
      // One announcement per enabling, not one per tool swapped in.
      expect(c.changed()).toBe(1);
    } finally {
      await c.c.close();
    }
  });

  it("the sessionless era keeps the set per person and client name, announced on that client's listen stream only", async () => {
    const a = await v2('agent-a', { url: http.url });
    const b = await v2('chat-b', { url: http.url });
    try {
      expect(a.era()).toBe('modern');
      const listening = (x: typeof a) => x.c.autoOpenedSubscription?.honoredFilter.toolsListChanged === true;
      await until('both listen streams open', () => listening(a) && listening(b));
      expect(await a.names()).not.toContain('list_project_events');
      const on = await a.call('enable_toolset', { toolset: 'events' });
      expect(on.isError, on.text).toBe(false);
      await until('tools/list_changed on a', () => a.heard.some((l) => l.includes('list_project_events')));
      expect(await a.names()).toEqual(expect.arrayContaining(['list_project_events', 'get_project_event']));
      const r = await a.call('list_project_events');
      expect(r.isError, r.text).toBe(false);
      // Another client of the same person: its own set, and no announcement. b's own change is announced on
      // b's stream after a's was (if a's reached b at all), so once b hears its own, a's would have been heard.
      expect(await b.names()).not.toContain('list_project_events');
      await b.call('enable_toolset', { toolset: 'windows' });
      await until('tools/list_changed on b, for its own change', () => b.heard.length > 0);
      expect(b.heard).toHaveLength(1);
      expect(b.heard[0]).toEqual(expect.arrayContaining(['list_maintenance_windows']));
      expect(b.heard[0]).not.toContain('list_project_events');
    } finally {
      await a.c.close();
      await b.c.close();
    }
  });
});

describe('the X-MCP-Toolsets header', () => {
  let t: TestServer;
  let http: Awaited<ReturnType<typeof startTestHttp>>;
  beforeAll(async () => {
    t = await startTestServer();
    http = await startTestHttp(t.deps);
  }, 60_000);
  afterAll(async () => {
    await http?.close();
    await t?.close();
  });

  it('narrows one client on either era while another sees everything', async () => {
    const chat = await v2('chat', { url: http.url, headers: { 'X-MCP-Toolsets': 'triage' } });
    const old = await v1(http.url, { 'X-MCP-Toolsets': 'triage,windows' });
    const agent = await v2('agent', { url: http.url });
    try {
      const triage = await chat.names();
      expect(triage.sort()).toEqual(
        [
          'triage_project',
          'triage_installation',
          'list_open_alerts',
          'list_projects',
          'get_alert_config',
          'acknowledge_alert',
          'get_automation_status',
          'list_agents',
        ].sort(),
      );
      const hidden = await chat.call('list_hosts');
      expect(hidden.text).toMatch(
        /list_hosts is in the toolset "deployment", which is not enabled here; nothing was called\. To use it: add deployment to the X-MCP-Toolsets header of this client\./,
      );
      expect((await old.names()).length).toBe(13);
      expect((await agent.names()).length).toBe(35);
    } finally {
      await chat.c.close();
      await old.c.close();
      await agent.c.close();
    }
  });

  it('answers an unknown name with 400 and the valid ones', async () => {
    const r = await fetch(http.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-mcp-toolsets': 'triage,paging',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(
      /^X-MCP-Toolsets: unknown toolset "paging".*; valid: triage, alerts, windows, events, deployment, access, integrations, all, dynamic$/,
    );
  });
});

describe('dynamic discovery over stdio (built CLI), both eras', () => {
  const env = Object.fromEntries(
    Object.entries(settings({ toolsets: 'dynamic' })).map(([k, v]) => [
      `DBOPS_${k.replace(/[A-Z]/g, (x) => `_${x}`).toUpperCase()}`,
      String(v),
    ]),
  );
  for (const era of ['pinned', 'auto'] as const)
    it(`enables a set and hears tools/list_changed (${era})`, async () => {
      const c = await v2(`stdio-${era}`, { env }, era);
      try {
        expect((await c.names()).sort()).toEqual([...DISCOVERY, 'list_projects'].sort());
        if (c.era() === 'modern')
          await until(
            'listen open',
            () => c.c.autoOpenedSubscription?.honoredFilter.toolsListChanged === true,
          );
        const on = await c.call('enable_toolset', { toolset: 'windows' });
        expect(on.isError, on.text).toBe(false);
        await until('tools/list_changed', () => c.heard.some((l) => l.includes('list_maintenance_windows')));
        const r = await c.call('list_maintenance_windows');
        expect(r.isError, r.text).toBe(false);
      } finally {
        await c.c.close();
      }
    }, 30_000);
});
