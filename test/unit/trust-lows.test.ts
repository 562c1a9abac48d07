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
import { kindOf } from '../../src/policy/consent.js';
import { createDecisionPoint, FOUR_EYES } from '../../src/policy/decide.js';
import { fileNameOf } from '../../src/policy/secrets.js';

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
  it('is the table in src/policy/decide.ts: grants of access, API keys and deletions, all of them destructive', () => {
    const byName = new Map(catalog.map((t) => [t.name, t]));
    for (const name of Object.keys(FOUR_EYES)) {
      const tool = byName.get(name);
      expect(tool, name).toBeDefined();
      expect(kindOf(tool!, { mode: 'add' }), name).toBe('destructive');
    }
    // Every tool that grants, mints or deletes is in the table (names say so in this catalog).
    const grantsMintsDeletes = catalog
      .filter((t) =>
        /^(create_(user|first_user|org_api_key|project_api_key)|update_user_roles|delete_)/.test(t.name),
      )
      .map((t) => t.name)
      .sort();
    expect(Object.keys(FOUR_EYES).sort()).toEqual(grantsMintsDeletes);
  });

  it('a person removed from the tokens file is refused before four eyes is even asked', () => {
    let known = true;
    const d = createDecisionPoint({ approvers: ['bob'], tellsPeopleApart: true, stillKnown: () => known });
    const r = { tool: 'delete_maintenance_window', requester: { person: 'alice' } };
    expect(d.mayDecide(r, { person: 'bob' }, 'approve')).toBeUndefined();
    expect(d.mayDecide(r, { person: 'alice' }, 'approve')).toBe('four-eyes');
    expect(d.mayDecide(r, { person: 'alice' }, 'decline')).toBeUndefined();
    known = false;
    expect(d.mayDecide(r, { person: 'bob' }, 'approve')).toBe('revoked');
    expect(d.isApprover('bob')).toBe(false);
  });
});
