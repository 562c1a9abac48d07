// The package as a user gets it: `npm pack` of the built tree, installed from the tarball into an empty
// folder, then the `dbops-mcp` command run from there. Catches a `files` list or `bin` that leaves out what
// the command needs, and dependencies declared only as dev ones. Run after a build (npm test builds first).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalog } from '../../tools/index.js';
import { installGlobally, npm, run } from '../helpers/npm.js';

const root = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'dbops-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm package', () => {
  it('installs from its tarball and runs `dbops-mcp tools`', { timeout: 180_000 }, async () => {
    // --ignore-scripts: pack the build the tests run against instead of rebuilding it.
    const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root);
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = info!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['dist/src/cli.js', 'LICENSE', 'README.md', 'server.json']));
    // The views (MCP Apps) the ui:// resources serve.
    expect(files).toEqual(
      expect.arrayContaining(
        ['incident-timeline', 'maintenance-planner', 'consent-card'].map((v) => `dist/apps/${v}.html`),
      ),
    );
    expect(files.filter((f) => /^(src|test|bench|scripts)\/|\.ts$|^\.ci/.test(f))).toEqual([]);

    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), '{"name":"pack-check","private":true}\n');
    await npm(['install', '--prefer-offline', join(dir, info!.filename)], app);

    const { stdout } = await run('npx', ['--no-install', 'dbops-mcp', 'tools', '--json'], {
      cwd: app,
      timeout: 30_000,
      env: { PATH: process.env.PATH ?? '', HOME: dir },
    });
    const tools = JSON.parse(stdout) as Array<{ name: string; kind: string }>;
    expect(tools.map((t) => t.name)).toEqual(catalog.map((t) => t.name));

    // The library entry resolves and starts the simulator it ships.
    const lib = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('dbops-mcp'); const s = await m.startSimulator({}); console.log(typeof m.createMcpServer, m.catalog.length); await s.close();",
      ],
      { cwd: app, timeout: 30_000 },
    );
    expect(lib.stdout.trim()).toBe(`function ${catalog.length}`);

    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/dbops-mcp/package.json'), 'utf8'));
    const server = JSON.parse(readFileSync(join(app, 'node_modules/dbops-mcp/server.json'), 'utf8'));
    expect(server.name).toBe(manifest.mcpName);
    expect(server.version).toBe(manifest.version);
    expect(server.packages[0].version).toBe(manifest.version);
    expect(server.description.length).toBeLessThanOrEqual(100);

    // As the README says: a global install of the tarball into an empty prefix puts `dbops-mcp` on the PATH,
    // with --version, --help and a demo call that needs no configuration.
    const env = await installGlobally(join(dir, info!.filename), dir);
    const version = await run('dbops-mcp', ['--version'], { env, timeout: 30_000 });
    expect(version.stdout.trim()).toBe(manifest.version);
    const help = await run('dbops-mcp', ['--help'], { env, timeout: 30_000 });
    expect(help.stderr).toContain('Commands:');
    const triage = await run('dbops-mcp', ['call', 'triage_project', '--demo'], { env, timeout: 60_000 });
    expect(triage.stdout).toMatch(/^# Triage of project/m);
  });
});
