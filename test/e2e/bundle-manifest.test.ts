// The MCP Bundle's manifest (bundle/manifest.json): valid under the official MCPB 0.3 schema, and every
// setting a person fills in at install reaches the server as the environment variable our config reads,
// keys marked sensitive (kept in the OS keychain), nothing left as an unexpanded placeholder.
import { readFileSync } from 'node:fs';
import { getMcpConfigForManifest, v0_3 } from '@anthropic-ai/mcpb';
import { describe, expect, it } from 'vitest';
import { toolsets } from '../../src/catalog.js';
import { loadConfig, settingNames } from '../../src/config/index.js';

const read = (p: string) => JSON.parse(readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8'));
const manifest = read('bundle/manifest.json');
const pkg = read('package.json');

async function envFor(userConfig: Record<string, string | boolean>) {
  const config = await getMcpConfigForManifest({
    manifest,
    extensionPath: '/opt/ext',
    systemDirs: {},
    userConfig,
    pathSeparator: '/',
  });
  return config!;
}

describe('bundle/manifest.json', () => {
  it('is valid under the MCPB 0.3 schema, with the package version and entry point', () => {
    const r = v0_3.McpbManifestSchema.safeParse(manifest);
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
    expect(manifest.version).toBe(pkg.version);
    expect(manifest.server.entry_point).toBe(pkg.bin['dbops-mcp']);
  });

  it('maps every setting to a DBOPS_ variable the config reads; keys are sensitive', () => {
    const envNames = new Set(Object.values(settingNames).map((n) => n.env));
    for (const name of Object.keys(manifest.server.mcp_config.env)) expect(envNames, name).toContain(name);
    const sensitive = Object.entries(manifest.user_config as Record<string, { sensitive?: boolean }>)
      .filter(([, o]) => o.sensitive)
      .map(([k]) => k);
    expect(sensitive.sort()).toEqual(['private_key', 'public_key']);
  });

  it('starts the server with what the person entered', async () => {
    const c = await envFor({
      base_url: 'https://ops.example.com',
      public_key: 'abcdefgh',
      private_key: '0f1e2d3c-private',
      project_id: '5f0c1d2e3f4a5b6c7d8e9f00',
      read_only: true,
    });
    expect(c.args).toEqual(['/opt/ext/dist/bin/dbops-mcp.js', 'serve']);
    const config = loadConfig([], c.env);
    expect(config).toMatchObject({
      baseUrl: 'https://ops.example.com',
      publicKey: 'abcdefgh',
      privateKey: '0f1e2d3c-private',
      projectId: '5f0c1d2e3f4a5b6c7d8e9f00',
      readOnly: true,
    });
  });

  it('starts in demo mode when nothing was entered (no placeholder reaches the server)', async () => {
    const c = await envFor({});
    for (const v of Object.values(c.env ?? {})) expect(v).not.toContain('${');
    const config = loadConfig([], c.env);
    expect(config.baseUrl).toBeUndefined();
    expect(config.readOnly).toBe(false);
  });

  it('offers the toolsets as a setting, naming each one, and passes the choice on', async () => {
    const setting = manifest.user_config.toolsets as { description: string; default: string };
    for (const s of toolsets.sets) expect(setting.description).toContain(s.name);
    expect(setting.description).toContain('dynamic');
    const c = await envFor({ toolsets: 'triage,windows' });
    expect(loadConfig([], c.env).toolsets).toEqual(['triage', 'windows']);
    // Spaces, as the field's description invites, read the same.
    expect(loadConfig([], (await envFor({ toolsets: 'dynamic triage' })).env).toolsets).toEqual([
      'dynamic',
      'triage',
    ]);
    expect(loadConfig([], (await envFor({})).env).toolsets).toEqual([]);
  });
});
