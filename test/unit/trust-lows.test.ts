// Trust round 4, the lows: each a small promise a person relies on, each with the test that failed first.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../src/approval/store.js';
import { catalog } from '../../src/catalog.js';
import { configSchema } from '../../src/config/index.js';
import { createIdentity } from '../../src/identity/index.js';
import { silentLogger } from '../../src/log.js';
import { createAuditLog } from '../../src/policy/audit.js';
import { createDecisionPoint, risksOf, secondPersonRisks, TOOL_RISKS } from '../../src/policy/decide.js';
import { fileNameOf } from '../../src/policy/secrets.js';
import { maxKindOf } from '../../src/tool/index.js';

describe('settings', () => {
  it('DBOPS_AUDIT_MAX_BYTES takes sizes past 256 bytes (1 TiB at most)', () => {
    expect(configSchema.parse({ auditMaxBytes: '1073741824' }).auditMaxBytes).toBe(2 ** 30);
    expect(configSchema.parse({ auditMaxBytes: String(2 ** 40) }).auditMaxBytes).toBe(2 ** 40);
    expect(() => configSchema.parse({ auditMaxBytes: String(2 ** 40 + 1) })).toThrow();
  });
});

describe('generated password and key files', () => {
  it('give labels that only differ in characters a file name cannot hold files of their own', () => {
    const names = ['a+b@x', 'a_b@x', 'a_b_x', 'a b@x'].map(fileNameOf);
    expect(new Set(names).size).toBe(4);
    expect(fileNameOf('a_b_x')).toBe('a_b_x');
    expect(fileNameOf('..')).not.toMatch(/^\./);
    for (const n of names) expect(n).toMatch(/^[A-Za-z0-9._-]+$/);
  });
});

describe('the bearer scheme', () => {
  it('is case-insensitive (RFC 7235)', async () => {
    const id = createIdentity({ httpToken: 'the-one-token-0123456789', oauthScopes: [] }, silentLogger);
    for (const scheme of ['Bearer', 'bearer', 'BEARER'])
      expect((await id.verify(`${scheme} the-one-token-0123456789`)).via).toBe('http-token');
    await expect(id.verify('Basic the-one-token-0123456789')).rejects.toThrow(/Missing header/);
  });
});

describe('the pending-approval caps', () => {
  const store = (tellsPeopleApart: boolean) =>
    createApprovalStore({
      ttlMs: 600_000,
      audit: createAuditLog(join(mkdtempSync(join(tmpdir(), 'dbops-caps-')), 'audit.log'), silentLogger),
      origin: () => 'http://127.0.0.1:9',
      maxPendingPerOwner: 500,
      decisions: createDecisionPoint({ approvers: [], tellsPeopleApart }),
    });
  const ask = (s: ReturnType<typeof store>, i: number) =>
    s.create({
      tool: 'acknowledge_alert',
      title: 'Acknowledge',
      hash: `h${i}`,
      args: {},
      preview: { action: 'Acknowledge', target: {} },
      requester: {
        person: 'local',
        client: `c${i}`,
        key: `client:local:c${i}`,
        address: `10.0.0.${i % 250}`,
      },
    });

  it('where people are not told apart, the refusal names the cap that applies (200 for everyone)', async () => {
    const s = store(false);
    for (let i = 0; i < 200; i++) await ask(s, i);
    await expect(ask(s, 200)).rejects.toThrow(/200 approvals are already waiting \(the cap for everyone\)/);
    s.close();
  });

  it('where people are told apart, the per-person cap is 50 and says so', async () => {
    const s = store(true);
    for (let i = 0; i < 50; i++) await ask(s, i);
    await expect(ask(s, 50)).rejects.toThrow(/50 approvals asked for by local .*cap per person/);
    s.close();
  });
});

describe('which changes need four eyes', () => {
  it('is the table in src/policy/decide.ts: every tool that can be destructive carries a risk there', () => {
    const byName = new Map(catalog.map((t) => [t.name, t]));
    for (const name of Object.keys(TOOL_RISKS)) expect(byName.get(name), name).toBeDefined();
    const destructive = catalog.filter((t) => maxKindOf(t) === 'destructive').map((t) => t.name);
    expect(Object.keys(TOOL_RISKS).sort()).toEqual(destructive.sort());
  });

  it('decides from the kind and the preview (finding 1 of trust round 5)', () => {
    const at = (h: number) => new Date(Date.UTC(2026, 10, 28) + h * 3_600_000).toISOString();
    const window = (hours: number, pagesSilenced = 0, current?: number) => ({
      action: 'window',
      target: {},
      proposed: { startDate: at(0), endDate: at(hours), pagesSilenced },
      ...(current !== undefined ? { current: { startDate: at(0), endDate: at(current) } } : {}),
    });
    const s = { longWindowHours: 24 };
    expect(risksOf('create_maintenance_window', 'write', window(1), s)).toEqual([]);
    expect(risksOf('create_maintenance_window', 'destructive', window(1, 2), s)).toEqual(['window-pages']);
    expect(risksOf('create_maintenance_window', 'write', window(25), s)).toEqual(['window-long']);
    // Lengthening a window past the limit is the risk; shortening a long one is not.
    expect(risksOf('update_maintenance_window', 'write', window(8760, 0, 0.5), s)).toEqual(['window-long']);
    expect(risksOf('update_maintenance_window', 'write', window(30, 0, 48), s)).toEqual([]);
    expect(risksOf('set_alert_config_enabled', 'write', undefined, s)).toEqual([]);
    expect(risksOf('set_alert_config_enabled', 'destructive', undefined, s)).toEqual(['disable-alerting']);
    expect(risksOf('put_integration', 'destructive', undefined, s)).toEqual(['integration']);
    expect(secondPersonRisks('update_maintenance_window', { fourEyes: ['window-long', 'key'] })).toEqual([
      'window-long',
    ]);
    expect(configSchema.parse({}).fourEyes).toHaveLength(7);
    expect(() => configSchema.parse({ fourEyes: 'grant,everything' })).toThrow();
  });

  it('approvers are addresses, trimmed and case-folded; a read-only token decides nothing (findings 2, 9)', () => {
    const d = createDecisionPoint({ approvers: [' Bob@Example.com'], tellsPeopleApart: true });
    expect(d.isApprover({ person: 'iss#sub:b', address: 'bob@example.com ' })).toBe(true);
    expect(d.isApprover({ person: 'bob@example.com' })).toBe(false);
    const r = { tool: 'create_project_api_key', requester: { person: 'iss#sub:a' } };
    const bob = { person: 'iss#sub:b', address: 'BOB@example.com' };
    expect(d.mayDecide(r, bob, 'approve')).toBeUndefined();
    expect(d.mayDecide(r, { ...bob, canWrite: false }, 'approve')).toBe('read-only');
    expect(d.mayDecide(r, { ...bob, canWrite: false }, 'decline')).toBe('read-only');
    const own = {
      tool: 'create_project_api_key',
      requester: { person: 'iss#sub:x', personAddress: 'bob@example.com' },
    };
    expect(d.mayDecide(own, bob, 'approve')).toBe('four-eyes');
  });

  it('a person removed from the tokens file is refused before four eyes is even asked', () => {
    let known = true;
    const d = createDecisionPoint({ approvers: ['bob'], tellsPeopleApart: true, stillKnown: () => known });
    const r = { tool: 'delete_maintenance_window', requester: { person: 'alice' } };
    const bob = { person: 'bob', address: 'bob' };
    expect(d.mayDecide(r, bob, 'approve')).toBeUndefined();
    expect(d.mayDecide(r, { person: 'alice' }, 'approve')).toBe('four-eyes');
    expect(d.mayDecide(r, { person: 'alice' }, 'decline')).toBeUndefined();
    known = false;
    expect(d.mayDecide(r, bob, 'approve')).toBe('revoked');
    expect(d.isApprover({ person: 'bob', address: 'bob' })).toBe(false);
  });
});
