// Every endpoint function of the client against the full simulator (demo dataset), over loopback: the
// calls reach the right routes, answers parse without shape warnings, paging follows the data, and the
// role, membership and not-found errors come back as ApiErrors that say what to do.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { fetchAll, iteratePages } from '../../src/api/paging.js';
import { createLogger } from '../../src/log.js';
import type { Fixtures } from '../../src/simulator/records.js';
import { type Simulator, startTestSimulator } from '../helpers/sim.js';

let sim: Simulator;
let api: ApiClient;
let fixtures: Fixtures;
let projectId: string;
const warnings: string[] = [];
const clients: ApiClient[] = [];

function clientFor(keys: { publicKey: string; privateKey: string }): ApiClient {
  const c = createApiClient({
    baseUrl: sim.baseUrl,
    ...keys,
    publicKey: keys.publicKey,
    privateKey: keys.privateKey,
  });
  clients.push(c);
  return c;
}
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as ApiError,
  );

beforeAll(async () => {
  sim = await startTestSimulator();
  fixtures = sim.store.fixtures!;
  projectId = fixtures.readOnly.projectId; // the project the narrow fixture keys are about
  api = createApiClient({
    baseUrl: sim.baseUrl,
    ...sim.keys,
    logger: createLogger('warn', (l) => warnings.push(l)),
  });
  clients.push(api);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sim.close();
  // The schemas describe what a spec-faithful server sends: not one shape surprise in the whole run.
  expect(warnings.filter((w) => w.includes('unexpected shape'))).toEqual([]);
});

describe('projects (beyond the spec)', () => {
  it('lists and reads projects', async () => {
    const page = await api.projects.list();
    expect(page.totalCount).toBe(sim.projectIds.length);
    expect(page.results.map((p) => p.id).sort()).toEqual([...sim.projectIds].sort());
    const one = await api.projects.get(projectId);
    expect(one.id).toBe(projectId);
    expect(one.name).toBeTruthy();
  });
});

describe('alert configurations and alerts', () => {
  it('lists, reads, disables and re-enables an alert configuration', async () => {
    const page = await api.alertConfigs.list(projectId);
    expect(page.totalCount).toBeGreaterThan(0);
    expect(page.links.some((l) => l.rel === 'self')).toBe(true);
    const first = page.results[0]!;
    const got = await api.alertConfigs.get(projectId, first.id);
    expect(got.id).toBe(first.id);
    expect(got.groupId).toBe(projectId);
    const off = await api.alertConfigs.setEnabled(projectId, first.id, false);
    expect(off.enabled).toBe(false);
    expect((await api.alertConfigs.get(projectId, first.id)).enabled).toBe(false);
    expect((await api.alertConfigs.setEnabled(projectId, first.id, true)).enabled).toBe(true);
  });

  it('reads matchers in both spellings', async () => {
    const all = await fetchAll((q, signal) => api.alertConfigs.list(projectId, q, { signal }));
    const matchers = all.items.flatMap((c) => c.matchers ?? []);
    expect(matchers.length).toBeGreaterThan(0);
    expect(matchers.every((m) => typeof (m.fieldName ?? m.field) === 'string')).toBe(true);
  });

  it('lists the open alerts of a configuration and the matcher field names', async () => {
    const open = await api.alerts.list(projectId, { status: 'OPEN' });
    expect(open.results.length).toBeGreaterThan(0);
    expect(open.results.every((a) => a.status === 'OPEN')).toBe(true);
    const alert = open.results[0]!;
    const forConfig = await api.alertConfigs.listOpenAlerts(projectId, alert.alertConfigId!);
    expect(forConfig.results.some((a) => a.id === alert.id)).toBe(true);
    const names = await api.alertConfigs.matcherFieldNames();
    expect(names).toEqual(expect.arrayContaining(['TYPE_NAME', 'HOSTNAME', 'REPLICA_SET_NAME']));
  });

  it('acknowledges an alert and takes the acknowledgement back', async () => {
    const alert = (await api.alerts.list(projectId, { status: 'OPEN' })).results[0]!;
    const until = future(1);
    const acked = await api.alerts.acknowledge(projectId, alert.id, {
      acknowledgedUntil: until,
      acknowledgementComment: 'disk cleanup running',
    });
    expect(acked.acknowledgementComment).toBe('disk cleanup running');
    // Servers keep timestamps to the second.
    expect(Math.abs(Date.parse(acked.acknowledgedUntil!) - Date.parse(until))).toBeLessThan(1000);
    expect((await api.alerts.get(projectId, alert.id)).acknowledgedUntil).toBeDefined();
    const un = await api.alerts.acknowledge(projectId, alert.id, {});
    expect(un.acknowledgedUntil).toBeUndefined();
  });

  it('lists global alert configurations and their alerts, reads and acknowledges a global alert', async () => {
    const configs = await api.globalAlerts.listConfigs();
    expect(configs.totalCount).toBeGreaterThan(0);
    let found: { id: string } | undefined;
    for (const config of configs.results) {
      const alerts = await api.globalAlerts.listForConfig(config.id);
      found = alerts.results[0];
      if (found) break;
    }
    expect(found).toBeDefined();
    const alert = await api.globalAlerts.get(found!.id);
    expect(alert.id).toBe(found!.id);
    const acked = await api.globalAlerts.acknowledge(found!.id, { acknowledgedUntil: future(2) });
    expect(acked.acknowledgedUntil).toBeDefined();
  });
});

describe('maintenance windows', () => {
  it('creates, lists, reads, updates and deletes a window', async () => {
    const created = await api.maintenanceWindows.create(projectId, {
      startDate: future(1),
      endDate: future(2),
      alertTypeNames: ['HOST'],
      description: 'kernel patching',
    });
    expect(created.id).toBeTruthy();
    const list = await api.maintenanceWindows.list(projectId);
    expect(list.results.some((w) => w.id === created.id)).toBe(true);
    expect((await api.maintenanceWindows.get(projectId, created.id)).description).toBe('kernel patching');
    const updated = await api.maintenanceWindows.update(projectId, created.id, {
      alertTypeNames: ['HOST', 'CLUSTER'],
    });
    expect(updated.alertTypeNames).toEqual(['HOST', 'CLUSTER']);
    await expect(api.maintenanceWindows.delete(projectId, created.id)).resolves.toBeUndefined();
    const gone = await failure(api.maintenanceWindows.get(projectId, created.id));
    expect(gone).toBeInstanceOf(ApiError);
    expect(gone).toMatchObject({ status: 404, errorCode: 'MAINTENANCE_WINDOW_NOT_FOUND' });
    expect(gone!.message).toContain(`maintenance window "${created.id}"`);
  });
});

describe('deployment', () => {
  it('reads agents, agent links and automation status', async () => {
    const agents = await api.agents.list(projectId, 'MONITORING');
    expect(agents.results.every((a) => a.typeName === 'MONITORING')).toBe(true);
    const { links } = await api.agents.links(projectId);
    expect(links.some((l) => l.rel.endsWith('monitoringAgents'))).toBe(true);
    const status = await api.automation.status(projectId);
    expect(typeof status.goalVersion).toBe('number');
    expect(status.processes.length).toBeGreaterThan(0);
  });

  it('lists hosts and reads a disk partition', async () => {
    const hosts = await api.hosts.list(projectId);
    const host = hosts.results[0]!;
    const disks = await api.hosts.listDisks(projectId, host.id);
    expect(disks.results.map((d) => d.partitionName)).toEqual(
      sim.store.data.hosts.find((h) => h.id === host.id)!.disks,
    );
    const disk = disks.results[0]!.partitionName!;
    const partition = await api.hosts.diskPartition(projectId, host.id, disk);
    expect(partition.partitionName).toBe(disk);
    const missing = await failure(api.hosts.diskPartition(projectId, host.id, 'nvme9n9'));
    expect(missing).toMatchObject({ status: 404, errorCode: 'DEVICE_NOT_FOUND' });
    expect(missing!.message).toContain('disk partition "nvme9n9"');
  });

  it('lists integrations and updates one; the answer masks secrets', async () => {
    const before = await api.integrations.list(projectId);
    const secret = 'whsec-0123456789abcdef';
    const after = await api.integrations.put(projectId, 'WEBHOOK', {
      url: 'https://hooks.example.org/x',
      secret,
    });
    const webhook = after.results.find((i) => i.type === 'WEBHOOK');
    expect(webhook).toBeDefined();
    expect(JSON.stringify(after)).not.toContain(secret);
    expect(after.totalCount).toBeGreaterThanOrEqual(before.totalCount);
  });
});

describe('events', () => {
  it('filters project events by repeated eventType and reads one with its raw document', async () => {
    const all = await api.events.listForProject(projectId, { itemsPerPage: 500 });
    expect(all.totalCount).toBeGreaterThan(0);
    const types = [...new Set(all.results.map((e) => e.eventTypeName!))].slice(0, 2);
    const filtered = await api.events.listForProject(projectId, { eventType: types, itemsPerPage: 500 });
    expect(filtered.totalCount).toBeGreaterThan(0);
    expect(filtered.results.every((e) => types.includes(e.eventTypeName!))).toBe(true);
    if (all.totalCount > filtered.totalCount) expect(types.length).toBeGreaterThan(0);
    const event = await api.events.getForProject(projectId, all.results[0]!.id, { includeRaw: true });
    expect(event.id).toBe(all.results[0]!.id);
    expect(event.raw).toBeDefined();
    const plain = await api.events.getForProject(projectId, all.results[0]!.id);
    expect(plain.raw).toBeUndefined();
  });

  it('lists global events in a date range', async () => {
    const page = await api.events.listGlobal({ minDate: '2000-01-01T00:00:00Z', itemsPerPage: 5 });
    expect(page.results.length).toBeLessThanOrEqual(5);
    expect(page.totalCount).toBeGreaterThan(0);
  });

  it('pages: iteratePages and fetchAll return the same items as one big page, in order', async () => {
    const one = await api.events.listForProject(projectId, { itemsPerPage: 500 });
    expect(one.totalCount).toBeGreaterThan(7);
    const iterated: string[] = [];
    for await (const page of iteratePages((q) => api.events.listForProject(projectId, q), {
      itemsPerPage: 7,
    })) {
      iterated.push(...page.results.map((e) => e.id));
    }
    const all = await fetchAll((q, signal) => api.events.listForProject(projectId, q, { signal }), {
      itemsPerPage: 7,
      concurrency: 3,
    });
    const ids = one.results.map((e) => e.id);
    expect(iterated).toEqual(ids);
    expect(all.items.map((e) => e.id)).toEqual(ids);
    expect(all).toMatchObject({ totalCount: one.totalCount, truncated: false });
    const capped = await fetchAll((q) => api.events.listForProject(projectId, q), {
      itemsPerPage: 5,
      maxItems: 6,
    });
    expect(capped.items.map((e) => e.id)).toEqual(ids.slice(0, 6));
    expect(capped.truncated).toBe(true);
  });
});

describe('users and API keys', () => {
  it('creates org and project API keys (the private key is returned once)', async () => {
    const orgKey = await api.apiKeys.createForOrg(sim.orgId, { desc: 'exporter', roles: ['ORG_READ_ONLY'] });
    expect(orgKey.publicKey).toBeTruthy();
    expect(orgKey.privateKey).toBeTruthy();
    const projectKey = await api.apiKeys.createForProject(projectId, {
      desc: 'ci',
      roles: ['GROUP_READ_ONLY'],
    });
    expect(projectKey.roles?.some((r) => r.groupId === projectId && r.roleName === 'GROUP_READ_ONLY')).toBe(
      true,
    );
    // The new key works through the client.
    const c = clientFor({ publicKey: projectKey.publicKey!, privateKey: projectKey.privateKey! });
    expect((await c.alertConfigs.list(projectId, { itemsPerPage: 1 })).results).toHaveLength(1);
  });

  it('creates a user, reads it and updates its roles', async () => {
    const user = await api.users.create({
      username: `ana.${Date.now()}@example.com`,
      password: 'Correct-Horse-Battery-9',
      emailAddress: 'ana@example.com',
      mobileNumber: '+15555550100',
      firstName: 'Ana',
      lastName: 'Lima',
      roles: [{ groupId: projectId, roleName: 'GROUP_READ_ONLY' }],
    });
    expect(user.id).toBeTruthy();
    expect((await api.users.get(user.id)).firstName).toBe('Ana');
    const updated = await api.users.updateRoles(user.id, [{ roleName: 'GLOBAL_READ_ONLY' }]);
    expect(updated.id).toBe(user.id);
  });

  it("reads the caller's own access list", async () => {
    const lee = fixtures.accessListAllowed;
    const c = clientFor(lee);
    const list = await c.users.accessList(lee.userId);
    expect(
      list.results.some((e) => e.ipAddress === '127.0.0.1' || e.cidrBlock?.startsWith('127.0.0.1')),
    ).toBe(true);
  });

  it('creates the first user of an empty installation without a key, then uses the minted key', async () => {
    const empty = await startTestSimulator({ dataset: 'empty' });
    try {
      const anon = createApiClient({ baseUrl: empty.origin, publicKey: '', privateKey: '' });
      clients.push(anon);
      const first = await anon.users.createFirst(
        {
          username: 'admin@example.com',
          password: 'Correct-Horse-Battery-9',
          firstName: 'Ada',
          lastName: 'Admin',
        },
        { accessList: ['127.0.0.1'] },
      );
      expect(anon.stats.challenges).toBe(0);
      expect(first.user.id).toBeTruthy();
      const key = first.programmaticApiKey!;
      expect(key.roles?.some((r) => r.roleName === 'GLOBAL_OWNER')).toBe(true);
      const owner = createApiClient({
        baseUrl: empty.baseUrl,
        publicKey: key.publicKey!,
        privateKey: key.privateKey!,
      });
      clients.push(owner);
      expect((await owner.projects.list()).totalCount).toBe(0);
    } finally {
      await empty.close();
    }
  });
});

describe('errors from the platform', () => {
  it('a key without the role gets USER_UNAUTHORIZED, named and not retried', async () => {
    const c = clientFor(fixtures.readOnly);
    const config = (await c.alertConfigs.list(projectId, { itemsPerPage: 1 })).results[0]!;
    const sent = c.stats.requests;
    const e = await failure(c.alertConfigs.setEnabled(projectId, config.id, false));
    expect(e).toMatchObject({ status: 401, errorCode: 'USER_UNAUTHORIZED' });
    expect(e!.message).toContain('lacks the role');
    expect(e!.message).toContain(`alert configuration "${config.id}"`);
    expect(c.stats.requests - sent).toBe(1);
    expect(c.stats.retries).toBe(0);
  });

  it('a key outside the project gets NOT_IN_GROUP naming the project', async () => {
    const c = clientFor(fixtures.notInProject);
    const e = await failure(c.alertConfigs.list(fixtures.notInProject.projectId));
    expect(e).toMatchObject({ status: 401, errorCode: 'NOT_IN_GROUP' });
    expect(e!.message).toContain(`not a member of project "${fixtures.notInProject.projectId}"`);
  });

  it('an address off the access list gets a 403 saying what to add', async () => {
    const c = clientFor(fixtures.accessListDenied);
    const e = await failure(c.alertConfigs.list(projectId));
    expect(e).toMatchObject({ status: 403, errorCode: 'IP_ADDRESS_NOT_ON_ACCESS_LIST' });
    expect(e!.message).toContain("Add this machine's address");
  });

  it('unknown and malformed ids say which id to check', async () => {
    const unknown = await failure(api.alertConfigs.get(projectId, 'ffffffffffffffffffffffff'));
    expect(unknown).toMatchObject({ status: 404, errorCode: 'ALERT_CONFIG_NOT_FOUND' });
    expect(unknown!.message).toContain('alert configuration "ffffffffffffffffffffffff"');
    const malformed = await failure(api.alertConfigs.get(projectId, 'not-an-id'));
    expect(malformed!.status).toBe(404);
    expect(malformed!.errorCode).toMatch(/^INVALID_ALERT_CONFIG_ID|ALERT_CONFIG_NOT_FOUND$/);
    const project = await failure(api.alertConfigs.list('aaaaaaaaaaaaaaaaaaaaaaaa'));
    expect(project).toMatchObject({ status: 404, errorCode: 'GROUP_NOT_FOUND' });
    expect(project!.message).toContain('project "aaaaaaaaaaaaaaaaaaaaaaaa"');
  });

  it('a bad request carries the detail', async () => {
    const e = await failure(
      api.maintenanceWindows.create(projectId, {
        startDate: future(2),
        endDate: future(1),
        alertTypeNames: ['HOST'],
      }),
    );
    expect(e).toMatchObject({ status: 400, errorCode: 'MAINTENANCE_WINDOW_START_DATE_AFTER_END_DATE' });
    expect(e!.detail).toBeTruthy();
  });

  it('unsafe ids never reach the server', async () => {
    const sent = api.stats.requests;
    await expect(api.alertConfigs.get(projectId, '..')).rejects.toThrow('not an id');
    await expect(api.alerts.get('', 'x')).rejects.toThrow('empty');
    expect(api.stats.requests).toBe(sent);
  });
});
