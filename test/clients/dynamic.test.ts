// Dynamic toolsets in the client matrix: each library hands its model the tools it listed at the start, and
// most never list again after enable_toolset. So the test keeps exactly those tools, calls enable_toolset
// through them, and checks that the model's next call — the one the answer tells it to make — succeeds with
// the same tools: AI SDK, LangChain and SDK v1 without autoRefresh over stdio and 2025 HTTP; SDK v1 with
// autoRefresh (it re-lists); and on the 2026-07-28 era over HTTP, an SDK v2 client that keeps its first list.
// What each library did is checked against the table of docs/toolsets.md, and tools/list bytes are printed.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/index.js';
import { silentLogger } from '../../src/log.js';
import { createRuntime } from '../../src/mcp/runtime.js';
import { startTestHttp } from '../helpers/mcp.js';

const cli = new URL('../../dist/bin/dbops-mcp.js', import.meta.url).pathname;
const TOKEN = 'dynamic-bearer-token-0123456789';
const FIRST = ['call_read_tool', 'enable_toolset', 'get_toolset_tools', 'list_projects', 'list_toolsets'];
type Json = Record<string, unknown>;
type Target = { stdio: { command: string; args: string[]; env: Record<string, string> } } | { url: string };

/** A library as its model sees it: the tools it was handed, and a call through them. */
interface Held {
  /** The tools the library hands its model now (for most, the list it made at the start). */
  tools(): string[];
  call(name: string, args: Json): Promise<string>;
  uncaught: unknown[];
  close(): Promise<unknown>;
}
interface Library {
  name: string;
  transports: Array<'stdio' | 'http'>;
  connect(t: Target): Promise<Held>;
}

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => {});
});
const headers = { Authorization: `Bearer ${TOKEN}` };
const textOf = (r: unknown) =>
  ((r as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');

function env(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'dbops-dynamic-'));
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([k, v]) => !k.startsWith('DBOPS_') && v !== undefined),
  ) as Record<string, string>;
  return {
    ...inherited,
    DBOPS_TOOLSETS: 'dynamic',
    DBOPS_CONFIRM_VIA: 'token',
    DBOPS_AUDIT_LOG: join(dir, 'audit.log'),
    DBOPS_SECRETS_DIR: join(dir, 'secrets'),
    XDG_STATE_HOME: dir,
  };
}

/** DBOPS_TOOLSETS=dynamic in demo mode: the command line a library starts, or an HTTP endpoint. */
async function target(transport: 'stdio' | 'http'): Promise<Target> {
  const e = env();
  if (transport === 'stdio') return { stdio: { command: process.execPath, args: [cli, 'serve'], env: e } };
  const runtime = await createRuntime(
    configSchema.parse({
      demo: true,
      transport: 'http',
      port: 0,
      toolsets: 'dynamic',
      confirmVia: 'token',
      auditLog: e['DBOPS_AUDIT_LOG'],
      secretsDir: e['DBOPS_SECRETS_DIR'],
    }),
    silentLogger,
  );
  closers.push(() => runtime.close());
  const http = await startTestHttp(runtime.deps, { logger: silentLogger, token: TOKEN });
  closers.push(() => http.close());
  return { url: http.url };
}

const aiSdk: Library = {
  name: 'AI SDK (@ai-sdk/mcp)',
  transports: ['stdio', 'http'],
  async connect(t) {
    const uncaught: unknown[] = [];
    const client = await createMCPClient({
      transport:
        'url' in t
          ? { type: 'http', url: t.url, headers }
          : new Experimental_StdioMCPTransport({ ...t.stdio, stderr: 'ignore' }),
      onUncaughtError: (e) => uncaught.push(e),
    });
    const tools = await client.tools();
    const opts = { toolCallId: 'call-1', messages: [] };
    return {
      tools: () => Object.keys(tools),
      call: async (name, args) => textOf(await tools[name]!.execute!(args, opts)),
      uncaught,
      close: () => client.close(),
    };
  },
};

const langchain: Library = {
  name: 'LangChain MCP adapters',
  transports: ['stdio', 'http'],
  async connect(t) {
    const client = new MultiServerMCPClient({
      mcpServers: {
        dbops:
          'url' in t
            ? { transport: 'http', url: t.url, headers, automaticSSEFallback: false }
            : { transport: 'stdio', ...t.stdio, stderr: 'ignore' },
      },
      throwOnLoadError: true,
    });
    const tools = await client.getTools();
    const byName = (n: string) => tools.find((x) => x.name === n || x.name.endsWith(`__${n}`))!;
    return {
      tools: () => tools.map((x) => x.name.replace(/^.*__/, '')),
      async call(name, args) {
        // An error answer is thrown as a ToolException, whose message an agent hands the model.
        const m = await byName(name)
          .invoke({ name, args, id: 'call-1', type: 'tool_call' })
          .catch((e: Error) => ({ content: e.message }));
        // The model is handed the content block as JSON (text, structured content beside it): its text is read.
        const content = (m as { content: unknown }).content;
        const blocks = typeof content === 'string' && content.startsWith('{') ? JSON.parse(content) : content;
        return typeof blocks === 'string' ? blocks : textOf({ content: [blocks].flat() });
      },
      uncaught: [],
      close: () => client.close(),
    };
  },
};

/** The MCP SDK's v1 client: the app keeps the list it made (or, with autoRefresh, the SDK refreshes it). */
function sdkV1(autoRefresh: boolean): Library {
  return {
    name: autoRefresh ? 'MCP SDK v1, listChanged autoRefresh' : 'MCP SDK v1, no autoRefresh',
    transports: ['stdio', 'http'],
    async connect(t) {
      let names: string[] = [];
      const c = new V1Client(
        { name: 'v1-agent', version: '1' },
        autoRefresh
          ? {
              listChanged: {
                tools: {
                  autoRefresh: true,
                  debounceMs: 0,
                  onChanged: (_e, l) => {
                    names = ids(l);
                  },
                },
              },
            }
          : {},
      );
      await c.connect(
        'url' in t
          ? new V1Http(new URL(t.url), { requestInit: { headers } })
          : new V1Stdio({ ...t.stdio, stderr: 'ignore' }),
      );
      names = ids((await c.listTools()).tools);
      return {
        tools: () => names,
        call: async (name, args) => textOf(await c.callTool({ name, arguments: args })),
        uncaught: [],
        close: () => c.close(),
      };
    },
  };
}
const ids = (l: Array<{ name: string }> | null | undefined) => (l ?? []).map((x) => x.name);

/** The MCP SDK's v2 client on the 2026-07-28 era over HTTP, keeping the list it made first. */
const sdkV2: Library = {
  name: 'MCP SDK v2, 2026-07-28 over HTTP',
  transports: ['http'],
  async connect(t) {
    const c = new V2Client(
      { name: 'v2-agent', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await c.connect(new V2Http(new URL((t as { url: string }).url), { requestInit: { headers } }));
    const names = ids((await c.listTools()).tools);
    return {
      tools: () => names,
      call: async (name, args) => textOf(await c.callTool({ name, arguments: args })),
      uncaught: [],
      close: () => c.close(),
    };
  },
};

const LIBRARIES = [aiSdk, langchain, sdkV1(false), sdkV1(true), sdkV2];
/** What each library did: whether the tools it hands its model changed after enable_toolset. */
const found = new Map<string, Set<'yes' | 'no'>>();
const shown: string[] = [];

for (const lib of LIBRARIES)
  for (const transport of lib.transports)
    describe(`${lib.name} over ${transport} on DBOPS_TOOLSETS=dynamic`, () => {
      it('keeps its first tools, enables a set, and the next call succeeds with the tools it has', async () => {
        const held = await lib.connect(await target(transport));
        closers.push(() => held.close());
        expect([...held.tools()].sort()).toEqual(FIRST);

        const on = await held.call('enable_toolset', { toolset: 'windows' });
        expect(on).toMatch(/call_read_tool \{"tool":"list_maintenance_windows","arguments":"\{\}"\}/);
        if (lib === sdkV2) expect(on).toMatch(/^Toolset windows is not added to your tools/);
        else expect(on).toMatch(/if your tools did not change, call_read_tool/);
        await new Promise((r) => setTimeout(r, 300));
        const relisted = held.tools().includes('list_maintenance_windows');
        found.set(lib.name, (found.get(lib.name) ?? new Set()).add(relisted ? 'yes' : 'no'));

        // The model's next call, as the answer says, with the tools it was handed.
        const next = await held.call('call_read_tool', {
          tool: 'list_maintenance_windows',
          arguments: '{}',
        });
        expect(next).toMatch(/# Maintenance windows of project/);
        expect(next.length).toBeLessThanOrEqual(12_100);
        const write = await held.call('call_read_tool', {
          tool: 'create_maintenance_window',
          arguments: '{}',
        });
        expect(write).toMatch(
          /create_maintenance_window changes something, and call_read_tool calls read tools only/,
        );
        // The AI SDK reports the tools/list_changed notification it does not handle, and goes on.
        const own = held.uncaught.map((e) => String((e as Error).message ?? e));
        expect(own, `${lib.name} reported errors of its own`).toEqual(
          lib === aiSdk ? ['Unsupported message type'] : [],
        );
        shown.push(
          `${lib.name} | ${transport} | re-lists: ${relisted ? 'yes' : 'no'} | next call by name: ok`,
        );
      }, 60_000);
    });

describe('tools/list in dynamic mode', () => {
  it('measures the bytes a 2025 session lists before and after enable_toolset', async () => {
    const t = (await target('http')) as { url: string };
    const c = new V1Client({ name: 'bytes', version: '1' });
    await c.connect(new V1Http(new URL(t.url), { requestInit: { headers } }));
    closers.push(() => c.close());
    const bytes = async () => Buffer.byteLength(JSON.stringify({ tools: (await c.listTools()).tools }));
    const before = await bytes();
    await c.callTool({ name: 'enable_toolset', arguments: { toolset: 'windows' } });
    const after = await bytes();
    expect(before).toBeLessThanOrEqual(4_000);
    expect(after).toBeGreaterThan(before);
    shown.push(`tools/list bytes in dynamic mode: ${before} before enable_toolset windows, ${after} after`);
  }, 60_000);
});

describe('docs/toolsets.md', () => {
  it('says for each library the matrix drives what the matrix found (re-lists or not)', () => {
    const doc = readFileSync(new URL('../../docs/toolsets.md', import.meta.url), 'utf8');
    const rows = new Map(
      doc
        .split('\n')
        .filter((l) => l.startsWith('| '))
        .map((l) => l.split('|').map((c) => c.trim()))
        .map((c) => [c[1]!, c.slice(2)] as const),
    );
    for (const lib of LIBRARIES) {
      const row = rows.get(lib.name);
      expect(row, `docs/toolsets.md has no row for ${lib.name}`).toBeDefined();
      const measured = [...(found.get(lib.name) ?? [])];
      expect(measured.length, `${lib.name}: one answer on every transport`).toBe(1);
      expect(row![0], `${lib.name}: how tried`).toContain('test/clients/dynamic.test.ts');
      expect(row![1]?.split(' ')[0], `${lib.name}: re-lists`).toBe(measured[0]);
    }
  });
});

afterAll(() => {
  console.log(`dynamic toolsets in each client:\n${shown.join('\n')}`);
});
