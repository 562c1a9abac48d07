import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { createAuditLog } from '../../src/policy/audit.js';

describe('audit log', () => {
  it('appends one redacted JSON line per entry to a 0600 file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'audit-')), 'nested', 'audit.log');
    const audit = createAuditLog(
      file,
      createLogger('error', () => {}),
    );
    await audit.write({
      tool: 'create_user',
      outcome: 'executed',
      args: { username: 'a', password: 'hunter2-secret' },
    });
    await audit.write({ tool: 'x', outcome: 'declined', args: { confirmationToken: 'tok-123456789' } });
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.outcome)).toEqual(['executed', 'declined']);
    expect(JSON.stringify(lines)).not.toContain('hunter2-secret');
    expect(JSON.stringify(lines)).not.toContain('tok-123456789');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('reports a failed write on stderr, never throws, and recovers once the folder can be made', async () => {
    const root = mkdtempSync(join(tmpdir(), 'audit-'));
    const blocker = join(root, 'state');
    writeFileSync(blocker, 'a file where the folder should be');
    const errors: string[] = [];
    const audit = createAuditLog(
      join(blocker, 'audit.log'),
      createLogger('error', (l) => errors.push(l)),
    );
    await expect(audit.write({ tool: 't', outcome: 'executed', args: {} })).resolves.toBeUndefined();
    expect(errors.join()).toContain('audit log write failed');
    // The operator fixes the path: the next write must succeed, not repeat the old failure.
    rmSync(blocker);
    mkdirSync(blocker);
    await audit.write({ tool: 't', outcome: 'executed', args: {} });
    expect(readFileSync(join(blocker, 'audit.log'), 'utf8')).toContain('"outcome":"executed"');
  });
});
