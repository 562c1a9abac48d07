// What a configuration does not use is not loaded: the installed command (dist/bin/, the bundle) serving
// over stdio with nothing configured loads neither prom-client (metrics are served only over HTTP) nor jose
// (OAuth only with DBOPS_OAUTH_ISSUER). Every module the process loads is logged by a loader hook
// (test/helpers/load-log.mjs); the chunks holding each library are found by the bundle's source comments.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';

const binDir = fileURLToPath(new URL('../../dist/bin/', import.meta.url));
const bin = join(binDir, 'dbops-mcp.js');
const loader = fileURLToPath(new URL('../helpers/load-log.mjs', import.meta.url));

/** The chunks of dist/bin/ that hold a library's code (rolldown names each module's file in a comment). */
function chunksOf(library: string): string[] {
  return readdirSync(binDir).filter((f) =>
    readFileSync(join(binDir, f), 'utf8').includes(`node_modules/${library}/`),
  );
}

/** Nothing configured: only a home of its own, so nothing is read from (or written to) the tester's. */
function bareEnv(log: string): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), 'dbops-loads-'));
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    NODE_OPTIONS: `--import ${loader}`,
    LOAD_LOG_FILE: log,
  };
}

const loadedChunks = (log: string) =>
  readFileSync(log, 'utf8')
    .split('\n')
    .filter((u) => u.startsWith('file:'))
    .map((u) => fileURLToPath(u))
    .filter((p) => p.startsWith(binDir))
    .map((p) => p.slice(binDir.length));

describe('start-up loads only what the configuration uses', () => {
  // @hono/node-server stands for the Streamable HTTP transport: it is imported by src/mcp/http/ only.
  const LAZY = ['prom-client', 'jose', '@hono/node-server'];

  it('finds the chunks of prom-client, jose and the HTTP transport in the bundle', () => {
    for (const library of LAZY) expect(chunksOf(library), library).not.toEqual([]);
  });

  it('serves stdio with nothing configured, a tool call included, without prom-client, jose or the HTTP transport', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'dbops-loads-log-')), 'loaded.txt');
    const client = new Client({ name: 'loads-test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'serve'],
        env: bareEnv(log),
        stderr: 'pipe',
      }),
    );
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(3);
      const r = await client.callTool({ name: 'list_alert_configs', arguments: {} });
      expect(r.isError).not.toBe(true);
    } finally {
      await client.close();
    }
    const loaded = loadedChunks(log);
    expect(loaded).toContain('dbops-mcp.js');
    for (const library of LAZY)
      expect(
        loaded.filter((c) => chunksOf(library).includes(c)),
        library,
      ).toEqual([]);
  });

  it('loads prom-client and the HTTP transport when it serves HTTP: the log sees them when they are loaded', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'dbops-loads-log-')), 'loaded.txt');
    const child: ChildProcess = spawn(
      process.execPath,
      [bin, 'serve', '--transport', 'http', '--port', '0'],
      {
        env: bareEnv(log),
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    try {
      await new Promise<void>((ok, fail) => {
        let out = '';
        child.once('exit', (code) => fail(new Error(`serve exited with ${code}`)));
        child.stdout?.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          if (out.includes('Stop with Ctrl-C.')) ok();
        });
      });
    } finally {
      child.kill('SIGTERM');
    }
    const loaded = loadedChunks(log);
    for (const library of ['prom-client', '@hono/node-server'])
      expect(
        loaded.filter((c) => chunksOf(library).includes(c)),
        library,
      ).not.toEqual([]);
  });
});
