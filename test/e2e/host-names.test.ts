// Host names as people type them (issue 43): one resolver wherever a host is accepted or matched, "where is
// it?" in one call, history as episodes. Facts are taken from the simulator's records, never from the answer.
import { describe, expect, it } from 'vitest';
import type { startSimulator } from '../../src/simulator/index.js';
import { type TestServer, withDemoServer } from '../helpers/mcp.js';

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let t: TestServer;
withDemoServer((s, server) => {
  sim = s;
  t = server;
});

const host = (short: string) => sim.store.data.hosts.find((h) => h.hostname.startsWith(`${short}.`))!;
const projectOf = (short: string) => sim.store.data.projects.find((p) => p.id === host(short).groupId)!;
const eventsOf = (short: string, type: string) =>
  sim.store.data.events.filter((e) => e.eventTypeName === type && e.hostId === host(short).id);

describe('a host by the name a person types', () => {
  it.each(['db-prod-06', 'DB-PROD-06.example.internal', 'db-prod-06:27017'])(
    "events' target %s finds the host's events",
    async (target) => {
      const r = await t.call('list_project_events', { target, itemsPerPage: 50 });
      expect(r.isError, r.text).toBe(false);
      const down = eventsOf('db-prod-06', 'HOST_DOWN')[0]!;
      const ids = ((r.structured?.results ?? []) as Array<{ id: string }>).map((e) => e.id);
      expect(ids).toContain(down.id);
    },
  );

  it('a wrong port or another host matches nothing', async () => {
    const r = await t.call('list_project_events', { target: 'db-prod-06:27018' });
    expect(r.structured?.totalCount).toBe(0);
  });

  it('a target that matches nothing names the hosts near it', async () => {
    const r = await t.call('list_project_events', { target: 'db-prdo-06' });
    expect(r.structured?.totalCount).toBe(0);
    expect(r.text).toContain('near names: db-prod-06');
  });

  it('"where is it?" is one call: project, replica set, role, state, open alerts', async () => {
    const h = host('db-prod-06');
    const r = await t.call('list_hosts', { host: 'db-prod-06' });
    expect(r.isError, r.text).toBe(false);
    const [row] = (r.structured?.results ?? []) as Array<Record<string, unknown>>;
    expect(row).toMatchObject({
      projectName: projectOf('db-prod-06').name,
      hostId: h.id,
      group: h.replicaSetName,
      role: h.typeName,
    });
    // An open HOST_DOWN alert on it and no recent ping: down since its last ping (the rule: src/rules/hosts.ts).
    expect(
      sim.store.data.alerts.some(
        (a) => a.status === 'OPEN' && a.eventTypeName === 'HOST_DOWN' && a.hostId === h.id,
      ),
    ).toBe(true);
    expect(row?.state).toContain(`DOWN since ${h.lastPing!.slice(0, 16).replace('T', ' ')}`);
  });

  it('a host in another project is found without naming the project', async () => {
    const r = await t.call('list_hosts', { host: 'db-stg-03' });
    expect(r.text).toContain(projectOf('db-stg-03').name);
  });

  it('no match says what it searched and the names near it', async () => {
    const r = await t.call('list_hosts', { host: 'db-prdo-06' });
    expect(r.structured?.totalCount).toBe(0);
    expect(r.text).toContain(
      `Searched ${sim.store.data.hosts.length} hosts of ${sim.store.data.projects.length} projects`,
    );
    expect(r.text).toMatch(/Near names: .*db-prod-06/);
  });

  it('a hostId argument takes a name, and its project when none is given', async () => {
    const h = host('db-stg-02');
    const r = await t.call('get_disk_partition', { hostId: 'db-stg-02' });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain(h.id);
  });

  it('a hostId that names no host is refused with what was searched, nothing called', async () => {
    const r = await t.call('get_disk_partition', { hostId: 'db-analytics' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`No host named "db-analytics" among the ${sim.store.data.hosts.length} hosts`);
    expect(r.text).toMatch(/Near names: db-analytics-01/);
  });
});

describe('history as episodes', () => {
  it('pairs an outage that ended: start, end and duration, and says what it paired', async () => {
    const down = eventsOf('db-prod-02', 'HOST_DOWN')[0]!;
    const up = eventsOf('db-prod-02', 'HOST_RECOVERED')[0]!;
    const r = await t.call('list_project_events', { target: 'db-prod-02', history: true });
    expect(r.isError, r.text).toBe(false);
    const ep = ((r.structured?.results ?? []) as Array<Record<string, unknown>>).find(
      (e) => e.what === 'host down',
    )!;
    expect(ep).toMatchObject({
      start: down.created,
      end: up.created,
      pairedBy: 'HOST_DOWN → HOST_RECOVERED',
    });
    const minutes = Math.round((Date.parse(up.created) - Date.parse(down.created)) / 60_000);
    expect(ep.duration).toBe(`${minutes} min`);
    expect(r.text).toContain('Paired: HOST_DOWN → HOST_UP or HOST_RECOVERED');
    expect(r.text).toContain('Event names are not in the spec');
  });

  it('an outage going on now has no end, and its own alert is folded into it', async () => {
    const r = await t.call('list_project_events', { target: 'db-prod-06', history: true });
    const eps = r.structured?.results as Array<Record<string, unknown>>;
    const outage = eps.find((e) => e.what === 'host down')!;
    expect(outage.end).toBeUndefined();
    expect(eps.some((e) => e.what === 'alert HOST_DOWN')).toBe(false);
    expect(r.text).toMatch(/host down 1× \(1 ongoing\)/);
  });

  it("an agent's return without an up event ends with its closed agent-down alert", async () => {
    const p = projectOf('db-analytics-06');
    const r = await t.call('list_project_events', { projectId: p.id, history: true, itemsPerPage: 100 });
    const eps = r.structured?.results as Array<Record<string, unknown>>;
    const alert = sim.store.data.alerts.find(
      (a) =>
        a.groupId === p.id &&
        a.eventTypeName === 'BACKUP_AGENT_DOWN' &&
        a.status === 'CLOSED' &&
        a.hostnameAndPort?.startsWith('db-analytics-06.'),
    )!;
    const backup = eps.find((e) => e.what === 'backup agent down' && e.where === 'db-analytics-06');
    expect(backup).toMatchObject({
      end: alert.resolved,
      pairedBy: `BACKUP_AGENT_DOWN → alert ${alert.id} closed`,
    });
  });

  it('an end nothing records is "not recorded", not ongoing', async () => {
    // db-stg-03's backup agent: the platform records no BACKUP_AGENT_UP, and its alert was a global one.
    const r = await t.call('list_project_events', { target: 'db-stg-03', history: true });
    const eps = r.structured?.results as Array<Record<string, unknown>>;
    const backup = eps.find((e) => e.what === 'backup agent down')!;
    expect(backup.unknownEnd).toBe(true);
    expect(r.text).toContain('| not recorded |');
    expect(r.text).not.toMatch(/backup agent down 1× \(1 ongoing\)/);
  });
});
