// Maintenance-window tools end to end: MCP client ↔ server ↔ API client ↔ simulator (demo dataset).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/mcp.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

/** A guarded call the person confirmed: preview first, then the same arguments with the token. */
async function confirmed(name: string, args: Record<string, unknown>) {
  const first = await t.call(name, args);
  expect(first.structured?.outcome, first.text).toBe('confirmation_required');
  const token = (first.structured!.confirmation as { confirmationToken: string }).confirmationToken;
  return { preview: first, result: await t.call(name, { ...args, confirmationToken: token }) };
}

describe('maintenance window tools', () => {
  let windowId = '';

  it('creates a window that silences no pages at once (a write) and lists it as upcoming', async () => {
    const r = await t.call('create_maintenance_window', {
      startDate: inHours(2),
      endDate: inHours(4),
      alertTypeNames: ['REPLICA_SET', 'AGENT'],
      description: 'Kernel upgrade on the payments replica set',
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured!.outcome).toBe('executed');
    windowId = (r.structured!.result as { record: { id: string } }).record.id;
    expect(r.text).toContain(`# Maintenance window ${windowId} created`);
    const list = await t.call('list_maintenance_windows', { itemsPerPage: 100 });
    expect(list.isError).toBe(false);
    expect(list.text).toMatch(
      new RegExp(`\\| ${windowId} \\| upcoming \\|.*REPLICA_SET, AGENT \\| Kernel upgrade`),
    );
  });

  it('silence disk alerts during patching: HOST asks first, names what goes quiet (pages first) and says it is project-wide', async () => {
    const args = {
      startDate: inHours(1),
      endDate: inHours(3),
      alertTypeNames: ['HOST'],
      description: 'Patching rs-ledger',
    };
    const { preview, result } = await confirmed('create_maintenance_window', args);
    const text = preview.text;
    expect(text.length).toBeLessThan(4000);
    // The disk configuration pages too: its USER notification has smsEnabled (src/rules/paging.ts).
    expect(text).toMatch(/^- ⚠ Pages go quiet: 3 paging configurations \(\d+ open alerts?\)/m);
    // The project is named once, on the action line.
    expect(text).toMatch(/^\*\*Action\*\*: .* in project `payments-prod`/m);
    expect(text).toContain(
      'Project-wide: a maintenance window has no hosts, so it mutes HOST alerts on every host of the project',
    );
    expect(text).toContain('HOST covers every host alert: host down (HOST_DOWN)');
    expect(text).toContain('Disk alerts cannot be muted alone');
    // Configurations by their condition, one line each, the paging ones first, with where they are open.
    const lines = text.split('\n');
    const at = (s: string) => lines.findIndex((l) => l.startsWith(`- \`${s}\``));
    expect(lines[at('Connections > 4000')]).toMatch(/ — pages via PagerDuty — \d+ open: `db-prod-/);
    expect(lines[at('Host down (HOST_DOWN) > 5 min')]).toContain(' — pages via OpsGenie, SMS');
    expect(lines[at('Disk space used on data partition > 85 %')]).toContain(' — pages via SMS');
    for (const paging of [
      'Connections > 4000',
      'Host down (HOST_DOWN) > 5 min',
      'Disk space used on data partition > 85 %',
    ])
      expect(at('Regular asserts > 10')).toBeGreaterThan(at(paging));
    expect(result.isError, result.text).toBe(false);
    expect(result.structured!.outcome).toBe('executed');
  });

  it('widening a window to silence pages asks first; narrowing one does not', async () => {
    const quiet = await t.call('create_maintenance_window', {
      startDate: inHours(5),
      endDate: inHours(6),
      alertTypeNames: ['REPLICA_SET'],
    });
    expect(quiet.structured!.outcome, quiet.text).toBe('executed');
    const id = (quiet.structured!.result as { record: { id: string } }).record.id;
    const wider = await t.call('update_maintenance_window', {
      maintenanceWindowId: id,
      alertTypeNames: ['REPLICA_SET', 'HOST'],
    });
    expect(wider.structured?.outcome, wider.text).toBe('confirmation_required');
    expect(wider.text).toContain('Pages go quiet');
    const { result } = await confirmed('update_maintenance_window', {
      maintenanceWindowId: id,
      alertTypeNames: ['REPLICA_SET', 'HOST'],
    });
    expect(result.structured!.outcome).toBe('executed');
    // Shorter: fewer pages silenced than before, so it runs at once.
    const shorter = await t.call('update_maintenance_window', {
      maintenanceWindowId: id,
      endDate: inHours(5.5),
    });
    expect(shorter.structured!.outcome, shorter.text).toBe('executed');
    const { result: gone } = await confirmed('delete_maintenance_window', { maintenanceWindowId: id });
    expect(gone.isError, gone.text).toBe(false);
  });

  it('refuses a window that ends in the past before calling the API', async () => {
    const r = await t.call('create_maintenance_window', {
      startDate: inHours(-5),
      endDate: inHours(-1),
      alertTypeNames: ['HOST'],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('endDate is in the past');
  });

  it('reads one window and updates its end', async () => {
    const get = await t.call('get_maintenance_window', { maintenanceWindowId: windowId });
    expect(get.isError, get.text).toBe(false);
    expect(get.text).toContain('**State**: upcoming');
    const end = inHours(6);
    const upd = await t.call('update_maintenance_window', { maintenanceWindowId: windowId, endDate: end });
    expect(upd.isError, upd.text).toBe(false);
    expect((upd.structured!.result as { record: { endDate: string } }).record.endDate.slice(0, 16)).toBe(
      end.slice(0, 16),
    );
  });

  it('says what to give when an update names no change', async () => {
    const r = await t.call('update_maintenance_window', {
      maintenanceWindowId: windowId,
      description: 'only this',
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('at least one of startDate, endDate or alertTypeNames');
  });

  it('deletes an upcoming window only after confirmation, saying nothing was muted yet', async () => {
    const { preview, result } = await confirmed('delete_maintenance_window', {
      maintenanceWindowId: windowId,
    });
    expect(preview.text).toMatch(new RegExp(`Delete maintenance window \`[^\`]+\` \\(${windowId}\\)`));
    // It starts in 2 h: nothing resumes, the planned muting is cancelled.
    expect(preview.text).not.toContain('resume');
    expect(preview.text).toContain('nothing is muted yet');
    expect(preview.text).toContain('REPLICA_SET, AGENT notifications');
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain(`# Maintenance window ${windowId} deleted`);
    expect(result.text).toContain('nothing was muted');
    expect(result.structured).toEqual({
      outcome: 'executed',
      result: { deleted: true, maintenanceWindowId: windowId, state: 'upcoming' },
      nextStep: expect.stringContaining('Done: tell the person what changed.'),
    });
  });

  it('deletes an active window with the resume note', async () => {
    const created = await t.call('create_maintenance_window', {
      startDate: inHours(-1),
      endDate: inHours(1),
      alertTypeNames: ['AGENT'],
    });
    const id = (created.structured!.result as { record: { id: string } }).record.id;
    const { preview, result } = await confirmed('delete_maintenance_window', { maintenanceWindowId: id });
    expect(preview.text).toContain('Notifications for AGENT resume as soon as the window is deleted');
    expect(result.text).toContain('The notifications it muted are on again');
  });

  it('answers an unknown window with an error that says what to do', async () => {
    const r = await t.call('get_maintenance_window', { maintenanceWindowId: windowId });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/maintenance window/i);
    expect(r.text).toMatch(/may simply have ended/);
    expect(r.text).toContain('list_maintenance_windows');
  });
});
