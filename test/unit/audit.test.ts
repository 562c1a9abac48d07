import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { createAuditLog } from '../../src/policy/audit.js';

describe('audit log', () => {
  it('has each outcome it can write in the table of docs/approval.md, and no other', () => {
    const root = new URL('../..', import.meta.url).pathname;
    const type = readFileSync(join(root, 'src/policy/audit.ts'), 'utf8').match(
      /type AuditOutcome =([^;]+);/,
    )?.[1];
    const outcomes = [...(type ?? '').matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
    const section = readFileSync(join(root, 'docs/approval.md'), 'utf8')
      .split('## Audit log')[1]
      ?.split('\n## ')[0];
    const documented = [...(section ?? '').matchAll(/^\| (.+?) \|/gm)].flatMap((m) =>
      [...(m[1] ?? '').matchAll(/`([a-z_]+)`/g)].map((x) => x[1]),
    );
    expect(outcomes.length).toBeGreaterThan(5);
    expect([...documented].sort()).toEqual([...outcomes].sort());
  });

  it('rotates by size (DBOPS_AUDIT_MAX_BYTES, DBOPS_AUDIT_KEEP) and loses no line to writers racing the rotation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-rotate-'));
    const file = join(dir, 'audit.log');
    const quiet = createLogger('error', () => {});
    // Four writers on one file, as four processes would be (each its own log object, no shared memory).
    const writers = [1, 2, 3, 4].map(() => createAuditLog(file, quiet, { maxBytes: 4_096, keep: 1_000 }));
    await Promise.all(
      writers.map(async (w, i) => {
        for (let n = 0; n < 150; n++)
          await w.write({ tool: `writer_${i}`, outcome: 'executed', args: { n } });
      }),
    );
    const files = readdirSync(dir).filter((f) => f.startsWith('audit.log'));
    expect(files.length).toBeGreaterThan(5);
    const lines = files.flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n').filter(Boolean));
    expect(lines).toHaveLength(600);
    expect(new Set(lines.map((l) => `${JSON.parse(l).tool}:${JSON.parse(l).args.n}`)).size).toBe(600);
    // Each rotated file stopped near the limit (a line that crossed it stays whole).
    for (const f of files) expect(statSync(join(dir, f)).size).toBeLessThan(4_096 + 4 * 200);

    // With keep=2, only the live file and two rotated ones remain.
    const kept = createAuditLog(file, quiet, { maxBytes: 4_096, keep: 2 });
    for (let n = 0; n < 100; n++) await kept.write({ tool: 'kept', outcome: 'executed', args: { n } });
    expect(
      readdirSync(dir)
        .filter((f) => f.startsWith('audit.log'))
        .sort(),
    ).toEqual(['audit.log', 'audit.log.1', 'audit.log.2']);
  });

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
