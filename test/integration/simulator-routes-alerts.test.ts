// The simulator's alert routes over loopback HTTP with digest auth: alert configurations, project alerts
// and their acknowledgement, global alert configurations and global alerts, matcher field names.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureKey } from '../../src/simulator/records.js';
import {
  type DigestAnswer,
  digestFetch,
  type FetchOptions,
  type Simulator,
  startTestSimulator,
} from '../helpers/sim.js';

const START = new Date('2026-03-01T12:00:00Z');
let clock = START;
let sim: Simulator;
let projectId: string;

beforeAll(async () => {
  sim = await startTestSimulator({ now: () => clock });
  projectId = sim.projectIds[0]!;
});
afterAll(() => sim.close());

const as = (k: FixtureKey): FetchOptions['keys'] => ({ publicKey: k.publicKey, privateKey: k.privateKey });
const call = (method: string, path: string, options: FetchOptions = {}) =>
  digestFetch(sim, method, path, options);
const fixtures = () => sim.store.fixtures!;
const at = (offsetMs: number) => new Date(clock.getTime() + offsetMs).toISOString();
const HOUR = 3_600_000;

function expectError(r: DigestAnswer, status: number, errorCode: string) {
  expect({ status: r.status, errorCode: r.json?.errorCode }).toEqual({ status, errorCode });
  expect(r.json).toMatchObject({
    error: status,
    errorCode,
    detail: expect.any(String),
    reason: expect.any(String),
  });
}

/** The project's newest events of a type, straight from the API. */
async function latestEvents(type: string, global = false) {
  const path = global ? `/globalEvents?eventType=${type}` : `/groups/${projectId}/events?eventType=${type}`;
  const r = await call('GET', path);
  expect(r.status).toBe(200);
  return r.json.results as Record<string, unknown>[];
}

describe('alert configurations', () => {
  it('lists a project’s configurations, paged, with self links and masked secrets', async () => {
    const r = await call('GET', `/groups/${projectId}/alertConfigs`);
    expect(r.status).toBe(200);
    const stored = sim.store.data.alertConfigs.filter((c) => c.groupId === projectId);
    expect(r.json.totalCount).toBe(stored.length);
    expect(r.json.results).toHaveLength(stored.length);
    for (const c of r.json.results) {
      expect(c).toMatchObject({ groupId: projectId, id: expect.stringMatching(/^[0-9a-f]{24}$/) });
      expect(c.links[0]).toEqual({
        rel: 'self',
        href: `${sim.baseUrl}/groups/${projectId}/alertConfigs/${c.id}`,
      });
    }
    for (const n of stored.flatMap((c) => c.notifications)) {
      for (const key of [
        'serviceKey',
        'apiToken',
        'notificationToken',
        'webhookSecret',
        'incidentPagingBApiKey',
      ]) {
        const secret = n[key];
        if (typeof secret === 'string') expect(r.text).not.toContain(secret);
      }
    }
    expect(r.text).toContain('"webhookSecret":"******"');

    const page = await call('GET', `/groups/${projectId}/alertConfigs?pageNum=2&itemsPerPage=4`);
    expect(page.json.results).toHaveLength(Math.min(4, stored.length - 4));
    expect(page.json.totalCount).toBe(stored.length);
  });

  it('gets one configuration with its threshold kind', async () => {
    const stored = sim.store.data.alertConfigs.find((c) => c.groupId === projectId && c.threshold)!;
    const r = await call('GET', `/groups/${projectId}/alertConfigs/${stored.id}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      id: stored.id,
      eventTypeName: stored.eventTypeName,
      threshold: stored.threshold,
    });
    expect(r.json.metricThreshold).toBeUndefined();
  });

  it('tells malformed ids from unknown ones', async () => {
    expectError(await call('GET', `/groups/${projectId}/alertConfigs/nope`), 404, 'INVALID_ALERT_CONFIG_ID');
    expectError(
      await call('GET', `/groups/${projectId}/alertConfigs/${'0'.repeat(24)}`),
      404,
      'ALERT_CONFIG_NOT_FOUND',
    );
    expectError(await call('GET', '/groups/not-a-project/alertConfigs'), 404, 'INVALID_GROUP_ID');
    const unknown = 'a'.repeat(24);
    const r = await call('GET', `/groups/${unknown}/alertConfigs`);
    expectError(r, 404, 'GROUP_NOT_FOUND');
    expect(r.json.detail).toBe(`No group with ID ${unknown} exists.`);
    // A configuration of another project is not found through this one.
    const other = sim.store.data.alertConfigs.find((c) => c.groupId !== projectId)!;
    expectError(
      await call('GET', `/groups/${projectId}/alertConfigs/${other.id}`),
      404,
      'ALERT_CONFIG_NOT_FOUND',
    );
  });

  it('disables and enables, recording an audit event with the key as actor', async () => {
    const config = sim.store.data.alertConfigs.find((c) => c.groupId === projectId && c.enabled)!;
    const path = `/groups/${projectId}/alertConfigs/${config.id}`;
    const off = await call('PATCH', path, { body: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({ id: config.id, enabled: false, updated: '2026-03-01T12:00:00Z' });
    expect((await call('GET', path)).json.enabled).toBe(false);
    const [event] = await latestEvents('ALERT_CONFIG_DISABLED_AUDIT');
    expect(event).toMatchObject({
      alertConfigId: config.id,
      groupId: projectId,
      apiKeyId: expect.any(String),
      publicKey: sim.keys.publicKey,
      remoteAddress: '127.0.0.1',
      created: '2026-03-01T12:00:00Z',
    });
    expect(event!.userId).toBeUndefined();
    const on = await call('PATCH', path, { body: { enabled: true } });
    expect(on.json.enabled).toBe(true);
    expect((await latestEvents('ALERT_CONFIG_ENABLED_AUDIT'))[0]).toMatchObject({ alertConfigId: config.id });
  });

  it('accepts the record sent back but changes only enabled', async () => {
    const config = sim.store.data.alertConfigs.find((c) => c.groupId === projectId)!;
    const path = `/groups/${projectId}/alertConfigs/${config.id}`;
    const record = (await call('GET', path)).json;
    const r = await call('PATCH', path, {
      body: { ...record, eventTypeName: 'HOST_DOWN', enabled: record.enabled },
    });
    expect(r.status).toBe(200);
    expect(r.json.eventTypeName).toBe(config.eventTypeName);
  });

  it('validates the body', async () => {
    const config = sim.store.data.alertConfigs.find((c) => c.groupId === projectId)!;
    const path = `/groups/${projectId}/alertConfigs/${config.id}`;
    expectError(await call('PATCH', path, { body: {} }), 400, 'MISSING_ATTRIBUTE');
    expectError(await call('PATCH', path, { body: { enabled: 'no' } }), 400, 'INVALID_JSON_ATTRIBUTE');
    const unknown = await call('PATCH', path, { body: { enabled: true, colour: 'red' } });
    expectError(unknown, 400, 'INVALID_ATTRIBUTE');
    expect(unknown.json.detail).toBe('Invalid attribute colour specified.');
    const interval = await call('PATCH', path, {
      body: { enabled: true, notifications: [{ typeName: 'EMAIL', intervalMin: 1, delayMin: 0 }] },
    });
    expectError(interval, 400, 'NOTIFICATION_INTERVAL_OUT_OF_RANGE');
  });

  it('needs a monitoring role to change and membership to read', async () => {
    const config = sim.store.data.alertConfigs.find((c) => c.groupId === projectId)!;
    const path = `/groups/${projectId}/alertConfigs/${config.id}`;
    expect((await call('GET', path, { keys: as(fixtures().readOnly) })).status).toBe(200);
    const denied = await call('PATCH', path, { body: { enabled: false }, keys: as(fixtures().readOnly) });
    expectError(denied, 401, 'USER_UNAUTHORIZED');
    expect(denied.json.detail).toBe('Current user is not authorized to perform this action.');
    expectError(await call('GET', path, { keys: as(fixtures().notInProject) }), 401, 'NOT_IN_GROUP');
    expect((await call('GET', path, { keys: as(fixtures().globalReadOnly) })).status).toBe(200);
    const patched = await call('PATCH', path, {
      body: { enabled: true },
      keys: as(fixtures().monitoringAdmin),
    });
    expect(patched.status).toBe(200);
  });

  it('lists the matcher field names to any key', async () => {
    const r = await call('GET', '/alertConfigs/matchers/fieldNames', { keys: as(fixtures().globalReadOnly) });
    expect(r.status).toBe(200);
    expect(r.json).toEqual([
      'TYPE_NAME',
      'HOSTNAME',
      'PORT',
      'HOSTNAME_AND_PORT',
      'REPLICA_SET_NAME',
      'SHARD_NAME',
      'CLUSTER_NAME',
    ]);
  });
});

describe('project alerts', () => {
  it('lists the open alerts of a configuration', async () => {
    const config = sim.store.data.alertConfigs.find(
      (c) =>
        c.groupId === projectId &&
        sim.store.data.alerts.some((a) => a.alertConfigId === c.id && a.status === 'OPEN'),
    )!;
    const r = await call('GET', `/groups/${projectId}/alertConfigs/${config.id}/alerts`);
    expect(r.status).toBe(200);
    const expected = sim.store.data.alerts.filter(
      (a) => a.alertConfigId === config.id && a.status === 'OPEN',
    );
    expect(r.json.totalCount).toBe(expected.length);
    for (const a of r.json.results)
      expect(a).toMatchObject({ alertConfigId: config.id, status: 'OPEN', groupId: projectId });
  });

  it('lists alerts by status and gets one (beyond the spec)', async () => {
    const all = await call('GET', `/groups/${projectId}/alerts`);
    expect(all.json.totalCount).toBe(sim.store.data.alerts.filter((a) => a.groupId === projectId).length);
    const closed = await call('GET', `/groups/${projectId}/alerts?status=CLOSED`);
    expect(closed.json.results.length).toBeGreaterThan(0);
    for (const a of closed.json.results) {
      expect(a.status).toBe('CLOSED');
      expect(a.resolved).toEqual(expect.any(String));
    }
    expectError(await call('GET', `/groups/${projectId}/alerts?status=SNOOZED`), 400, 'INVALID_ENUM_VALUE');
    const one = closed.json.results[0];
    const r = await call('GET', `/groups/${projectId}/alerts/${one.id}`);
    expect(r.json).toEqual(one);
    expectError(await call('GET', `/groups/${projectId}/alerts/xyz`), 404, 'INVALID_ALERT_ID');
    expectError(await call('GET', `/groups/${projectId}/alerts/${'f'.repeat(24)}`), 404, 'ALERT_NOT_FOUND');
  });

  it('acknowledges until a time, then reverts by itself when the time passes', async () => {
    const alert = sim.store.data.alerts.find((a) => a.groupId === projectId && a.status === 'OPEN')!;
    const path = `/groups/${projectId}/alerts/${alert.id}`;
    const until = at(2 * HOUR);
    const r = await call('PATCH', path, {
      body: { acknowledgedUntil: until, acknowledgementComment: 'deploying fix' },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      id: alert.id,
      acknowledgedUntil: until.replace('.000Z', 'Z'),
      acknowledgingUsername: sim.keys.publicKey,
      acknowledgementComment: 'deploying fix',
    });
    expect((await latestEvents('ALERT_ACKNOWLEDGED_AUDIT'))[0]).toMatchObject({
      alertId: alert.id,
      alertConfigId: alert.alertConfigId,
      publicKey: sim.keys.publicKey,
    });

    clock = new Date(START.getTime() + 3 * HOUR);
    try {
      const later = await call('GET', path);
      expect(later.json.acknowledgedUntil).toBeUndefined();
      expect(later.json.acknowledgingUsername).toBeUndefined();
      expect(later.json.acknowledgementComment).toBeUndefined();
    } finally {
      clock = START;
    }
  });

  it('un-acknowledges when acknowledgedUntil is omitted', async () => {
    const alert = sim.store.data.alerts.find((a) => a.groupId === projectId && a.status === 'OPEN')!;
    const path = `/groups/${projectId}/alerts/${alert.id}`;
    await call('PATCH', path, { body: { acknowledgedUntil: at(100 * 365 * 24 * HOUR) } });
    const r = await call('PATCH', path, { body: {} });
    expect(r.status).toBe(200);
    expect(r.json.acknowledgedUntil).toBeUndefined();
    expect(r.json.acknowledgingUsername).toBeUndefined();
    expect(alert.acknowledgedUntil).toBeUndefined();
    expect((await latestEvents('ALERT_UNACKNOWLEDGED_AUDIT'))[0]).toMatchObject({ alertId: alert.id });
  });

  it('names the key’s user as acknowledger when the key has one', async () => {
    const f = fixtures().monitoringAdmin;
    const key = sim.store.findApiKey(f.publicKey)!;
    const marcus = sim.store.data.users.find((u) => u.username === 'marcus.chen@example.com')!;
    key.userId = marcus.id;
    try {
      const alert = sim.store.data.alerts.find((a) => a.groupId === projectId && a.status === 'OPEN')!;
      const r = await call('PATCH', `/groups/${projectId}/alerts/${alert.id}`, {
        body: { acknowledgedUntil: at(HOUR) },
        keys: as(f),
      });
      expect(r.status).toBe(200);
      expect(r.json.acknowledgingUsername).toBe(marcus.username);
    } finally {
      delete key.userId;
    }
  });

  it('rejects long comments, bad timestamps and readers', async () => {
    const alert = sim.store.data.alerts.find((a) => a.groupId === projectId && a.status === 'OPEN')!;
    const path = `/groups/${projectId}/alerts/${alert.id}`;
    const long = await call('PATCH', path, {
      body: { acknowledgedUntil: at(HOUR), acknowledgementComment: 'x'.repeat(201) },
    });
    expectError(long, 400, 'ACKNOWLEDGEMENT_COMMENT_TOO_LONG');
    const ok = await call('PATCH', path, {
      body: { acknowledgedUntil: at(HOUR), acknowledgementComment: 'x'.repeat(200) },
    });
    expect(ok.status).toBe(200);
    expectError(
      await call('PATCH', path, { body: { acknowledgedUntil: 'soon' } }),
      400,
      'INVALID_JSON_ATTRIBUTE',
    );
    const reader = await call('PATCH', path, {
      body: { acknowledgedUntil: at(HOUR) },
      keys: as(fixtures().readOnly),
    });
    expectError(reader, 401, 'USER_UNAUTHORIZED');
    expectError(
      await call('PATCH', `/groups/${projectId}/alerts/bad`, { body: {} }),
      404,
      'INVALID_ALERT_ID',
    );
  });
});

describe('global alerts', () => {
  it('lists global alert configurations (beyond the spec) to global alerting roles only', async () => {
    const r = await call('GET', '/globalAlertConfigs');
    expect(r.status).toBe(200);
    expect(r.json.totalCount).toBe(sim.store.data.globalAlertConfigs.length);
    const first = r.json.results[0];
    expect(first.links[0].href).toBe(`${sim.baseUrl}/globalAlertConfigs/${first.id}`);
    expect((await call('GET', `/globalAlertConfigs/${first.id}`)).json).toEqual(first);
    expectError(
      await call('GET', '/globalAlertConfigs', { keys: as(fixtures().globalReadOnly) }),
      401,
      'USER_UNAUTHORIZED',
    );
  });

  it('lists the open alerts of a global configuration', async () => {
    const config = sim.store.data.globalAlertConfigs[0]!;
    const r = await call('GET', `/globalAlertConfigs/${config.id}/alerts`);
    expect(r.status).toBe(200);
    expect(r.json.results.length).toBeGreaterThan(0);
    for (const a of r.json.results) {
      expect(a).toMatchObject({ alertConfigId: config.id, status: 'OPEN' });
      expect(a.links[0].href).toBe(`${sim.baseUrl}/globalAlerts/${a.id}`);
    }
    const unknown = await call('GET', `/globalAlertConfigs/${'b'.repeat(24)}/alerts`);
    expectError(unknown, 404, 'GLOBAL_ALERT_CONFIG_NOT_FOUND');
    expectError(
      await call('GET', `/globalAlertConfigs/${config.id}/alerts`, { keys: as(fixtures().readOnly) }),
      401,
      'USER_UNAUTHORIZED',
    );
  });

  it('acknowledges with 201, requires the time, un-acknowledges with a past time, and expires', async () => {
    const alert = sim.store.data.globalAlerts.find((a) => a.status === 'OPEN')!;
    const path = `/globalAlerts/${alert.id}`;
    expectError(
      await call('PATCH', path, { body: { acknowledgementComment: 'x' } }),
      400,
      'MISSING_ATTRIBUTE',
    );
    const acked = await call('PATCH', path, {
      body: { acknowledgedUntil: at(HOUR), acknowledgementComment: 'on it' },
    });
    expect(acked.status).toBe(201);
    expect(acked.json).toMatchObject({
      acknowledgingUsername: sim.keys.publicKey,
      acknowledgementComment: 'on it',
    });
    expect((await latestEvents('ALERT_ACKNOWLEDGED_AUDIT', true))[0]).toMatchObject({
      alertId: alert.id,
      publicKey: sim.keys.publicKey,
    });

    clock = new Date(START.getTime() + 2 * HOUR);
    try {
      expect((await call('GET', path)).json.acknowledgedUntil).toBeUndefined();
    } finally {
      clock = START;
    }
    expect((await call('GET', path)).json.acknowledgedUntil).toEqual(expect.any(String));
    const past = await call('PATCH', path, { body: { acknowledgedUntil: at(-HOUR) } });
    expect(past.status).toBe(201);
    expect(past.json.acknowledgedUntil).toBeUndefined();
    expect((await latestEvents('ALERT_UNACKNOWLEDGED_AUDIT', true))[0]).toMatchObject({ alertId: alert.id });
  });

  it('refuses keys without a global alerting role and unknown alerts', async () => {
    const alert = sim.store.data.globalAlerts[0]!;
    const body = { acknowledgedUntil: at(HOUR) };
    const denied = await call('PATCH', `/globalAlerts/${alert.id}`, {
      body,
      keys: as(fixtures().globalReadOnly),
    });
    expectError(denied, 401, 'USER_UNAUTHORIZED');
    expectError(await call('PATCH', `/globalAlerts/${'c'.repeat(24)}`, { body }), 404, 'ALERT_NOT_FOUND');
    expectError(await call('GET', '/globalAlerts/zzz'), 404, 'INVALID_ALERT_ID');
  });
});
