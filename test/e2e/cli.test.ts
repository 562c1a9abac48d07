import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tokenHash } from '../../src/identity/tokens.js';
import { catalog, everySet } from '../../tools/index.js';

const cli = new URL('../../dist/src/cli.js', import.meta.url).pathname;

describe('cli', () => {
  it('prints usage for help', () => {
    const out = spawnSync(process.execPath, [cli, 'help'], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    expect(out.stderr).toContain('Commands:');
  });
  it('prints the package version for --version', () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    for (const flag of ['--version', '-v']) {
      const out = spawnSync(process.execPath, [cli, flag], { encoding: 'utf8' });
      expect(out.status).toBe(0);
      expect(out.stdout.trim()).toBe(version);
    }
  });
  it('warns about a DBOPS_* variable that is no setting, naming the nearest one; stops under DBOPS_STRICT_SETTINGS', () => {
    const env = { PATH: process.env.PATH, DBOPS_READONLY: 'true' };
    const warned = spawnSync(process.execPath, [cli, 'tools'], { encoding: 'utf8', env });
    expect(warned.status).toBe(0);
    expect(warned.stderr).toContain(
      'DBOPS_READONLY is not a setting and is ignored; did you mean DBOPS_READ_ONLY?',
    );
    const strict = spawnSync(process.execPath, [cli, 'tools'], {
      encoding: 'utf8',
      env: { ...env, DBOPS_STRICT_SETTINGS: '1' },
    });
    expect(strict.status).toBe(2);
    expect(strict.stderr).toContain('DBOPS_READONLY');
  });
  it('takes booleans in any case and lists the accepted values when refusing one', () => {
    const upper = spawnSync(process.execPath, [cli, 'tools', '--json'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, DBOPS_READ_ONLY: 'TRUE' },
    });
    expect(upper.status).toBe(0);
    const kinds = (JSON.parse(upper.stdout) as Array<{ kind: string }>).map((t) => t.kind);
    expect(new Set(kinds)).toEqual(new Set(['read']));
    const bad = spawnSync(process.execPath, [cli, 'tools'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, DBOPS_READ_ONLY: 'sure' },
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/DBOPS_READ_ONLY.*true or false.*1, 0, yes, no/);
  });
  it('rejects an unknown command with exit 2', () => {
    const out = spawnSync(process.execPath, [cli, 'bogus'], { encoding: 'utf8' });
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('unknown command "bogus"');
  });
  it('refuses a bad setting at start-up, naming it, with exit 2', () => {
    const flag = spawnSync(process.execPath, [cli, 'serve', '--confirm', 'always'], { encoding: 'utf8' });
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain('DBOPS_CONFIRM / --confirm');
    const env = spawnSync(process.execPath, [cli, 'tools'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, DBOPS_MAX_RETRIES: 'many' },
    });
    expect(env.status).toBe(2);
    expect(env.stderr).toContain('DBOPS_MAX_RETRIES');
    const typo = spawnSync(process.execPath, [cli, 'serve', '--read-onyl'], { encoding: 'utf8' });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('unknown option --read-onyl');
  });
  it('lists tools by toolset, refuses an unknown toolset at start with the valid ones, and shows dynamic mode', () => {
    const env = { PATH: process.env.PATH };
    const windows = spawnSync(process.execPath, [cli, 'tools', '--toolsets', 'windows'], {
      encoding: 'utf8',
      env,
    });
    expect(windows.status).toBe(0);
    const rows = windows.stdout.trim().split('\n');
    expect(rows.map((l) => l.split(/\s+/)[0])).toEqual(
      catalog.filter((t) => t.toolset === 'windows' || everySet.includes(t.name)).map((t) => t.name),
    );
    expect(rows[1]).toMatch(/^list_maintenance_windows\s+read\s+windows\s+Active and upcoming/);
    expect(rows[0]).toMatch(/^list_projects\s+read\s+every set\s+The projects/);
    const bad = spawnSync(process.execPath, [cli, 'serve'], {
      encoding: 'utf8',
      env: { ...env, DBOPS_TOOLSETS: 'triage,widnows' },
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(
      'invalid setting DBOPS_TOOLSETS / --toolsets: unknown toolset "widnows" (did you mean windows?); valid: triage, alerts, windows, events, deployment, access, integrations, all, dynamic',
    );
    const dynamic = spawnSync(process.execPath, [cli, 'tools', '--json'], {
      encoding: 'utf8',
      env: { ...env, DBOPS_TOOLSETS: 'dynamic,triage' },
    });
    const listed = JSON.parse(dynamic.stdout) as Array<{
      name: string;
      toolset: string;
      listedAtStart: boolean;
    }>;
    expect(listed.length).toBe(catalog.length);
    expect(listed.filter((t) => t.listedAtStart).map((t) => t.toolset)).toEqual(
      expect.arrayContaining(['triage', 'every set']),
    );
    expect(listed.find((t) => t.name === 'put_integration')).toMatchObject({
      toolset: 'integrations',
      listedAtStart: false,
    });
  });
  it('is executable through node', () => {
    expect(() => execFileSync(process.execPath, [cli, '--help'], { stdio: 'pipe' })).not.toThrow();
  });
});

describe('dbops-mcp token', () => {
  it('prints a fresh token on stdout and the tokens file line, with its hash only, on stderr', () => {
    const out = spawnSync(process.execPath, [cli, 'token', 'priya@example.com'], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    const token = out.stdout.trim();
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(out.stderr).toContain(`priya@example.com sha256:${tokenHash(token)}`);
    expect(out.stderr).not.toContain(token);
    const bad = spawnSync(process.execPath, [cli, 'token', 'two words'], { encoding: 'utf8' });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('cannot name a person');
  });
});
