// The model (src/model/) reads what each tool draws and no more: the platform requests of each read tool on the
// demo, counted by the simulator's own statistics (no cache, so every read counts), are what they were before
// the model. A tool that starts paying for parts it does not draw fails here.
import { describe, expect, it } from 'vitest';
import type { Simulator as Sim } from '../../src/simulator/index.js';
import { type TestServer, withDemoServer } from '../helpers/mcp.js';

/**
 * Requests per call, measured on the tree before src/model/ (commit 80e0838), the digest challenge aside.
 * triage_project and list_open_alerts (and triage_installation, per project) read two more since issue 41 (what happens to each alert): the
 * project's integrations (a notification's key against them) and its acknowledgement and integration events
 * (a lapsed acknowledgement; who replaced a key) — src/model/fates.ts. list_hosts of a project reads its open
 * alerts too (6 more: project and global, with their configurations): a host's state and a set's writability
 * rest on an open HOST_DOWN or NO_PRIMARY beside the pings (src/rules/hosts.ts). triage_project reads four
 * more since issue 41's last part: the three agent lists (a silent agent leads it) and the goal's publish (since
 * when a process is behind, whatever the window).
 */
const BEFORE: Array<[string, Record<string, unknown>, number]> = [
  ['triage_project', {}, 18],
  ['triage_installation', {}, 48],
  ['triage_installation', { sinceHours: 24 }, 56],
  ['list_open_alerts', {}, 12],
  ['get_automation_status', {}, 5],
  ['list_agents', { agentType: 'MONITORING' }, 9],
  ['list_hosts', {}, 8],
  ['list_maintenance_windows', {}, 2],
  ['list_project_events', {}, 5],
  ['list_alert_configs', {}, 2],
];

let sim: Sim;
let t: TestServer;
withDemoServer(
  (s, server) => {
    sim = s;
    t = server;
  },
  { config: { cacheTtlMs: 0 } },
);

async function requests(tool: string, args: Record<string, unknown>): Promise<number> {
  await t.call('list_projects', {}); // the digest challenge and the names, before counting
  sim.stats.reset();
  const r = await t.call(tool, args);
  expect(r.isError, r.text).toBe(false);
  return sim.stats.requests;
}

describe('platform requests per read tool', () => {
  it('are what they were before the model', async () => {
    const seen: Array<[string, Record<string, unknown>, number]> = [];
    for (const [tool, args] of CALLS) seen.push([tool, args, await requests(tool, args)]);
    expect(seen).toEqual(BEFORE);
  });
});

const CALLS: Array<[string, Record<string, unknown>]> = [
  ['triage_project', {}],
  ['triage_installation', {}],
  ['triage_installation', { sinceHours: 24 }],
  ['list_open_alerts', {}],
  ['get_automation_status', {}],
  ['list_agents', { agentType: 'MONITORING' }],
  ['list_hosts', {}],
  ['list_maintenance_windows', {}],
  ['list_project_events', {}],
  ['list_alert_configs', {}],
];
