// Answers that say what the records joined say (issue 41): names where the platform has them, and per open
// alert what happens to it. Facts are read from the simulator's records, not from our own answer code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { startTestServer, type TestServer } from '../helpers/mcp.js';

let sim: Simulator;
let t: TestServer;
beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
  t = await startTestServer({ sim });
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

const data = () => sim.store.data;
const projectNamed = (name: string) => data().projects.find((p) => p.name === name)!;

async function confirmed(name: string, args: Record<string, unknown>) {
  const first = await t.call(name, args);
  expect(first.structured?.outcome, first.text).toBe('confirmation_required');
  const token = (first.structured!.confirmation as { confirmationToken: string }).confirmationToken;
  return { preview: first, result: await t.call(name, { ...args, confirmationToken: token }) };
}

describe('names everywhere', () => {
  it('a role change names the organization and every project, in its preview and in its result', async () => {
    const org = data().orgs[0]!;
    const u = data().users.find((x) => x.username.startsWith('lee.'))!;
    const dev = projectNamed('platform-dev');
    const { preview, result } = await confirmed('update_user_roles', {
      userId: u.id,
      mode: 'add',
      roles: [{ groupId: dev.id, roleName: 'GROUP_READ_ONLY' }],
    });
    for (const text of [preview.text, result.text]) {
      expect(text).toContain(`ORG_MEMBER @ org \`${org.name}\` (${org.id})`);
      for (const r of u.roles.filter((x) => x.groupId)) {
        const p = data().projects.find((x) => x.id === r.groupId)!;
        expect(text).toContain(`${r.roleName} @ project \`${p.name}\` (${p.id})`);
      }
    }
    expect(result.text).toContain(`GROUP_READ_ONLY @ project \`${dev.name}\` (${dev.id})`);
  });

  it('the projects list and a global configuration’s alerts name the organization and the projects', async () => {
    const org = data().orgs[0]!;
    const projects = await t.call('list_projects', {});
    expect(projects.text).toContain(`\`${org.name}\` (${org.id})`);
    const a = data().globalAlerts.find((x) => x.status === 'OPEN' && x.groupId)!;
    const r = await t.call('list_open_global_alerts_for_config', { globalAlertConfigId: a.alertConfigId });
    const p = data().projects.find((x) => x.id === a.groupId)!;
    expect(r.text.split('\n').find((l) => l.includes(a.id))).toContain(`\`${p.name}\` (${p.id})`);
  });
});

describe('responseFormat detailed on list_open_alerts', () => {
  it('adds each cause’s notification targets (keys masked) and each alert’s raw timestamps', async () => {
    const p = projectNamed('payments-prod');
    const a = data().alerts.find((x) => x.groupId === p.id && x.status === 'OPEN' && x.lastNotified)!;
    const c = data().alertConfigs.find((x) => x.id === a.alertConfigId)!;
    const key = c.notifications.map((n) => (n as Record<string, unknown>).serviceKey).find(Boolean) as
      | string
      | undefined;
    const concise = await t.call('list_open_alerts', { projectId: p.id });
    const detailed = await t.call('list_open_alerts', { projectId: p.id, responseFormat: 'detailed' });
    const raw = `alertId ${a.id}: created ${a.created}`;
    expect(concise.text).not.toContain(raw);
    expect(detailed.text).toContain(raw);
    expect(detailed.text).toContain(`lastNotified ${a.lastNotified}`);
    expect(detailed.text).toMatch(/notifies .*(EMAIL|PAGER|INCIDENT|USER|SMS|GROUP)/);
    if (key) expect(detailed.text).not.toContain(key);
  });
});
