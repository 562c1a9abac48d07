// Consent a model can predict (issue 43): a window that silences no paging alert runs without asking and its
// answer says why and what goes quiet; previews and answers name the project's windows that overlap or adjoin
// it; tools/list says when each change asks first, from the live consent settings.
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

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const project = (name: string) => sim.store.data.projects.find((p) => p.name === name)!;
const windowOf = (name: string) =>
  sim.store.data.maintenanceWindows.find(
    (w) => w.groupId === project(name).id && Date.parse(w.endDate) > Date.now(),
  )!;

describe('a window made without asking', () => {
  it('says why it ran, what goes quiet, and the window that starts an hour after it ends', async () => {
    const next = windowOf('search-staging');
    const r = await t.call('create_maintenance_window', {
      projectId: project('search-staging').id,
      startDate: iso(Date.parse(next.startDate) - 3 * HOUR),
      endDate: iso(Date.parse(next.startDate) - HOUR),
      alertTypeNames: ['REPLICA_SET'],
    });
    expect(r.structured?.outcome, r.text).toBe('executed');
    expect(r.text).toContain(
      'Ran without asking: it asks first only if it silences paging alerts, and this one does not.',
    );
    expect(r.text).toMatch(/Goes quiet while it is in force: /);
    expect(r.text).toContain(`"${next.description}" starts 1 h after it ends`);
    const nextTo = (
      r.structured!.result as { nextTo: Array<{ maintenanceWindowId: string; relation: string }> }
    ).nextTo;
    expect(nextTo).toContainEqual(
      expect.objectContaining({ maintenanceWindowId: next.id, relation: 'after' }),
    );
  });

  it('a preview names the window it adjoins too', async () => {
    const inForce = windowOf('payments-prod');
    const r = await t.call('create_maintenance_window', {
      projectId: project('payments-prod').id,
      startDate: iso(Date.parse(inForce.endDate) + HOUR),
      endDate: iso(Date.parse(inForce.endDate) + 3 * HOUR),
      alertTypeNames: ['HOST'],
    });
    // HOST alerts page in payments-prod: it asks first, and the preview says what is next to it.
    expect(r.structured?.outcome, r.text).toBe('confirmation_required');
    expect(r.text).toContain('- Next to it in this project: ');
    expect(r.text).toMatch(/starts 1 h after it ends|ends 1 h before it starts/);
  });
});

describe('descriptions say when a change asks first, from the settings', () => {
  const description = async (server: TestServer, name: string) =>
    (await server.client.listTools()).tools.find((x) => x.name === name)?.description ?? '';

  it('under the default policy', async () => {
    expect(await description(t, 'create_maintenance_window')).toMatch(
      /Asks first if it silences paging alerts\.$/,
    );
    expect(await description(t, 'delete_maintenance_window')).toMatch(/Asks first\.$/);
    expect(await description(t, 'acknowledge_alert')).toMatch(/Runs at once\.$/);
    expect(await description(t, 'set_alert_config_enabled')).toMatch(/Asks first when disabling\.$/);
  });

  it('under DBOPS_CONFIRM=never, with no second edit', async () => {
    const never = await startTestServer({ sim, config: { confirm: 'never' } });
    try {
      expect(await description(never, 'delete_maintenance_window')).toMatch(
        /Runs at once \(DBOPS_CONFIRM=never\)\.$/,
      );
    } finally {
      await never.close();
    }
  });
});
