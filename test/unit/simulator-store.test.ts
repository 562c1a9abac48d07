import { describe, expect, it } from 'vitest';
import type { ProcessRec } from '../../src/simulator/records.js';
import { isAcknowledged, maskNotification } from '../../src/simulator/routes/alerts.js';
import { recentPlans } from '../../src/simulator/routes/deployment.js';
import { renderIntegration } from '../../src/simulator/routes/integrations.js';
import { maskSecret, maskUrl } from '../../src/simulator/routes/render.js';
import { parseBody, parseTimestamp } from '../../src/simulator/routes/validate.js';
import { createStore, Store } from '../../src/simulator/store.js';
import type { SimError } from '../../src/simulator/types.js';
import { accessListEntry, cidrContains, entryMatches, normalizeAddress } from '../../src/simulator/values.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const demo = (seed?: number, now = NOW) => createStore({ dataset: 'demo', seed, now: () => now });
const HEX24 = /^[0-9a-f]{24}$/;

/** Every id in a snapshot, in order: what must not depend on the clock. */
function ids(store: Store): string[] {
  const out: string[] = [];
  JSON.stringify(store.snapshot(), (key, value) => {
    if ((key === 'id' || key.endsWith('Id')) && typeof value === 'string') out.push(value);
    return value;
  });
  return out;
}

describe('demo dataset', () => {
  it('is identical for the same seed and clock', () => {
    expect(demo(7).snapshot()).toEqual(demo(7).snapshot());
  });

  it('keeps ids and contents for a seed when only the clock differs; timestamps move with it', () => {
    const a = demo(7, NOW);
    const b = demo(7, new Date(NOW.getTime() + 86_400_000));
    expect(ids(a)).toEqual(ids(b));
    expect(a.demo).toEqual(b.demo);
    const [alertA, alertB] = [a.data.alerts[0]!, b.data.alerts[0]!];
    expect(Date.parse(alertB.created) - Date.parse(alertA.created)).toBe(86_400_000);
  });

  it('differs for another seed', () => {
    expect(demo(1).demo.publicKey).not.toBe(demo(2).demo.publicKey);
  });

  it('uses the id formats of the field', () => {
    const s = demo();
    expect(s.data.projects.every((p) => HEX24.test(p.id))).toBe(true);
    expect(s.data.hosts.every((h) => /^[0-9a-f]{32}$/.test(h.id))).toBe(true);
    expect(s.data.apiKeys.every((k) => /^[a-z]{8}$/.test(k.publicKey))).toBe(true);
    expect(
      s.data.apiKeys.every((k) =>
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(k.privateKey),
      ),
    ).toBe(true);
    expect(s.data.hosts.map((h) => `${h.hostname}:${h.port}`)).toContain('db-prod-01.example.internal:27017');
    expect(new Set(s.data.hosts.flatMap((h) => h.disks))).toEqual(
      new Set(['nvme0n1', 'nvme1n1', 'xvdb', 'xvdf', 'sda1', 'sdb']),
    );
  });

  it('has the promised breadth', () => {
    const d = demo().data;
    expect(d.orgs).toHaveLength(1);
    expect(d.projects.length).toBeGreaterThanOrEqual(3);
    expect(d.alertConfigs.length).toBeGreaterThanOrEqual(15);
    expect(new Set(d.alertConfigs.map((c) => c.eventTypeName)).size).toBeGreaterThanOrEqual(6);
    for (const c of d.alertConfigs) {
      if (c.eventTypeName === 'OUTSIDE_METRIC_THRESHOLD') expect(c.metricThreshold).toBeDefined();
      else expect(c.threshold).toBeDefined();
    }
    expect(d.alertConfigs.some((c) => c.matchers.some((m) => m.field !== undefined))).toBe(true);
    expect(d.alertConfigs.some((c) => c.matchers.some((m) => m.fieldName !== undefined))).toBe(true);
    expect(d.alerts.length).toBeGreaterThanOrEqual(40);
    expect(new Set(d.alerts.map((a) => a.status))).toEqual(
      new Set(['TRACKING', 'OPEN', 'CLOSED', 'CANCELLED']),
    );
    for (const a of d.alerts) expect(a.resolved !== undefined).toBe(a.status === 'CLOSED');
    expect(d.alerts.some((a) => a.acknowledgedUntil !== undefined && isAcknowledged(a, NOW))).toBe(true);
    expect(d.alerts.some((a) => a.acknowledgedUntil !== undefined && !isAcknowledged(a, NOW))).toBe(true);
    expect(d.globalAlertConfigs.length).toBeGreaterThanOrEqual(2);
    expect(d.globalAlerts.length).toBeGreaterThan(0);
    const t = NOW.getTime();
    const windows = d.maintenanceWindows;
    expect(windows.some((w) => Date.parse(w.startDate) < t && Date.parse(w.endDate) > t)).toBe(true);
    expect(windows.some((w) => Date.parse(w.startDate) > t)).toBe(true);
    expect(windows.some((w) => Date.parse(w.endDate) < t)).toBe(true);
    for (const type of ['MONITORING', 'BACKUP', 'AUTOMATION']) {
      for (const state of ['ACTIVE', 'STANDBY', 'NO_PROCESSES']) {
        expect(
          d.agents.some((a) => a.typeName === type && a.stateName === state),
          `${type} ${state}`,
        ).toBe(true);
      }
    }
    const processes = d.automation.flatMap((a) => a.processes.map((p) => ({ goal: a.goalVersion, p })));
    expect(processes.some(({ goal, p }) => p.lastGoalVersionAchieved < goal && p.plan.length > 0)).toBe(true);
    expect(processes.some(({ p }) => p.errorCode !== 0 && p.errorString !== '')).toBe(true);
    expect(d.integrations.length).toBeGreaterThanOrEqual(5);
    expect(d.users.some((u) => u.accessList.length > 0)).toBe(true);
  });

  it('has a month of events across projects and global, with one kind of actor each', () => {
    const d = demo().data;
    const all = [...d.events, ...d.globalEvents];
    expect(all.length).toBeGreaterThanOrEqual(1000);
    expect(d.globalEvents.length).toBeGreaterThan(0);
    expect(new Set(d.events.map((e) => e.groupId)).size).toBe(d.projects.length);
    const oldest = Math.min(...all.map((e) => Date.parse(e.created)));
    expect(NOW.getTime() - oldest).toBeLessThanOrEqual(30 * 86_400_000);
    expect(NOW.getTime() - oldest).toBeGreaterThan(25 * 86_400_000);
    const types = new Set(d.events.map((e) => e.eventTypeName));
    for (const t of [
      'AUTOMATION_CONFIG_PUBLISHED_AUDIT',
      'OUTSIDE_METRIC_THRESHOLD',
      'DATA_EXPLORER',
      'DATA_EXPLORER_CRUD',
    ]) {
      expect(types).toContain(t);
    }
    for (const e of all) {
      expect(e.apiKeyId !== undefined && e.userId !== undefined).toBe(false);
      expect(e.publicKey !== undefined && e.username !== undefined).toBe(false);
    }
    const diffs = d.events.flatMap((e) => (Array.isArray(e.diffs) ? e.diffs : [])) as Record<
      string,
      unknown
    >[];
    expect(diffs.some((x) => Array.isArray(x.priviileges))).toBe(true);
  });

  it('provides the demo key and the test fixtures', () => {
    const s = demo();
    const key = s.findApiKey(s.demo.publicKey)!;
    expect(key.privateKey).toBe(s.demo.privateKey);
    expect(key.roles.map((r) => r.roleName).sort()).toEqual(['GLOBAL_OWNER', 'ORG_OWNER']);
    const f = s.fixtures!;
    expect(s.findApiKey(f.readOnly.publicKey)!.roles.some((r) => r.roleName === 'GROUP_READ_ONLY')).toBe(
      true,
    );
    expect(
      s.findApiKey(f.notInProject.publicKey)!.roles.some((r) => r.groupId === f.notInProject.projectId),
    ).toBe(false);
    expect(s.checkAccessList(s.findApiKey(f.accessListDenied.publicKey)!, '127.0.0.1', NOW)).toBe(false);
    expect(s.checkAccessList(s.findApiKey(f.accessListAllowed.publicKey)!, '127.0.0.1', NOW)).toBe(true);
  });

  it('is empty when asked: no users, no keys, no demo key', () => {
    const s = createStore({ dataset: 'empty', now: () => NOW });
    expect(s.data.users).toEqual([]);
    expect(s.data.apiKeys).toEqual([]);
    expect(s.demo.publicKey).toBe('');
    expect(s.fixtures).toBeUndefined();
  });
});

describe('snapshot', () => {
  it('round-trips everything through JSON', () => {
    const s = demo();
    const copy = Store.fromSnapshot(JSON.parse(JSON.stringify(s.snapshot())), () => NOW);
    expect(copy.snapshot()).toEqual(s.snapshot());
    expect(copy.demo).toEqual(s.demo);
    expect(copy.fixtures).toEqual(s.fixtures);
  });

  it('is a copy: changing it does not change the store', () => {
    const s = demo();
    const snap = s.snapshot();
    snap.alerts.length = 0;
    expect(s.data.alerts.length).toBeGreaterThan(0);
  });

  it('rejects what is not a snapshot', () => {
    expect(() => Store.fromSnapshot(null, () => NOW)).toThrow(/not an object/);
    expect(() => Store.fromSnapshot({ version: 2 }, () => NOW)).toThrow(/version/);
    expect(() => Store.fromSnapshot({ version: 1, orgs: [] }, () => NOW)).toThrow(/projects/);
  });
});

describe('access lists', () => {
  it('does IPv4 CIDR math', () => {
    expect(cidrContains('10.0.0.0/8', '10.255.3.4')).toBe(true);
    expect(cidrContains('10.0.0.0/8', '11.0.0.1')).toBe(false);
    expect(cidrContains('192.168.4.0/22', '192.168.7.255')).toBe(true);
    expect(cidrContains('192.168.4.0/22', '192.168.8.0')).toBe(false);
    expect(cidrContains('0.0.0.0/0', '203.0.113.9')).toBe(true);
    expect(cidrContains('127.0.0.1/32', '127.0.0.1')).toBe(true);
    expect(cidrContains('127.0.0.1/32', '127.0.0.2')).toBe(false);
    expect(cidrContains('10.0.0.0/33', '10.0.0.1')).toBe(false);
    expect(cidrContains('::1/128', '::1')).toBe(true);
  });

  it('matches mapped IPv6 forms of IPv4 addresses', () => {
    expect(normalizeAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    const entry = accessListEntry('127.0.0.1', NOW)!;
    expect(entryMatches(entry, normalizeAddress('::ffff:127.0.0.1'))).toBe(true);
  });

  it('builds entries from addresses and blocks and refuses anything else', () => {
    expect(accessListEntry('192.0.2.15', NOW)).toMatchObject({
      ipAddress: '192.0.2.15',
      cidrBlock: '192.0.2.15/32',
    });
    expect(accessListEntry('10.20.0.0/16', NOW)).toEqual({
      cidrBlock: '10.20.0.0/16',
      created: '2026-03-01T12:00:00Z',
      count: 0,
    });
    for (const bad of ['nope', '300.1.1.1', '10.0.0.0/40', '1.2.3', ''])
      expect(accessListEntry(bad, NOW)).toBeUndefined();
  });

  it('records the use of the matching entry and allows keys without a user or list', () => {
    const s = demo();
    const f = s.fixtures!;
    const user = s.user(f.accessListAllowed.userId)!;
    const entry = user.accessList.find((e) => e.ipAddress === '127.0.0.1')!;
    const before = entry.count;
    const later = new Date(NOW.getTime() + 5_000);
    expect(s.checkAccessList(s.findApiKey(f.accessListAllowed.publicKey)!, '::ffff:127.0.0.1', later)).toBe(
      true,
    );
    expect(entry).toMatchObject({
      count: before + 1,
      lastUsed: '2026-03-01T12:00:05Z',
      lastUsedAddress: '127.0.0.1',
    });
    expect(s.checkAccessList(s.findApiKey(f.accessListAllowed.publicKey)!, '10.9.8.7', later)).toBe(true);
    expect(user.accessList.find((e) => e.cidrBlock === '10.0.0.0/8')!.count).toBe(1);
    expect(s.checkAccessList(s.findApiKey(s.demo.publicKey)!, '198.51.100.1', later)).toBe(true);
    const denied = s.user(f.accessListDenied.userId)!;
    expect(s.checkAccessList(s.findApiKey(f.accessListDenied.publicKey)!, '10.20.1.1', later)).toBe(true);
    expect(denied.accessList.find((e) => e.cidrBlock === '10.20.0.0/16')!.lastUsedAddress).toBe('10.20.1.1');
  });
});

describe('masking', () => {
  it('keeps the last four characters of a secret', () => {
    expect(maskSecret('abcdef1234567890')).toBe('******7890');
    expect(maskSecret('short')).toBe('******rt');
    expect(maskSecret('abc')).toBe('******');
  });

  it('keeps the origin of a URL and masks its path', () => {
    expect(maskUrl('https://hooks.example.net/dbops/0123456789abcdef')).toBe(
      'https://hooks.example.net/******cdef',
    );
  });

  it('masks integration secrets by type and leaves out the scraper password', () => {
    const scraper = renderIntegration({
      groupId: 'g',
      type: 'METRICS_SCRAPER',
      fields: {
        username: 'u',
        password: 'secret-pass',
        listenAddress: '0.0.0.0:9216',
        scheme: 'http',
        enabled: true,
      },
    });
    expect(scraper).toEqual({
      type: 'METRICS_SCRAPER',
      username: 'u',
      listenAddress: '0.0.0.0:9216',
      scheme: 'http',
      enabled: true,
    });
    const hook = renderIntegration({
      groupId: 'g',
      type: 'WEBHOOK',
      fields: { url: 'https://h.example/x/abcdefgh12', secret: 'topsecret1234' },
    });
    expect(hook).toEqual({ type: 'WEBHOOK', url: 'https://h.example/******gh12', secret: '******' });
    expect(
      renderIntegration({ groupId: 'g', type: 'TEAM_CHAT_B', fields: { apiToken: 'xoxb-1234567890' } }),
    ).toEqual({
      type: 'TEAM_CHAT_B',
      apiToken: '******7890',
      channelName: '',
    });
  });

  it('redacts key-like notification values and the whole webhook secret', () => {
    const masked = maskNotification({
      typeName: 'WEBHOOK',
      delayMin: 0,
      intervalMin: 5,
      webhookUrl: 'https://hooks.example.net/dbops/0123456789abcdef',
      webhookSecret: 'abcdef0123456789',
    });
    expect(masked).toMatchObject({
      webhookUrl: 'https://hooks.example.net/******cdef',
      webhookSecret: '******',
    });
    expect(
      maskNotification({
        typeName: 'INCIDENT_PAGING_A',
        delayMin: 0,
        intervalMin: 5,
        serviceKey: '0123456789abcdef',
      }),
    ).toMatchObject({ serviceKey: '******cdef' });
  });
});

describe('acknowledgement expiry', () => {
  it('is computed from the clock', () => {
    const alert = { acknowledgedUntil: '2026-03-01T13:00:00Z' } as Parameters<typeof isAcknowledged>[0];
    expect(isAcknowledged(alert, NOW)).toBe(true);
    expect(isAcknowledged(alert, new Date('2026-03-01T13:00:00Z'))).toBe(false);
    expect(isAcknowledged({ ...alert, acknowledgedUntil: undefined }, NOW)).toBe(false);
  });
});

describe('automation plans', () => {
  it('keeps processes at goal and only the 50 most recent plans', () => {
    const p = (i: number, plan: string[]): ProcessRec => ({
      name: `p${i}`,
      hostname: `h${i}`,
      lastGoalVersionAchieved: plan.length > 0 ? 1 : 2,
      plan,
      errorCode: 0,
      errorCodeDescription: '',
      errorCodeHumanReadable: '',
      errorString: '',
      planUpdated: new Date(NOW.getTime() - i * 60_000).toISOString(),
    });
    const processes = [
      p(0, []),
      ...Array.from({ length: 60 }, (_, i) => p(i + 1, ['Download', 'Start'])),
      p(99, []),
    ];
    const kept = recentPlans(processes);
    expect(kept).toHaveLength(52);
    expect(kept.map((x) => x.name)).toContain('p50');
    expect(kept.map((x) => x.name)).not.toContain('p51');
    expect(kept.map((x) => x.name)).toContain('p99');
  });
});

describe('body validation', () => {
  const spec = {
    enabled: { kind: 'boolean', required: true },
    desc: { kind: 'string', min: 1, max: 5 },
    until: { kind: 'date' },
    kinds: { kind: 'strings', values: ['A', 'B'] },
  } as const;
  const code = (body: unknown): string | undefined => {
    try {
      parseBody(body, spec);
      return undefined;
    } catch (e) {
      return (e as SimError).errorCode;
    }
  };

  it('answers each failure with its code', () => {
    expect(code({ enabled: true, extra: 1 })).toBe('INVALID_ATTRIBUTE');
    expect(code({})).toBe('MISSING_ATTRIBUTE');
    expect(code({ enabled: 'yes' })).toBe('INVALID_JSON_ATTRIBUTE');
    expect(code({ enabled: true, desc: 'toolong' })).toBe('INVALID_JSON_ATTRIBUTE');
    expect(code({ enabled: true, until: 'tomorrow' })).toBe('INVALID_JSON_ATTRIBUTE');
    expect(code({ enabled: true, kinds: ['C'] })).toBe('INVALID_ENUM_VALUE');
    expect(code([])).toBe('INVALID_JSON');
    expect(code(undefined)).toBe('INVALID_JSON');
    expect(code({ enabled: false, desc: null })).toBeUndefined();
  });

  it('names the unknown attribute the way real servers do', () => {
    expect(() => parseBody({ enabled: true, color: 'red' }, spec)).toThrow(
      'Invalid attribute color specified.',
    );
  });

  it('parses ISO 8601 timestamps and nothing else', () => {
    expect(parseTimestamp('2026-03-01T12:00:00Z')?.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(parseTimestamp('2026-03-01T12:00:00.123+02:00')?.toISOString()).toBe('2026-03-01T10:00:00.123Z');
    expect(parseTimestamp('2026-03-01')).toBeDefined();
    expect(parseTimestamp('March 1, 2026')).toBeUndefined();
    expect(parseTimestamp('2026-13-45T00:00:00Z')).toBeUndefined();
  });
});
