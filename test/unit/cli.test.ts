import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const cli = new URL('../../dist/src/cli.js', import.meta.url).pathname;

describe('cli', () => {
  it('prints usage for help', () => {
    const out = spawnSync(process.execPath, [cli, 'help'], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    expect(out.stderr).toContain('Commands:');
  });
  it('rejects an unknown command with exit 2', () => {
    const out = spawnSync(process.execPath, [cli, 'bogus'], { encoding: 'utf8' });
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('unknown command "bogus"');
  });
  it('is executable through node', () => {
    expect(() => execFileSync(process.execPath, [cli, '--help'], { stdio: 'pipe' })).not.toThrow();
  });
});
