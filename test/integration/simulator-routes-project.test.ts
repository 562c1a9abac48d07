// The simulator's project-scoped routes over loopback HTTP with digest auth: projects, maintenance windows,
// integrations, agents, automation status, hosts and disks, project and global events.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureKey } from '../../src/simulator/records.js';
import { INTEGRATION_FIELDS } from '../../src/vocabulary/index.js';
import {
  type DigestAnswer,
  digestFetch,
  type FetchOptions,
  type Simulator,
  startTestSimulator,
} from '../helpers/sim.js';

const START = new Date('2026-03-01T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let clock = START;
let sim: Simulator;
let payments: string;
let search: string;
let analytics: string;

beforeAll(async () => {
  sim = await startTestSimulator({ now: () => clock });
  [payments, search, analytics] = sim.projectIds as [string, string, string];
});
afterAll(() => sim.close());

const as = (k: FixtureKey): FetchOptions['keys'] => ({ publicKey: k.publicKey, privateKey: k.privateKey });
const call = (method: string, path: string, options: FetchOptions = {}) =>
  digestFetch(sim, method, path, options);
const f = () => sim.store.fixtures!;
const iso = (offsetMs: number) => new Date(clock.getTime() + offsetMs).toISOString().replace('.000Z', 'Z');

function expectError(r: DigestAnswer, status: number, errorCode: string) {
  expect({ status: r.status, errorCode: r.json?.errorCode }).toEqual({ status, errorCode });
}

async function newest(projectId: string, type: string) {
  const r = await call('GET', `/groups/${projectId}/events?eventType=${type}`);
  return r.json.results[0] as Record<string, unknown> | undefined;
}

describe('projects (beyond the spec)', () => {
  it('lists the projects a key can see', async () => {
    const all = await call('GET', '/groups');
    expect(all.status).toBe(200);
    expect(all.json.results.map((p: { id: string }) => p.id)).toEqual(sim.projectIds);
    expect(all.json.results[0]).toMatchObject({
      name: 'payments-prod',
      orgId: sim.orgId,
      replicaSetCount: 2,
    });
    const reader = await call('GET', '/groups', { keys: as(f().readOnly) });
    expect(reader.json.results.map((p: { id: string }) => p.id)).toEqual([payments]);
    const outsider = await call('GET', '/groups', { keys: as(f().notInProject) });
    expect(outsider.json.totalCount).toBe(2);
  });

  it('gets one project to its members', async () => {
    const r = await call('GET', `/groups/${analytics}`);
    expect(r.json).toMatchObject({
      id: analytics,
      name: 'analytics-prod',
      hostCounts: { mongos: 2, config: 3 },
    });
    expect(r.json.links[0].href).toBe(`${sim.baseUrl}/groups/${analytics}`);
    expectError(
      await call('GET', `/groups/${payments}`, { keys: as(f().notInProject) }),
      401,
      'NOT_IN_GROUP',
    );
  });
});

describe('maintenance windows', () => {
  const windowsOf = (projectId: string) =>
    sim.store.data.maintenanceWindows.filter((w) => w.groupId === projectId);
  const active = () =>
    windowsOf(payments).find(
      (w) => Date.parse(w.startDate) < clock.getTime() && Date.parse(w.endDate) > clock.getTime(),
    )!;
  const path = (id: string, projectId = payments) => `/groups/${projectId}/maintenanceWindows/${id}`;

  it('reads a window while its end is ahead, with description only when set', async () => {
    const w = active();
    const r = await call('GET', path(w.id), { keys: as(f().readOnly) });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      id: w.id,
      groupId: payments,
      created: w.created,
      updated: w.updated,
      startDate: w.startDate,
      endDate: w.endDate,
      alertTypeNames: w.alertTypeNames,
      description: w.description,
      links: [{ rel: 'self', href: `${sim.baseUrl}${path(w.id)}` }],
    });
    const bare = windowsOf(analytics).find(
      (w) => w.description === undefined && Date.parse(w.endDate) > clock.getTime(),
    )!;
    const plain = await call('GET', path(bare.id, analytics));
    expect(plain.status).toBe(200);
    expect('description' in plain.json).toBe(false);
  });

  it('hides windows that ended, and tells malformed ids from unknown ones', async () => {
    const past = windowsOf(payments).find((w) => Date.parse(w.endDate) < clock.getTime())!;
    expectError(await call('GET', path(past.id)), 404, 'MAINTENANCE_WINDOW_NOT_FOUND');
    expectError(
      await call('PATCH', path(past.id), { body: { alertTypeNames: ['HOST'] } }),
      404,
      'MAINTENANCE_WINDOW_NOT_FOUND',
    );
    expectError(await call('DELETE', path(past.id)), 404, 'MAINTENANCE_WINDOW_NOT_FOUND');
    expectError(await call('GET', path('w1')), 404, 'INVALID_WINDOW_ID');
    expectError(await call('GET', path('0'.repeat(24))), 404, 'MAINTENANCE_WINDOW_NOT_FOUND');
  });

  it('updates with 201 and an audit event; needs one of the three fields and dates in order', async () => {
    const w = active();
    expectError(await call('PATCH', path(w.id), { body: {} }), 400, 'MISSING_ATTRIBUTE');
    expectError(
      await call('PATCH', path(w.id), { body: { description: 'only this' } }),
      400,
      'MISSING_ATTRIBUTE',
    );
    const reversed = await call('PATCH', path(w.id), { body: { startDate: iso(5 * HOUR) } });
    expectError(reversed, 400, 'MAINTENANCE_WINDOW_START_DATE_AFTER_END_DATE');
    expectError(
      await call('PATCH', path(w.id), { body: { alertTypeNames: ['TOASTER'] } }),
      400,
      'INVALID_ENUM_VALUE',
    );
    expectError(
      await call('PATCH', path(w.id), { body: { endDate: 'later' } }),
      400,
      'INVALID_JSON_ATTRIBUTE',
    );
    expectError(
      await call('PATCH', path(w.id), { body: { alertTypeNames: ['HOST'] }, keys: as(f().readOnly) }),
      401,
      'USER_UNAUTHORIZED',
    );

    const end = iso(6 * HOUR);
    const r = await call('PATCH', path(w.id), {
      body: { endDate: end, alertTypeNames: ['HOST', 'AGENT'], description: 'Extended' },
      keys: as(f().monitoringAdmin),
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      endDate: end,
      alertTypeNames: ['HOST', 'AGENT'],
      description: 'Extended',
    });
    expect(await newest(payments, 'MAINTENANCE_WINDOW_CHANGED_AUDIT')).toMatchObject({
      maintenanceWindowId: w.id,
      publicKey: f().monitoringAdmin.publicKey,
    });
  });

  it('is gone once its end has passed', async () => {
    const w = active();
    clock = new Date(Date.parse(w.endDate) + 1000);
    try {
      expectError(await call('GET', path(w.id)), 404, 'MAINTENANCE_WINDOW_NOT_FOUND');
    } finally {
      clock = START;
    }
  });

  it('lists current windows and creates one (beyond the spec)', async () => {
    const list = await call('GET', `/groups/${payments}/maintenanceWindows`);
    expect(list.status).toBe(200);
    for (const w of list.json.results) expect(Date.parse(w.endDate)).toBeGreaterThan(clock.getTime());
    const before = list.json.totalCount;
    const body = { startDate: iso(DAY), endDate: iso(DAY + 2 * HOUR), alertTypeNames: ['REPLICA_SET'] };
    const created = await call('POST', `/groups/${payments}/maintenanceWindows`, { body });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({
      ...body,
      groupId: payments,
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
    expect('description' in created.json).toBe(false);
    expect((await call('GET', `/groups/${payments}/maintenanceWindows`)).json.totalCount).toBe(before + 1);
    expect(await newest(payments, 'MAINTENANCE_WINDOW_ADDED_AUDIT')).toMatchObject({
      maintenanceWindowId: created.json.id,
    });
    const { alertTypeNames: _, ...noTypes } = body;
    expectError(
      await call('POST', `/groups/${payments}/maintenanceWindows`, { body: noTypes }),
      400,
      'MISSING_ATTRIBUTE',
    );
    expectError(
      await call('POST', `/groups/${payments}/maintenanceWindows`, {
        body: { ...body, endDate: body.startDate },
      }),
      400,
      'MAINTENANCE_WINDOW_START_DATE_AFTER_END_DATE',
    );
  });

  it('deletes with 204 and no body, after which the window is not found', async () => {
    const w = windowsOf(search).find((x) => Date.parse(x.startDate) > clock.getTime())!;
    expectError(await call('DELETE', path(w.id, search), { keys: as(f().readOnly) }), 401, 'NOT_IN_GROUP');
    const r = await call('DELETE', path(w.id, search));
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expectError(await call('GET', path(w.id, search)), 404, 'MAINTENANCE_WINDOW_NOT_FOUND');
    expectError(await call('DELETE', path(w.id, search)), 404, 'MAINTENANCE_WINDOW_NOT_FOUND');
    expect(await newest(search, 'MAINTENANCE_WINDOW_DELETED_AUDIT')).toMatchObject({
      maintenanceWindowId: w.id,
    });
  });
});

describe('integrations', () => {
  const put = (projectId: string, type: string, body: unknown, options: FetchOptions = {}) =>
    call('PUT', `/groups/${projectId}/integrations/${type}`, { body, ...options });
  const stored = (projectId: string, type: string) =>
    sim.store.data.integrations.find((i) => i.groupId === projectId && i.type === type);

  it('adds a configuration and answers with the whole masked list', async () => {
    const secret = 'whsec-0123456789abcdef';
    const r = await put(search, 'WEBHOOK', {
      type: 'WEBHOOK',
      url: 'https://hooks.example.org/in/abcdef123456',
      secret,
    });
    expect(r.status).toBe(200);
    const count = sim.store.data.integrations.filter((i) => i.groupId === search).length;
    expect(r.json.totalCount).toBe(count);
    expect(r.json.links[0].rel).toBe('self');
    const hook = r.json.results.find((i: { type: string }) => i.type === 'WEBHOOK');
    expect(hook).toEqual({ type: 'WEBHOOK', url: 'https://hooks.example.org/******3456', secret: '******' });
    expect(r.text).not.toContain(secret);
    expect(stored(search, 'WEBHOOK')!.fields.secret).toBe(secret);
    expect(await newest(search, 'INTEGRATION_CONFIGURED')).toMatchObject({ integrationType: 'WEBHOOK' });
  });

  it('updates changed fields of an existing configuration', async () => {
    const key = '0123456789abcdef0123456789abcdef';
    const r = await put(payments, 'INCIDENT_PAGING_A', { type: 'INCIDENT_PAGING_A', serviceKey: key });
    expect(r.status).toBe(200);
    expect(r.json.results).toContainEqual({ type: 'INCIDENT_PAGING_A', serviceKey: '******cdef' });
    expect(stored(payments, 'INCIDENT_PAGING_A')!.fields.serviceKey).toBe(key);
    expect(await newest(payments, 'INTEGRATION_UPDATED')).toMatchObject({
      integrationType: 'INCIDENT_PAGING_A',
    });
  });

  it('checks type, required and unknown fields', async () => {
    expectError(
      await put(payments, 'WEBHOOK', { type: 'TEAM_CHAT_A', url: 'https://x.example/y' }),
      400,
      'INVALID_JSON_ATTRIBUTE',
    );
    expectError(await put(payments, 'WEBHOOK', { url: 'https://x.example/y' }), 400, 'MISSING_ATTRIBUTE');
    expectError(await put(payments, 'CARRIER_PIGEON', { type: 'CARRIER_PIGEON' }), 400, 'INVALID_ENUM_VALUE');
    expectError(
      await put(analytics, 'TEAM_CHAT_A', { type: 'TEAM_CHAT_A', notificationToken: 'abc' }),
      400,
      'MISSING_ATTRIBUTE',
    );
    expectError(
      await put(analytics, 'MONITORING_SAAS', {
        type: 'MONITORING_SAAS',
        apiKey: 'k'.repeat(32),
        site: 'eu',
      }),
      400,
      'INVALID_ATTRIBUTE',
    );
  });

  it('requires exactly the fields the spec requires, for every type with documented fields', async () => {
    const valid: Record<string, unknown> = {
      enabled: true,
      listenAddress: '0.0.0.0:9216',
      scheme: 'http',
      serviceDiscovery: 'file',
    };
    let checked = 0;
    for (const [type, fields] of Object.entries(INTEGRATION_FIELDS)) {
      if (fields === null) continue;
      // Fields merge with an existing configuration, so use a project that has none of this type.
      const project = sim.projectIds.find((id) => stored(id, type) === undefined);
      if (project === undefined) continue;
      const body = Object.fromEntries(fields.required.map((name) => [name, valid[name] ?? `${name}-1`]));
      for (const name of fields.required) {
        const { [name]: _left, ...rest } = body;
        const r = await put(project, type, { type, ...rest });
        expectError(r, 400, 'MISSING_ATTRIBUTE');
        expect(r.json.parameters).toEqual([name]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('refuses the EU region, for want of its URL setting', async () => {
    const r = await put(analytics, 'INCIDENT_PAGING_B', {
      type: 'INCIDENT_PAGING_B',
      apiKey: 'k'.repeat(32),
      region: 'EU',
    });
    expectError(r, 400, 'INVALID_JSON_ATTRIBUTE');
    expect(r.json.detail).toMatch(/EU region/);
    const us = await put(analytics, 'INCIDENT_PAGING_B', {
      type: 'INCIDENT_PAGING_B',
      apiKey: 'k'.repeat(32),
      region: 'US',
    });
    expect(us.status).toBe(200);
  });

  it('needs an absolute PEM path for an https scraper and never returns its password', async () => {
    const scraper = {
      type: 'METRICS_SCRAPER',
      username: 'prom',
      password: 'scrape-secret-1',
      listenAddress: '0.0.0.0:9216',
      serviceDiscovery: 'file',
      scheme: 'https',
      enabled: true,
    };
    expectError(await put(payments, 'METRICS_SCRAPER', scraper), 400, 'MISSING_ATTRIBUTE');
    expectError(
      await put(payments, 'METRICS_SCRAPER', { ...scraper, tlsPemPath: 'certs/x.pem' }),
      400,
      'INVALID_JSON_ATTRIBUTE',
    );
    expectError(
      await put(payments, 'METRICS_SCRAPER', { ...scraper, listenAddress: 'everywhere' }),
      400,
      'INVALID_JSON_ATTRIBUTE',
    );
    expectError(
      await put(payments, 'METRICS_SCRAPER', { ...scraper, scheme: 'ftp' }),
      400,
      'INVALID_ENUM_VALUE',
    );
    const r = await put(payments, 'METRICS_SCRAPER', { ...scraper, scheme: 'http' });
    expect(r.status).toBe(200);
    const shown = r.json.results.find((i: { type: string }) => i.type === 'METRICS_SCRAPER');
    expect(shown).toEqual({
      type: 'METRICS_SCRAPER',
      username: 'prom',
      listenAddress: '0.0.0.0:9216',
      serviceDiscovery: 'file',
      scheme: 'http',
      enabled: true,
    });
    expect(r.text).not.toContain('scrape-secret-1');
  });

  it('reconfigures a legacy chat integration only with a team name', async () => {
    const token = { type: 'TEAM_CHAT_B', apiToken: 'xoxb-new-token-9876' };
    expectError(await put(search, 'TEAM_CHAT_B', token), 400, 'MISSING_ATTRIBUTE');
    const r = await put(search, 'TEAM_CHAT_B', { ...token, teamName: 'search-team' });
    expect(r.status).toBe(200);
    expect(r.json.results).toContainEqual({
      type: 'TEAM_CHAT_B',
      apiToken: '******9876',
      teamName: 'search-team',
      channelName: '',
    });
  });

  it('belongs to project owners; lists them masked (beyond the spec)', async () => {
    const body = { type: 'MONITORING_SAAS', apiKey: 'k'.repeat(32) };
    expectError(
      await put(payments, 'MONITORING_SAAS', body, { keys: as(f().monitoringAdmin) }),
      401,
      'USER_UNAUTHORIZED',
    );
    const list = await call('GET', `/groups/${analytics}/integrations`);
    expect(list.status).toBe(200);
    expect(list.json.results.map((i: { type: string }) => i.type)).toContain('METRICS_SCRAPER');
    for (const i of sim.store.data.integrations.filter((x) => x.groupId === analytics)) {
      for (const [name, value] of Object.entries(i.fields)) {
        if (['apiKey', 'password', 'tlsPemPassword'].includes(name))
          expect(list.text).not.toContain(String(value));
      }
    }
  });
});

describe('agents', () => {
  it('links to the agent resources', async () => {
    const r = await call('GET', `/groups/${payments}/agents`);
    expect(r.status).toBe(200);
    const base = `${sim.baseUrl}/groups/${payments}`;
    const byRel = Object.fromEntries(r.json.links.map((l: { rel: string; href: string }) => [l.rel, l.href]));
    expect(byRel.self).toBe(`${base}/agents`);
    const suffix = (s: string) => Object.entries(byRel).find(([rel]) => rel.endsWith(`/${s}`))?.[1];
    expect(suffix('group')).toBe(base);
    expect(suffix('monitoringAgents')).toBe(`${base}/agents/MONITORING`);
    expect(suffix('backupAgents')).toBe(`${base}/agents/BACKUP`);
    expect(suffix('automationAgents')).toBe(`${base}/agents/AUTOMATION`);
  });

  it('lists agents of a type with that type’s fields', async () => {
    const monitoring = await call('GET', `/groups/${payments}/agents/MONITORING`);
    expect(monitoring.json.results.length).toBeGreaterThan(0);
    for (const a of monitoring.json.results) {
      expect(a).toMatchObject({
        typeName: 'MONITORING',
        pingCount: expect.any(Number),
        lastPing: expect.any(String),
        isManaged: true,
      });
    }
    const automation = await call('GET', `/groups/${payments}/agents/AUTOMATION`);
    expect(automation.json.totalCount).toBe(
      sim.store.data.hosts.filter((h) => h.groupId === payments).length,
    );
    for (const a of automation.json.results) {
      expect(Object.keys(a).sort()).toEqual(['confCount', 'hostname', 'lastConf', 'stateName', 'typeName']);
    }
    const backup = await call('GET', `/groups/${payments}/agents/BACKUP`);
    expect(backup.json.results.map((a: { stateName: string }) => a.stateName).sort()).toEqual([
      'ACTIVE',
      'STANDBY',
    ]);
    expectError(await call('GET', `/groups/${payments}/agents/CHEF`), 400, 'INVALID_AGENT_TYPE_NAME');
  });
});

describe('automation status', () => {
  it('shows the goal version and processes, behind-goal ones with plans and errors', async () => {
    const r = await call('GET', `/groups/${payments}/automationStatus/full`);
    expect(r.status).toBe(200);
    expect(r.json.goalVersion).toBe(57);
    const failing = r.json.processes.find((p: { errorCode: number }) => p.errorCode !== 0);
    expect(failing).toMatchObject({
      name: 'rs-ledger_2',
      lastGoalVersionAchieved: 56,
      plan: ['Download', 'Start', 'WaitRsInit'],
      errorCodeHumanReadable: expect.any(String),
      errorString: expect.stringContaining('exit status 48'),
    });
    const atGoal = r.json.processes.find(
      (p: { lastGoalVersionAchieved: number }) => p.lastGoalVersionAchieved === 57,
    );
    expect(atGoal).toMatchObject({ plan: [], errorCode: 0, errorCodeDescription: '', errorString: '' });
    expect(r.text).not.toContain('planUpdated');
  });

  it('returns at most the 50 most recent plans', async () => {
    const status = sim.store.data.automation.find((a) => a.groupId === analytics)!;
    const saved = status.processes;
    status.processes = [
      ...saved,
      ...Array.from({ length: 60 }, (_, i) => ({
        ...saved[0]!,
        name: `extra_${i}`,
        plan: ['Download'],
        lastGoalVersionAchieved: status.goalVersion - 1,
        planUpdated: new Date(START.getTime() - (i + 1) * 1000).toISOString(),
      })),
    ];
    try {
      const r = await call('GET', `/groups/${analytics}/automationStatus/full`);
      const planned = r.json.processes.filter((p: { plan: string[] }) => p.plan.length > 0);
      expect(planned).toHaveLength(50);
      const names = planned.map((p: { name: string }) => p.name);
      expect(names).toContain('extra_0');
      expect(names).not.toContain('extra_59');
      expect(r.json.processes.length - planned.length).toBe(saved.filter((p) => p.plan.length === 0).length);
    } finally {
      status.processes = saved;
    }
  });
});

describe('hosts and disks', () => {
  it('lists hosts and gets one (beyond the spec)', async () => {
    const r = await call('GET', `/groups/${payments}/hosts`);
    expect(r.json.totalCount).toBe(6);
    const host = r.json.results[0];
    expect(host).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      hostname: 'db-prod-01.example.internal',
      port: 27017,
      typeName: 'REPLICA_PRIMARY',
      replicaSetName: 'rs-payments',
      clusterId: expect.any(String),
      created: expect.any(String),
      lastPing: expect.any(String),
    });
    expect((await call('GET', `/groups/${payments}/hosts/${host.id}`)).json).toEqual(host);
  });

  it("lists a host's disk partitions (beyond the spec)", async () => {
    const host = sim.store.data.hosts.find((h) => h.groupId === payments)!;
    const r = await call('GET', `/groups/${payments}/hosts/${host.id}/disks`);
    expect(r.status).toBe(200);
    expect(r.json.totalCount).toBe(host.disks.length);
    expect(r.json.results.map((d: { partitionName: string }) => d.partitionName)).toEqual(host.disks);
    expectError(
      await call('GET', `/groups/${payments}/hosts/${'0'.repeat(32)}/disks`),
      404,
      'HOST_NOT_FOUND',
    );
  });

  it('gets a disk partition of a host', async () => {
    const host = sim.store.data.hosts.find((h) => h.groupId === payments)!;
    const r = await call('GET', `/groups/${payments}/hosts/${host.id}/disks/nvme0n1`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      partitionName: 'nvme0n1',
      links: [{ rel: 'self', href: `${sim.baseUrl}/groups/${payments}/hosts/${host.id}/disks/nvme0n1` }],
    });
    expectError(
      await call('GET', `/groups/${payments}/hosts/${host.id}/disks/sdz9`),
      404,
      'DEVICE_NOT_FOUND',
    );
    expectError(
      await call('GET', `/groups/${payments}/hosts/${'0'.repeat(32)}/disks/nvme0n1`),
      404,
      'HOST_NOT_FOUND',
    );
    expectError(await call('GET', `/groups/${search}/hosts/${host.id}/disks/nvme0n1`), 404, 'HOST_NOT_FOUND');
  });
});

describe('events', () => {
  const projectEvents = (projectId: string) => sim.store.data.events.filter((e) => e.groupId === projectId);

  it('lists project events newest first, paged, without raw unless asked', async () => {
    const r = await call('GET', `/groups/${payments}/events?itemsPerPage=50`);
    expect(r.status).toBe(200);
    expect(r.json.totalCount).toBe(projectEvents(payments).length);
    expect(r.json.results).toHaveLength(50);
    const created = r.json.results.map((e: { created: string }) => e.created);
    expect(created).toEqual([...created].sort().reverse());
    expect(r.json.links.map((l: { rel: string }) => l.rel)).toContain('next');
    expect(r.json.results[0].raw).toBeUndefined();
    expect(r.json.results[0].links[0].href).toBe(
      `${sim.baseUrl}/groups/${payments}/events/${r.json.results[0].id}`,
    );
    const raw = await call('GET', `/groups/${payments}/events?itemsPerPage=5&includeRaw=true`);
    for (const e of raw.json.results) expect(e.raw).toMatchObject({ cid: payments, et: e.eventTypeName });
    expectError(
      await call('GET', `/groups/${payments}/events?includeRaw=maybe`),
      400,
      'INVALID_QUERY_PARAMETER',
    );
  });

  it('filters by type (repeated or comma-separated) and by dates inclusively', async () => {
    const types = ['DATA_EXPLORER', 'DATA_EXPLORER_CRUD', 'HOST_DOWN'];
    const expected = projectEvents(payments).filter((e) => types.includes(e.eventTypeName)).length;
    const repeated = await call(
      'GET',
      `/groups/${payments}/events?eventType=DATA_EXPLORER&eventType=DATA_EXPLORER_CRUD,HOST_DOWN`,
    );
    expect(repeated.json.totalCount).toBe(expected);
    expect(new Set(repeated.json.results.map((e: { eventTypeName: string }) => e.eventTypeName))).toEqual(
      new Set(types),
    );

    const all = projectEvents(payments).sort((a, b) => a.created.localeCompare(b.created));
    const min = all[10]!.created;
    const max = all[20]!.created;
    const window = await call('GET', `/groups/${payments}/events?minDate=${min}&maxDate=${max}`);
    const inRange = all.filter((e) => e.created >= min && e.created <= max).length;
    expect(window.json.totalCount).toBe(inRange);
    expect(inRange).toBeGreaterThanOrEqual(11);
    expectError(
      await call('GET', `/groups/${payments}/events?minDate=yesterday`),
      400,
      'INVALID_QUERY_PARAMETER',
    );
    expectError(
      await call('GET', `/groups/${payments}/events?maxDate=2026-02-30T99:00:00Z`),
      400,
      'INVALID_QUERY_PARAMETER',
    );
  });

  it('gets one project event', async () => {
    const event = projectEvents(payments).find((e) => Array.isArray(e.diffs))!;
    const r = await call('GET', `/groups/${payments}/events/${event.id}?includeRaw=true`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      id: event.id,
      eventTypeName: event.eventTypeName,
      diffs: event.diffs,
      raw: event.raw,
    });
    expect((await call('GET', `/groups/${payments}/events/${event.id}`)).json.raw).toBeUndefined();
    expectError(await call('GET', `/groups/${payments}/events/e1`), 404, 'INVALID_EVENT_ID');
    expectError(await call('GET', `/groups/${search}/events/${event.id}`), 404, 'EVENT_NOT_FOUND');
    expectError(
      await call('GET', `/groups/${payments}/events`, { keys: as(f().notInProject) }),
      401,
      'NOT_IN_GROUP',
    );
  });

  it('lists global events to global roles, ignoring includeRaw, and gets one', async () => {
    const r = await call('GET', '/globalEvents?includeRaw=true&eventType=SUCCESSFUL_LOGIN_AUDIT', {
      keys: as(f().globalReadOnly),
    });
    expect(r.status).toBe(200);
    expect(r.json.totalCount).toBe(
      sim.store.data.globalEvents.filter((e) => e.eventTypeName === 'SUCCESSFUL_LOGIN_AUDIT').length,
    );
    for (const e of r.json.results) {
      expect(e.raw).toBeUndefined();
      expect(e).toMatchObject({
        userId: expect.any(String),
        username: expect.any(String),
        remoteAddress: expect.any(String),
      });
    }
    const one = r.json.results[0];
    expect(one.links[0].href).toBe(`${sim.baseUrl}/globalEvents/${one.id}`);
    expect((await call('GET', `/globalEvents/${one.id}`, { keys: as(f().globalReadOnly) })).json).toEqual(
      one,
    );
    expectError(await call('GET', '/globalEvents', { keys: as(f().readOnly) }), 401, 'USER_UNAUTHORIZED');
    const old = await call('GET', `/globalEvents?maxDate=${iso(-29 * DAY)}`);
    for (const e of old.json.results)
      expect(Date.parse(e.created)).toBeLessThanOrEqual(clock.getTime() - 29 * DAY);
  });
});
