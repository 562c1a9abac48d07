// The whole installation in one call (issue 42): `projectId: "all"` and its refusals, every project read (no
// 40- or 200-project cap), progress on a long read, and a partial answer — what was read, what is missing and
// why — when the time limit (DBOPS_INSTALLATION_READ_MS) runs out or the request budget (DBOPS_RATE_LIMIT) is
// spent, never an error or a hang. Against a generated installation of 60 projects.
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/mcp.js';
import { type Simulator, startTestSimulator } from '../helpers/sim.js';

const PROJECTS = 60;
let sim: Simulator;
let t: TestServer;

beforeAll(async () => {
  sim = await startTestSimulator({ projects: PROJECTS });
  t = await startTestServer({ sim });
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

describe('the installation scope', () => {
  it("lists every project's rows, each naming its project", async () => {
    const r = await t.call('list_hosts', { projectId: 'all', itemsPerPage: 500 });
    expect(r.isError, r.text).toBe(false);
    const s = r.structured as any;
    expect(s.totalCount).toBe(sim.store.data.hosts.length);
    expect(s.projects).toEqual({ seen: PROJECTS, read: PROJECTS });
    const names = new Map(sim.store.data.projects.map((p) => [p.id, p.name]));
    for (const h of s.results) expect(h.projectName).toBe(names.get(h.projectId));
    // One host per name across the installation: "db-prod-06" is payments-prod's.
    expect(r.text.match(/db-prod-06\./g)).toHaveLength(1);
  });

  it('refuses a scope that is no project, naming the valid ones', async () => {
    const r = await t.call('list_open_alerts', { projectId: 'everything' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/id or name .*list_projects.*"all" for every project/);
  });

  it('refuses "all" where a tool takes one project', async () => {
    const r = await t.call('get_alert_config', {
      projectId: 'all',
      alertConfigId: sim.store.data.alertConfigs[0]!.id,
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('projectId "all" (every project) is for the list tools');
  });
});

describe('what the installation reads', () => {
  it("reads the installation's global alerts once, not once per project", async () => {
    // No read cache here (the test server keeps nothing): each project reading them for itself re-read them.
    sim.stats.reset();
    const r = await t.call('list_open_alerts', { projectId: 'all' });
    expect(r.isError, r.text).toBe(false);
    const enabled = sim.store.data.globalAlertConfigs.filter((c) => c.enabled !== false).length;
    expect(sim.stats.byRoute['GET /globalAlertConfigs']).toBe(1);
    expect(sim.stats.byRoute['GET /globalAlertConfigs/:globalAlertConfigId/alerts']).toBe(enabled);
  });
});

describe('no fixed caps', () => {
  it('find_user searches the members of every project, not the first 40', async () => {
    const last = sim.store.data.projects.at(-1)!;
    const owner = sim.store.data.users.find((u) => u.roles.some((r) => r.groupId === last.id))!;
    const r = await t.call('find_user', { query: owner.username.split('@')[0]! });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain(owner.username);
    expect(r.text).toContain(`among the members of ${PROJECTS} projects`);
  });

  it('triage_installation ranks every project, with progress once the read takes over a second', async () => {
    sim.setFaults({ latencyMs: 40 });
    try {
      const progress: Progress[] = [];
      const r = await t.client.callTool({ name: 'triage_installation', arguments: {} }, undefined, {
        onprogress: (p) => progress.push(p),
        timeout: 120_000,
      });
      const text = (r.content as Array<{ text: string }>)[0]!.text;
      expect(r.isError, text).toBeFalsy();
      expect(text).toMatch(new RegExp(`^# Installation: ${PROJECTS} projects`));
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.at(-1)).toMatchObject({ total: PROJECTS });
      expect(progress.every((p) => p.progress <= PROJECTS)).toBe(true);
    } finally {
      sim.setFaults({ latencyMs: 0 });
    }
  }, 150_000);
});

describe('partial answers', () => {
  it('past the time limit: what was read, marked partial, and which projects are missing', async () => {
    const slow = await startTestServer({ sim, config: { installationReadMs: 1_000 } });
    sim.setFaults({ latencyMs: 200 });
    try {
      const r = await slow.call('list_alert_configs', { projectId: 'all' });
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toContain('**Partial answer**');
      expect(r.text).toContain('the time limit of 1 s (DBOPS_INSTALLATION_READ_MS)');
      expect(r.text).toMatch(/Missing \(not read within the time limit\): `[^`]+` \(/);
      const s = r.structured as any;
      expect(s.partial).toBe(true);
      expect(s.projects.read).toBeLessThan(PROJECTS);
      expect(s.missing.length).toBe(PROJECTS - s.projects.read);
    } finally {
      sim.setFaults({ latencyMs: 0 });
      await slow.close();
    }
  }, 60_000);

  it('with DBOPS_RATE_LIMIT too small for the whole installation: what fits, and what is missing', async () => {
    const budgeted = await startTestServer({ sim, apiOptions: { rateLimit: 20 } });
    try {
      const r = await budgeted.call('list_hosts', { projectId: 'all' });
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toContain('**Partial answer**');
      expect(r.text).toContain('DBOPS_RATE_LIMIT=20 requests per minute');
      expect(r.text).toMatch(/Missing \(not read: the request budget is spent\): .* and \d+ more\./);
      const s = r.structured as any;
      expect(s.projects.read).toBeGreaterThan(0);
      expect(s.projects.read + s.missing.length).toBe(PROJECTS);
    } finally {
      await budgeted.close();
    }
  }, 60_000);
});
