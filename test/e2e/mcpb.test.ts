// The MCP Bundle as Claude Desktop gets it: built, unpacked into an empty folder, its manifest's entry point
// started over stdio with the manifest's own arguments; it lists the tools and answers a demo call.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

describe('the MCP Bundle', () => {
  it('starts from its unpacked folder: tools listed, one demo call answered', async () => {
    execFileSync(process.execPath, [join(root, 'bundle/build.mjs')], { cwd: root, stdio: 'ignore' });
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string };
    const dir = mkdtempSync(join(tmpdir(), 'dbops-mcpb-unpacked-'));
    execFileSync(
      join(root, 'node_modules/.bin/mcpb'),
      ['unpack', join(root, 'dist', `${pkg.name}.mcpb`), dir],
      {
        stdio: 'ignore',
      },
    );
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
      server: { entry_point: string; mcp_config: { args: string[] } };
    };
    // The manifest's own placeholder for the unpacked folder, replaced as the host does.
    const dirname = ['$', '{__dirname}'].join('');
    const args = manifest.server.mcp_config.args.map((a) => a.replace(dirname, dir));
    const home = mkdtempSync(join(tmpdir(), 'dbops-mcpb-home-'));
    const client = new Client({ name: 'mcpb-test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args,
        cwd: dir,
        // No platform configured: demo mode, as a first start in Claude Desktop would be.
        env: { PATH: process.env.PATH ?? '', HOME: home, XDG_STATE_HOME: home, XDG_CONFIG_HOME: home },
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(30);
      const r = await client.callTool({ name: 'list_projects', arguments: {} });
      expect(r.isError).toBeFalsy();
      // The views (MCP Apps) ship in the bundle: the ui:// resource serves the built file.
      const view = await client.readResource({ uri: 'ui://dbops-mcp/incident-timeline' });
      expect((view.contents[0] as { text?: string }).text).toMatch(/^<!doctype html>/);
    } finally {
      await client.close();
    }
  }, 240_000);
});
