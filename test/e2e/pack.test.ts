// The package as a user gets it: `npm pack` of the built tree, installed from the tarball into an empty
// folder, then the `dbops-mcp` command run from there. Catches a `files` list or `bin` that leaves out what
// the command needs, and dependencies declared only as dev ones. Run after a build (npm test builds first).
// One tarball and one global install serve every test here (packing and installing are most of its time).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../tools/index.js';
import { installGlobally, npm, run } from '../helpers/npm.js';

const root = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'dbops-pack-'));
/** Where the tarball is installed as a dependency of a project. */
const app = join(dir, 'app');
let tarball: string;
let files: string[];
/** PATH and HOME of a global install of the tarball into an empty prefix, as the README says. */
let globalEnv: Record<string, string>;

beforeAll(async () => {
  // --ignore-scripts: pack the build the tests run against instead of rebuilding it.
  const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root);
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(dir, info!.filename);
  files = info!.files.map((f) => f.path);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{"name":"pack-check","private":true}\n');
  [, globalEnv] = await Promise.all([
    npm(['install', '--prefer-offline', tarball], app),
    installGlobally(tarball, dir),
  ]);
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm package', () => {
  it('packs the build, the views, the licence and server.json, and no sources', () => {
    expect(files).toEqual(expect.arrayContaining(['dist/src/cli.js', 'LICENSE', 'README.md', 'server.json']));
    // The views (MCP Apps) the ui:// resources serve.
    expect(files).toEqual(
      expect.arrayContaining(
        ['incident-timeline', 'maintenance-planner', 'consent-card'].map((v) => `dist/apps/${v}.html`),
      ),
    );
    expect(files.filter((f) => /^(src|test|bench|scripts)\/|\.ts$|^\.ci/.test(f))).toEqual([]);
  });

  it('installs from its tarball and runs `dbops-mcp tools`', { timeout: 120_000 }, async () => {
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
  });

  it('installed globally, puts `dbops-mcp` on the PATH with --version, --help and a demo call', {
    timeout: 120_000,
  }, async () => {
    // As the README says: a global install of the tarball into an empty prefix puts `dbops-mcp` on the PATH,
    // with --version, --help and a demo call that needs no configuration.
    const env = globalEnv;
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/dbops-mcp/package.json'), 'utf8'));
    const version = await run('dbops-mcp', ['--version'], { env, timeout: 30_000 });
    expect(version.stdout.trim()).toBe(manifest.version);
    const help = await run('dbops-mcp', ['--help'], { env, timeout: 30_000 });
    expect(help.stderr).toContain('Commands:');
    const triage = await run('dbops-mcp', ['call', 'triage_project', '--demo'], { env, timeout: 60_000 });
    expect(triage.stdout).toMatch(/^# Triage of project/m);
  });
});

// The doctor as a user runs it after installing the package: from the PATH of the global install — passing in
// demo mode (no configuration), failing with the fix for a broken set-up. Catches a doctor that needs
// something the package does not ship.

/** The installed command's exit code and output (a failing doctor exits 1, which execFile rejects). */
async function doctor(env: Record<string, string>, args: string[] = []) {
  try {
    const r = await run('dbops-mcp', ['doctor', ...args], { env, timeout: 60_000 });
    return { code: 0, out: r.stdout };
  } catch (e) {
    const err = e as { code?: number; stdout?: string };
    return { code: err.code ?? -1, out: err.stdout ?? '' };
  }
}

describe('dbops-mcp doctor from the installed package', () => {
  it('passes in demo mode and fails with the fix for a broken set-up', { timeout: 180_000 }, async () => {
    // A HOME of its own: nothing the tests above left behind.
    const home = mkdtempSync(join(dir, 'doctor-home-'));
    const env = { ...globalEnv, HOME: home };

    const demo = await doctor(env);
    expect(demo.out).toContain('✓ API key: the demo key is accepted');
    expect(demo.out).toMatch(/All \d+ checks passed\./);
    expect(demo.code).toBe(0);

    const misspelt = await doctor({ ...env, DBOPS_READONLY: 'true' }, ['--json']);
    const parsed = JSON.parse(misspelt.out) as {
      ok: boolean;
      checks: Array<{ step: string; ok: boolean; fix?: string; detail: string }>;
    };
    expect(parsed.ok).toBe(false);
    expect(parsed.checks.find((c) => !c.ok)?.detail).toContain('did you mean DBOPS_READ_ONLY');
    expect(misspelt.code).toBe(1);

    const noScheme = await doctor({ ...env, DBOPS_BASE_URL: 'ops.example.com:8080' });
    expect(noScheme.out).toContain('fix: Write it with its scheme: https://ops.example.com:8080');
    expect(noScheme.code).toBe(1);
  });
});
