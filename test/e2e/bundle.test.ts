// The installed command is the bundle of scripts/bundle.mjs (start-up reads a few files instead of ~300
// modules; docs/performance.md). It must load the SDK and zod from itself, and answer exactly like the
// unbundled build under both transports.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { serverEnv } from '../helpers/sim.js';

const root = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
const bin = join(root, pkg.bin['dbops-mcp']!);
const unbundled = join(root, 'dist/src/cli.js');
type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;

beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
});
afterAll(async () => {
  await sim.close();
});

const env = () => serverEnv(sim, 'dbops-bundle-');

/**
 * Every bare specifier the file imports (static import/export lines, and import() calls outside comments),
 * following its relative imports.
 */
function bareImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const src = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
    const imports =
      /^(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']|^import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;
    for (const m of src.matchAll(imports)) {
      const spec = (m[1] ?? m[2] ?? m[3])!;
      if (spec.startsWith('.')) {
        if (spec.endsWith('.js')) visit(resolve(dirname(file), spec));
      } else bare.add(spec);
    }
  };
  visit(entry);
  return bare;
}

/** What a session sees: the tool list, and the structured answers of two read tools. */
async function session(client: Client) {
  const { tools } = await client.listTools();
  const configs = await client.callTool({ name: 'list_alert_configs', arguments: {} });
  const triage = await client.callTool({ name: 'triage_project', arguments: { sinceHours: 24 } });
  expect(configs.isError).toBeFalsy();
  expect(triage.isError).toBeFalsy();
  const { window: _clock, ...triageRest } = triage.structuredContent as Record<string, unknown>;
  return { tools, configs: configs.structuredContent, triage: triageRest };
}

async function overStdio(cli: string) {
  const client = new Client({ name: 'bundle-test', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'serve'],
      env: env(),
      stderr: 'ignore',
    }),
  );
  try {
    return await session(client);
  } finally {
    await client.close();
  }
}

async function overHttp(cli: string) {
  const child = spawn(process.execPath, [cli, 'serve', '--transport', 'http', '--port', '0'], {
    env: env(),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const url = await new Promise<string>((ok, fail) => {
      let out = '';
      child.once('exit', (code) => fail(new Error(`serve exited with ${code}`)));
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const m = /http:\/\/\S+\/mcp/.exec(out);
        if (m) ok(m[0]);
      });
    });
    const client = new Client({ name: 'bundle-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      return await session(client);
    } finally {
      await client.close();
    }
  } finally {
    child.kill('SIGTERM');
  }
}

describe('the installed command (bundle)', () => {
  it('is a bundle under dist/bin that imports only node built-ins, undici and the Redis client', () => {
    expect(pkg.bin['dbops-mcp']).toMatch(/^dist\/bin\//);
    const outside = [...bareImports(bin)].filter(
      (s) => !s.startsWith('node:') && !/^(undici|@redis\/client)(\/|$)/.test(s),
    );
    expect(outside).toEqual([]);
  });

  it('answers tools/list and tool calls over stdio exactly like the unbundled build', async () => {
    const [a, b] = await Promise.all([overStdio(bin), overStdio(unbundled)]);
    expect(a.tools.length).toBeGreaterThan(30);
    expect(a).toEqual(b);
  });

  it('answers over Streamable HTTP exactly like the unbundled build', async () => {
    const [a, b] = await Promise.all([overHttp(bin), overHttp(unbundled)]);
    expect(a).toEqual(b);
  });
});
