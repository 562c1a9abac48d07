// Event tools end to end against the simulator's demo dataset.
import { describe, expect, it } from 'vitest';
import type { startSimulator } from '../../src/simulator/index.js';
import { startTestServer, type TestServer, withDemoServer } from '../helpers/mcp.js';

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let t: TestServer;
withDemoServer((s, server) => {
  sim = s;
  t = server;
});

type Row = { id: string; created: string; eventTypeName: string; raw?: unknown };
const rows = (r: { structured?: Record<string, unknown> }) => (r.structured?.results ?? []) as Row[];

describe('project events', () => {
  it('lists newest first with a paging note', async () => {
    const r = await t.call('list_project_events', { itemsPerPage: 10 });
    expect(r.isError, r.text).toBe(false);
    const created = rows(r).map((e) => Date.parse(e.created));
    expect(created.length).toBe(10);
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    expect(r.text).toMatch(/more — call again with pageNum=2\./);
  });

  it('filters by event type and date range', async () => {
    const all = rows(await t.call('list_project_events', { itemsPerPage: 50 }));
    const type = all[0]!.eventTypeName;
    const r = await t.call('list_project_events', { eventType: [type], itemsPerPage: 50 });
    expect(rows(r).length).toBeGreaterThan(0);
    expect(rows(r).every((e) => e.eventTypeName === type)).toBe(true);
    const since = all[4]!.created;
    const recent = await t.call('list_project_events', { minDate: since, itemsPerPage: 50 });
    expect(rows(recent).every((e) => e.created >= since)).toBe(true);
    const bad = await t.call('list_project_events', {
      minDate: '2026-01-02T00:00:00Z',
      maxDate: '2026-01-01T00:00:00Z',
    });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('minDate must not be after maxDate');
  });

  it('finds who changed what: by person and type, by target, and says how much it read', async () => {
    // The "Done when" of names: give Priya read access in one call, then find it in the events.
    const priya = sim.store.data.users.find((u) => u.firstName === 'Priya')!;
    const staging = sim.store.data.projects.find((p) => p.name === 'search-staging')!;
    const grant = {
      userId: priya.id,
      mode: 'add',
      roles: [{ groupId: staging.id, roleName: 'GROUP_READ_ONLY' }],
    };
    const preview = await t.call('update_user_roles', grant);
    const token = (preview.structured!.confirmation as { confirmationToken: string }).confirmationToken;
    expect((await t.call('update_user_roles', { ...grant, confirmationToken: token })).isError).toBe(false);

    const key = sim.keys.publicKey;
    // The staging project's events, by name: this key's doing, about Priya, of the type the grant records.
    const r = await t.call('list_project_events', {
      projectId: 'search-staging',
      who: key,
      target: priya.username,
      eventType: ['INVITED_TO_GROUP', 'USER_ROLES_CHANGED_AUDIT'],
    });
    expect(r.isError, r.text).toBe(false);
    const found = rows(r) as Array<Row & { targetUsername?: string; publicKey?: string }>;
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((e) => e.targetUsername === priya.username && e.publicKey === key)).toBe(true);
    expect(r.text).toMatch(/Matched who\/target over the \d+ newest of \d+ events\./);
    expect(r.text.split('\n')[0]).toContain(`project \`search-staging\` (${staging.id})`);

    const byHost = sim.store.data.events.find((e) => e.groupId === sim.projectIds[0] && e.hostId)!;
    const h = await t.call('list_project_events', { target: byHost.hostId, itemsPerPage: 100 });
    expect(rows(h).length).toBeGreaterThan(0);
    expect(rows(h).every((e) => (e as { hostId?: string }).hostId === byHost.hostId)).toBe(true);

    const none = await t.call('list_project_events', { who: 'nobody@example.com' });
    expect(none.text).toContain('No events match');
  });

  it('who changed the disk threshold yesterday: one call by the condition’s words, the configuration named, before → after; get_alert_config agrees', async () => {
    const projectId = sim.projectIds[0]!;
    const disk = sim.store.data.alertConfigs.find(
      (c) => c.groupId === projectId && c.metricThreshold?.metricName === 'DISK_PARTITION_SPACE_USED_DATA',
    )!;
    // Disabled and enabled again through the API: the platform records both, with who did it.
    for (const enabled of [false, true]) {
      const first = await t.call('set_alert_config_enabled', { alertConfigId: disk.id, enabled });
      const token = (first.structured?.confirmation as { confirmationToken?: string } | undefined)
        ?.confirmationToken;
      const done = token
        ? await t.call('set_alert_config_enabled', {
            alertConfigId: disk.id,
            enabled,
            confirmationToken: token,
          })
        : first;
      expect(done.isError, done.text).toBe(false);
    }
    const since = new Date(Date.now() - 24 * 3_600_000).toISOString();
    const r = await t.call('list_project_events', { target: 'disk space used on data', minDate: since });
    expect(r.isError, r.text).toBe(false);
    const lines = r.text
      .split('\n')
      .filter((l) => l.includes('configuration "Disk space used on data partition > 85 %"'));
    expect(lines.length, r.text).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toContain('ALERT_CONFIG_ENABLED_AUDIT');
    expect(lines[0]).toContain('enabled: no → yes');
    expect(lines[1]).toContain('enabled: yes → no');
    expect(lines[0]).toMatch(/\| key /); // who: the API key that made the change
    expect(r.text.length).toBeLessThan(4000);
    // The configuration's own "Updated" is its newest change event, never older than it.
    const newest = rows(r)[0]!;
    const config = await t.call('get_alert_config', { alertConfigId: disk.id });
    expect(config.text).toMatch(
      new RegExp(
        `\\*\\*Updated\\*\\*: .* \\(ALERT_CONFIG_ENABLED_AUDIT: enabled: no → yes, eventId ${newest.id}\\)`,
      ),
    );
  });

  it('names a window event by the window’s description while it can be read, and says so when it cannot', async () => {
    const created = await t.call('create_maintenance_window', {
      startDate: new Date(Date.now() + 3_600_000).toISOString(),
      endDate: new Date(Date.now() + 7_200_000).toISOString(),
      alertTypeNames: ['AGENT'],
      description: 'Agent upgrade on rs-ledger',
    });
    expect(created.isError, created.text).toBe(false);
    const r = await t.call('list_project_events', {
      eventType: ['MAINTENANCE_WINDOW_ADDED_AUDIT'],
      itemsPerPage: 50,
    });
    expect(r.text).toContain('window "Agent upgrade on rs-ledger"');
    expect(r.text).toContain('window added');
    const id = (created.structured!.result as { record: { id: string } }).record.id;
    const ask = await t.call('delete_maintenance_window', { maintenanceWindowId: id });
    const token = (ask.structured!.confirmation as { confirmationToken: string }).confirmationToken;
    expect(
      (await t.call('delete_maintenance_window', { maintenanceWindowId: id, confirmationToken: token }))
        .isError,
    ).toBe(false);
    const gone = await t.call('list_project_events', { target: id });
    expect(gone.text).toContain(`window ${id} (ended or deleted: no longer readable)`);
    expect(gone.text).toContain('window deleted');
  });

  it('shows what changed on one line for events that carry diffs', async () => {
    const withDiff = sim.store.data.events.find(
      (e) => e.groupId === sim.projectIds[0] && Array.isArray(e.diffs) && e.diffs.length > 0,
    )!;
    const r = await t.call('list_project_events', {
      eventType: [withDiff.eventTypeName],
      maxDate: withDiff.created,
      minDate: withDiff.created,
    });
    expect(r.text).toContain('| what changed |');
    const line = r.text.split('\n').find((l) => l.startsWith(`| ${withDiff.id} |`))!;
    expect(line).toMatch(/MODIFIED|ADDED|REMOVED/);
  });

  it('reads one event, with its raw document only when asked', async () => {
    const [first] = rows(await t.call('list_project_events', { itemsPerPage: 1 }));
    const plain = await t.call('get_project_event', { eventId: first!.id });
    expect(plain.isError, plain.text).toBe(false);
    expect(plain.text).toContain(`# Event ${first!.id}`);
    expect(plain.text).not.toContain('### Raw document');
    const raw = await t.call('get_project_event', { eventId: first!.id, includeRaw: true });
    expect(raw.text).toContain('### Raw document');
    expect((raw.structured!.record as Row).raw).toBeDefined();
  });

  it('answers an unknown event id with a clear error', async () => {
    const r = await t.call('get_project_event', { eventId: 'ffffffffffffffffffffffff' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/event/i);
    expect(r.text).toMatch(/404/);
  });
});

describe('global events', () => {
  it('lists installation-wide events with a global key', async () => {
    const r = await t.call('list_global_events', { itemsPerPage: 5 });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(/^# Global events — \d+ total, showing 1–5/);
  });

  it('tells a project-only key that it lacks the role', async () => {
    const key = sim.store.fixtures!.readOnly;
    const narrow = await startTestServer({
      sim,
      config: { publicKey: key.publicKey, privateKey: key.privateKey, projectId: key.projectId },
    });
    try {
      const r = await narrow.call('list_global_events', {});
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/not authorized|lacks|role/i);
    } finally {
      await narrow.close();
    }
  });
});
