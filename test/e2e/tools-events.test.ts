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
