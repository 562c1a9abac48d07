// The apps' size budget and self-containment, checked on what `npm run build` wrote to dist/apps/ (the files
// the ui:// resources serve). Budget per app: ≤ 280 KB raw, ≤ 72 KB gzip. Of that, ext-apps' App with the MCP
// SDK's Protocol and zod (which App needs to speak to the host) is ~239 KB / ~60 KB minified on its own
// (measured with an empty app, ext-apps 2.0.4); the apps' own code and style are ~12–23 KB / ~5–9 KB
// (251–262 KB / 64.7–68.7 KB in all, the incident timeline the largest).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { APPS } from '../../src/mcp/apps.js';

const RAW = 280_000;
const GZIP = 72_000;

describe('views (MCP Apps) as built', () => {
  for (const view of Object.keys(APPS)) {
    const html = readFileSync(new URL(`../../dist/apps/${view}.html`, import.meta.url));
    const text = html.toString('utf8');

    it(`${view}: within the size budget`, () => {
      expect(html.length, 'raw bytes').toBeLessThanOrEqual(RAW);
      expect(gzipSync(html).length, 'gzip bytes').toBeLessThanOrEqual(GZIP);
    });

    it(`${view}: one self-contained file that names nothing to load`, () => {
      expect(text).toMatch(/^<!doctype html>/);
      // One inline script and one inline style; no element that loads anything.
      expect(text.match(/<script\b/g)).toHaveLength(1);
      expect(text).not.toMatch(/<script[^>]*\bsrc=/i);
      expect(text).not.toMatch(/<(link|img|iframe|object|embed|base)\b/i);
      const css = /<style>([\s\S]*?)<\/style>/.exec(text)?.[1] ?? '';
      expect(css.length).toBeGreaterThan(0);
      expect(css).not.toMatch(/@import|url\(/i);
      // Platform text reaches the page as text only: the apps' code never writes markup.
      expect(text).not.toMatch(/\.innerHTML\s*=|insertAdjacentHTML|document\.write\(/);
    });
  }
});

describe('views (MCP Apps) as sources', () => {
  it('import ext-apps, each other and the rules only: their data is what the host passes them', () => {
    const dir = new URL('../../apps/', import.meta.url);
    const sources = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    // A app too long for one file keeps its parts beside it (<app>-<part>.ts).
    const parts = ['incident-timeline-summary.ts'];
    expect(sources.sort()).toEqual(
      [...Object.keys(APPS).map((v) => `${v}.ts`), ...parts, 'shared.ts'].sort(),
    );
    for (const f of sources) {
      const code = readFileSync(new URL(f, dir), 'utf8');
      const from = [...code.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gms)].map((m) => m[1]);
      expect(from.length, f).toBeGreaterThan(0);
      for (const m of from)
        expect(
          [
            '@modelcontextprotocol/ext-apps',
            './shared.js',
            // The platform's rules (pure, no I/O): the app decides as the server does.
            '../src/rules/index.js',
            ...parts.map((p) => `./${p.replace(/\.ts$/, '.js')}`),
          ],
          `${f} imports ${m}`,
        ).toContain(m);
    }
  });
});

describe('views served by the installed command (stdio, demo mode)', () => {
  it('lists each view, links it from its tools, and serves the built file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbops-apps-stdio-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [fileURLToPath(new URL('../../dist/bin/dbops-mcp.js', import.meta.url)), 'serve'],
      env: {
        PATH: process.env.PATH ?? '',
        DBOPS_AUDIT_LOG: join(dir, 'audit.log'),
        DBOPS_SECRETS_DIR: join(dir, 'secrets'),
        DBOPS_STATE_DIR: join(dir, 'state'),
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'apps-stdio-test', version: '1' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const ui = (name: string) =>
        (tools.find((t) => t.name === name)?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui
          ?.resourceUri;
      expect(ui('triage_project')).toBe('ui://dbops-mcp/incident-timeline');
      expect(ui('create_maintenance_window')).toBe('ui://dbops-mcp/maintenance-planner');
      expect(ui('delete_maintenance_window')).toBe('ui://dbops-mcp/consent-card');
      expect(ui('list_alert_configs')).toBeUndefined();
      const listed = (await client.listResources()).resources.filter((r) => r.uri.startsWith('ui://'));
      expect(listed.map((r) => [r.uri, r.mimeType]).sort()).toEqual(
        Object.keys(APPS)
          .map((v) => [`ui://dbops-mcp/${v}`, 'text/html;profile=mcp-app'])
          .sort(),
      );
      for (const view of Object.keys(APPS)) {
        const read = await client.readResource({ uri: `ui://dbops-mcp/${view}` });
        const c = read.contents[0] as { text?: string; mimeType?: string };
        expect(c.mimeType).toBe('text/html;profile=mcp-app');
        expect(c.text).toBe(readFileSync(new URL(`../../dist/apps/${view}.html`, import.meta.url), 'utf8'));
      }
    } finally {
      await client.close();
    }
  }, 30_000);
});
