import { tmpdir } from 'node:os';
// Toolsets end to end: DBOPS_TOOLSETS lists the named sets; in dynamic mode a client starts with three small
// tools, enables a set and hears tools/list_changed — over stdio (both eras) and a 2025 session over HTTP; the
// sessionless 2026-07-28 era enables nothing (each request has the sets of DBOPS_TOOLSETS and its header);
// the X-MCP-Toolsets header narrows one client (an unknown name is refused, naming the valid ones, on every
// era); a tool outside the enabled sets answers which set holds it and how to enable it.
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog, everySet } from '../../tools/index.js';
import { settings, sleep, until } from '../helpers/eras.js';
import { startTestHttp, startTestServer, type TestServer } from '../helpers/mcp.js';

const DISCOVERY = ['list_toolsets', 'get_toolset_tools', 'enable_toolset', 'call_read_tool'];
/** A set's tools as the catalog says, with the tools every set carries or without. */
const setOf = (name: string, withEvery = false) =>
  catalog.filter((t) => t.toolset === name || (withEvery && everySet.includes(t.name))).map((t) => t.name);
const WINDOWS = setOf('windows');
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
      /\(get_project_event is in toolset events, not enabled: call it through call_read_tool, or enable_toolset \{"toolset":"events"\} first\)/,
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

  it('the sessionless era enables nothing: the next request lists what the first did, and no stream hears a change', async () => {
    const a = await v2('agent-a', { url: http.url });
    try {
      expect(a.era()).toBe('modern');
      await until('listen open', () => a.c.autoOpenedSubscription?.honoredFilter.toolsListChanged === true);
      const before = await a.names();
      const on = await a.call('enable_toolset', { toolset: 'events' });
      expect(on.isError, on.text).toBe(false);
      expect(on.structured).toMatchObject({ toolset: 'events', enabled: false });
      await sleep(300);
      expect(await a.names()).toEqual(before);
      expect(a.heard).toEqual([]);
      const r = await a.call('call_read_tool', { tool: 'list_project_events', arguments: '{}' });
      expect(r.isError, r.text).toBe(false);
    } finally {
      await a.c.close();
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
      expect(triage.sort()).toEqual(setOf('triage', true).sort());
      const hidden = await chat.call('list_hosts');
      expect(hidden.text).toMatch(
        /list_hosts is in the toolset "deployment", which is not enabled here; nothing was called\. To use it: this client sends X-MCP-Toolsets: triage,deployment, or the operator adds deployment to DBOPS_TOOLSETS \(now all\)\./,
      );
      const session = await old.call('list_hosts');
      expect(session.text).toMatch(/To use it: add deployment to the X-MCP-Toolsets header of this client\./);
      expect((await old.names()).sort()).toEqual([...setOf('triage', true), ...WINDOWS].sort());
      expect((await agent.names()).length).toBe(catalog.length);
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

describe('an unknown name in X-MCP-Toolsets, on every era', () => {
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
  // (A 2025 client shows the 400's body as JSON: its quotes escaped.)
  const refusal =
    /X-MCP-Toolsets: unknown toolset \\?"paging\\?" \(did you mean .*\); valid: triage, alerts, windows, events, deployment, access, integrations, all, dynamic/;
  const headers = { 'X-MCP-Toolsets': 'triage paging' };

  it('a 2025 client is refused at initialize, naming the valid ones', async () => {
    await expect(v1(http.url, headers)).rejects.toThrow(refusal);
  });

  for (const era of ['pinned', 'auto'] as const)
    it(`a 2026-07-28 client (${era}) connects and reads the refusal, not a failed negotiation`, async () => {
      const c = await v2(`bad-${era}`, { url: http.url, headers }, era);
      try {
        expect(c.era()).toBe('modern');
        await expect(c.names()).rejects.toThrow(refusal);
        await expect(c.call('list_projects')).rejects.toThrow(refusal);
      } finally {
        await c.c.close();
      }
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

describe('each toolset alone', () => {
  it('serves its tools over stdio, with or without a feed or an app to offer as a resource', async () => {
    // deployment reads nothing a feed serves and shows no app: a server with no resources still answers.
    const cli = new URL('../../dist/src/cli.js', import.meta.url).pathname;
    for (const set of [...new Set(catalog.map((t) => t.toolset))].filter((s) => s !== 'projects')) {
      const client = new V2Client({ name: 'sets', version: '1' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [cli, 'serve'],
          env: { PATH: process.env.PATH ?? '', DBOPS_TOOLSETS: set, HOME: tmpdir() },
          stderr: 'ignore',
        }),
      );
      try {
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names, set).toEqual(
          expect.arrayContaining(catalog.filter((t) => t.toolset === set).map((t) => t.name)),
        );
      } finally {
        await client.close();
      }
    }
  }, 120_000);
});
