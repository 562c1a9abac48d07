// What a client that shows the model only structuredContent (or the whole result: LangChain and mcp-use hand
// the model the text and the structured content together) gets: at the demo data and at 100× the demo data,
// triage and every list tool stay under the caps — the structured part alone, and the text and the structured
// part together within one budget (DBOPS_MAX_OUTPUT_CHARS) — and every answer says what to do next.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { scaleStore } from '../clients/scale.js';
import { startTestServer, type TestServer } from '../helpers/mcp.js';

const CAP = 16_000;
/** DBOPS_MAX_OUTPUT_CHARS's default: text and JSON(structuredContent) together. */
const BOTH = 12_000;
type Sim = Awaited<ReturnType<typeof startSimulator>>;

/** Triage and every list tool, with the arguments a model would send first. */
function listCalls(sim: Sim): Array<[string, Record<string, unknown>]> {
  const d = sim.store.data;
  const project = sim.projectIds[0]!;
  const config = d.alertConfigs.find((c) => c.groupId === project)!;
  const global = d.globalAlertConfigs[0]!;
  const user = d.users[0]!;
  return [
    ['triage_project', {}],
    ['triage_project', { responseFormat: 'detailed', sinceHours: 720 }],
    ['list_open_alerts', {}],
    ['list_open_alerts', { status: 'TRACKING', responseFormat: 'detailed' }],
    ['list_projects', {}],
    ['list_alert_configs', { itemsPerPage: 500, responseFormat: 'detailed' }],
    ['list_open_alerts_for_config', { alertConfigId: config.id, itemsPerPage: 500 }],
    ['list_global_alert_configs', { itemsPerPage: 500 }],
    ['list_open_global_alerts_for_config', { globalAlertConfigId: global.id, itemsPerPage: 500 }],
    ['list_maintenance_windows', { itemsPerPage: 500 }],
    ['list_project_events', { itemsPerPage: 500, includeRaw: true, responseFormat: 'detailed' }],
    ['list_global_events', { itemsPerPage: 500, responseFormat: 'detailed' }],
    ['get_automation_status', { responseFormat: 'detailed' }],
    ['list_hosts', { itemsPerPage: 500 }],
    ['list_agents', { agentType: 'MONITORING', itemsPerPage: 500 }],
    ['list_integrations', {}],
    ['get_user_access_list', { userId: user.id, itemsPerPage: 500 }],
    ['list_matcher_field_names', {}],
  ];
}

for (const times of [1, 100]) {
  describe(`structuredContent at ${times}× the demo data`, () => {
    let sim: Sim;
    let t: TestServer;
    beforeAll(async () => {
      sim = await startSimulator({ dataset: 'demo', port: 0 });
      scaleStore(sim.store, times);
      t = await startTestServer({ sim });
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await sim?.close();
    });

    it('is at most 16,000 characters for triage and every list tool, with a nextStep', async () => {
      const sizes: Record<string, number> = {};
      const together: Record<string, number> = {};
      for (const [name, args] of listCalls(sim)) {
        const r = await t.call(name, args);
        expect(r.isError, `${name}: ${r.text}`).toBe(false);
        const size = JSON.stringify(r.structured).length;
        sizes[`${name} ${JSON.stringify(args)}`] = size;
        // mcp-use hands its model the whole result as JSON (the text JSON-escaped): the strictest measure.
        together[`${name} ${JSON.stringify(args)}`] = JSON.stringify({
          content: [{ type: 'text', text: r.text }],
          structuredContent: r.structured,
          isError: false,
        }).length;
        if (typeof r.structured?.['nextStep'] !== 'string') sizes[`${name} without nextStep`] = 0;
      }
      console.log(`structured sizes at ${times}×`, sizes);
      const over = Object.entries(sizes).filter(([, n]) => n > CAP || n === 0);
      expect(over).toEqual([]);
      console.log(`text + structured at ${times}×`, together);
      expect(Object.entries(together).filter(([, n]) => n > BOTH)).toEqual([]);
    }, 120_000);

    if (times > 1)
      it('sends the model to a call for the alerts the text leaves out, not to a part that may be cut', async () => {
        const r = await t.call('list_open_alerts', {});
        expect(r.text).toMatch(/\d+ more alerts not shown: list_open_alerts_for_config per configuration/);
        expect(r.text).not.toContain('structuredContent');
      });
  });
}
