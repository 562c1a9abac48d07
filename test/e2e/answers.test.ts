// What the model reads, stored per tool: each tool's answer text for the seeded demo data at a frozen "now",
// through the real MCP path. A change to any answer shows up in review as a diff of these files
// (test/e2e/answers/*.md); run `npx vitest run test/e2e/answers.test.ts -u` to accept one on purpose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../src/mcp/catalog.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { startTestServer, type TestServer } from '../helpers/mcp.js';

const NOW = new Date('2026-11-21T16:00:00Z');
const now = () => new Date(NOW);

let sim: Simulator;
let t: TestServer;
beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0, now });
  // Every change answers with its preview (DBOPS_CONFIRM=write): nothing changes, so no answer depends on
  // the order the tools ran in.
  t = await startTestServer({ sim, now, config: { confirm: 'write' } });
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

/** Arguments for each tool, taken from the seeded data of the first demo project. */
function argsFor(name: string): Record<string, unknown> {
  const d = sim.store.data;
  const projectId = sim.projectIds[0]!;
  const config = d.alertConfigs.find((c) => c.groupId === projectId)!;
  const alert = d.alerts.find((a) => a.groupId === projectId && a.status === 'OPEN')!;
  const window = d.maintenanceWindows.find((w) => w.groupId === projectId && Date.parse(w.endDate) > +NOW)!;
  const host = d.hosts.find((h) => h.groupId === projectId)!;
  const user = d.users[1]!;
  const table: Record<string, Record<string, unknown>> = {
    get_alert_config: { alertConfigId: config.id },
    set_alert_config_enabled: { alertConfigId: config.id, enabled: false },
    list_open_alerts_for_config: { alertConfigId: config.id },
    acknowledge_alert: { alertId: alert.id, forHours: 2 },
    acknowledge_global_alert: {
      alertId: d.globalAlerts[0]?.id ?? 'a'.repeat(24),
      acknowledgedUntil: '2026-11-22T16:00:00Z',
    },
    list_open_global_alerts_for_config: { globalAlertConfigId: d.globalAlertConfigs[0]!.id },
    get_maintenance_window: { maintenanceWindowId: window.id },
    create_maintenance_window: {
      startDate: '2026-11-22T02:00:00Z',
      endDate: '2026-11-22T04:00:00Z',
      alertTypeNames: ['HOST'],
      description: 'Kernel patching',
    },
    update_maintenance_window: { maintenanceWindowId: window.id, endDate: '2026-11-23T16:00:00Z' },
    delete_maintenance_window: { maintenanceWindowId: window.id },
    get_project_event: { eventId: d.events.find((e) => e.groupId === projectId)!.id },
    list_agents: { agentType: 'MONITORING' },
    get_disk_partition: { hostId: host.id },
    put_integration: {
      integrationType: 'WEBHOOK',
      settings: { url: 'https://hooks.example.net/dbops/9f8e7d6c', secret: 'whsec-0123456789abcdef' },
    },
    create_first_user: {
      username: 'root@example.com',
      password: 'F1rst!owner',
      firstName: 'Ro',
      lastName: 'Ot',
    },
    create_user: {
      username: 'new.person@example.com',
      password: 'Str0ng!pass-word',
      emailAddress: 'new.person@example.com',
      mobileNumber: '+15555550199',
      firstName: 'New',
      lastName: 'Person',
      roles: [{ groupId: projectId, roleName: 'GROUP_READ_ONLY' }],
    },
    update_user_roles: {
      userId: user.id,
      mode: 'add',
      // A project's name is taken for groupId and resolved before the preview.
      roles: [{ groupId: d.projects.find((p) => p.id === projectId)!.name, roleName: 'GROUP_READ_ONLY' }],
    },
    get_user_access_list: { userId: user.id },
    find_user: { query: 'priya' },
    create_org_api_key: { desc: 'CI key', roles: ['ORG_MEMBER'] },
    create_project_api_key: { desc: 'CI key', roles: ['GROUP_READ_ONLY'] },
  };
  return table[name] ?? {};
}

/** Only what is random per call is masked: the fence tag, tokens and approval ids. */
function stable(text: string): string {
  return text
    .replace(/data-[0-9a-f]{8}/g, 'data-TAG')
    .replace(/"[A-Za-z0-9_-]{40,}\.[A-Za-z0-9_-]{43}"/g, '"TOKEN"')
    .replace(/expires [^)]*\)\)/g, 'expires …)');
}

describe('answer text of every tool on the demo data', () => {
  for (const tool of catalog)
    it(tool.name, async () => {
      const r = await t.call(tool.name, argsFor(tool.name));
      await expect(`${r.isError ? '(error) ' : ''}${stable(r.text)}\n`).toMatchFileSnapshot(
        `answers/${tool.name}.md`,
      );
    });
});

// The same tool matrix against a platform speaking the field's names: every answer equals the spec one but for
// the words the platform chose (integration and notification type and field names).
describe('the same answers from a platform speaking the field dialect', () => {
  let fieldSim: Simulator;
  let ft: TestServer;
  beforeAll(async () => {
    fieldSim = await startSimulator({ dataset: 'demo', port: 0, now, dialect: 'field' });
    ft = await startTestServer({ sim: fieldSim, now, config: { confirm: 'write' } });
  });
  afterAll(async () => {
    await ft?.close();
    await fieldSim?.close();
  });
  // The field's words, mapped back: what is left must be the spec answer, character for character.
  const SPEC_WORDS: Array<[RegExp, string]> = [
    [
      /\b(DATADOG|HIP_CHAT|PAGER_DUTY|SLACK|NEW_RELIC|OPS_GENIE|VICTOR_OPS|MICROSOFT_TEAMS|PROMETHEUS) \(([A-Z_]+)\)/g,
      '$2 ($1)',
    ],
  ];
  const specWords = (text: string) => SPEC_WORDS.reduce((t, [re, to]) => t.replace(re, to), text);
  for (const tool of catalog)
    it(tool.name, async () => {
      const spec = await t.call(tool.name, argsFor(tool.name));
      const field = await ft.call(tool.name, argsFor(tool.name));
      expect(field.isError, field.text).toBe(spec.isError);
      expect(field.text).not.toMatch(/\bundefined\b|\[object Object\]/);
      if (tool.name !== 'get_alert_config' && tool.name !== 'list_alert_configs')
        expect(stable(specWords(field.text))).toBe(stable(spec.text));
    });
});
