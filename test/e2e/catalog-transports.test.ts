// Every tool's happy path over both real transports: the built CLI under stdio, and `serve --transport http`
// as a child process with the SDK's Streamable HTTP client, each talking digest to one simulator.
import { type ChildProcess, spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { exampleOf } from '../../src/tool/index.js';
import { catalog } from '../../tools/index.js';
import { serverEnv } from '../helpers/sim.js';

const cli = new URL('../../dist/src/cli.js', import.meta.url).pathname;
type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;

// A fresh demo world per transport: each run creates, changes and deletes what the examples name.
beforeEach(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
});
afterEach(async () => {
  await sim.close();
});

const env = () => serverEnv(sim, 'dbops-catalog-');

/** Every tool called with its example (the definition's), in catalog order. */
async function exerciseEveryTool(client: Client) {
  const listed = (await client.listTools()).tools.map((t) => t.name).sort();
  expect(listed).toEqual(catalog.map((t) => t.name).sort());
  const failures: string[] = [];
  for (const tool of catalog) {
    const r = await client.callTool({ name: tool.name, arguments: exampleOf(tool) });
    const text = (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
    if (r.isError || !r.structuredContent || text.length === 0)
      failures.push(`${tool.name}: ${text.slice(0, 300)}`);
  }
  expect(failures).toEqual([]);
}

describe('every tool over the real transports', () => {
  it('stdio', async () => {
    const client = new Client({ name: 'catalog-stdio', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, 'serve'],
        env: env(),
        stderr: 'pipe',
      }),
    );
    try {
      await exerciseEveryTool(client);
    } finally {
      await client.close();
    }
  });

  it('Streamable HTTP', async () => {
    const child: ChildProcess = spawn(
      process.execPath,
      [cli, 'serve', '--transport', 'http', '--port', '0'],
      { env: env() },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout?.on('data', (d) => {
          out += d;
          const m = /at (http:\/\/\S+\/mcp)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
      });
      const client = new Client({ name: 'catalog-http', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        await exerciseEveryTool(client);
      } finally {
        await client.close();
      }
    } finally {
      child.kill('SIGTERM');
    }
  });
});
