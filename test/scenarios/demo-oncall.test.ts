// The on-call questions (docs/oncall.md), asked of the demo world (docs/demo-world.md) through the real path
// (MCP client → server → digest → simulator): each answer must hold the facts the world makes true, by the
// names and ids a person acts on. The ten questions with their calls and sizes: oncall.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { startTestServer, type TestServer } from '../helpers/mcp.js';
import { startTestSimulator } from '../helpers/sim.js';

let sim: Simulator;
let t: TestServer;
beforeAll(async () => {
  sim = await startTestSimulator();
  // Changes answer with their preview: nothing the questions ask changes the world.
  t = await startTestServer({ sim, config: { confirm: 'write' } });
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

const project = (name: string): string => sim.store.data.projects.find((p) => p.name === name)!.id;
const openAlerts = (groupId: string, type: string) =>
  [...sim.store.data.alerts, ...sim.store.data.globalAlerts].filter(
    (a) => a.groupId === groupId && a.eventTypeName === type && a.status === 'OPEN',
  );

describe('on call, on the demo world', () => {
  it('what is alerting in payments-prod, and why? — the stuck deployment, the silent agent, the change before the disk alerts, the window', async () => {
    const payments = project('payments-prod');
    const r = await t.call('triage_project', { projectId: payments });
    expect(r.isError, r.text).toBe(false);
    expect(r.text.length).toBeLessThan(4_000);
    const hostDown = openAlerts(payments, 'HOST_DOWN');
    expect(new Set(hostDown.map((a) => a.hostnameAndPort))).toEqual(
      new Set(['db-prod-06.example.internal:27017']),
    );
    const agentDown = openAlerts(payments, 'MONITORING_AGENT_DOWN');
    expect(agentDown.map((a) => a.hostnameAndPort)).toEqual(['db-prod-04.example.internal:27017']);
    const change = sim.store.data.events.find(
      (e) => e.groupId === payments && e.eventTypeName === 'ALERT_CONFIG_CHANGED_AUDIT',
    )!;
    const window = sim.store.data.maintenanceWindows.find(
      (w) =>
        w.groupId === payments && Date.parse(w.startDate) < Date.now() && Date.parse(w.endDate) > Date.now(),
    )!;
    for (const fact of [
      ...hostDown.map((a) => a.id),
      ...agentDown.map((a) => a.id),
      'rs-ledger_2',
      'exit status 48',
      change.id,
      'dana.okafor@example.com',
      '90 → 85',
      window.id,
      'project-wide on purpose',
    ])
      expect(r.text, fact).toContain(fact);
  });

  it('is the backup agent running? — not on db-analytics-01, quiet 2 h, where both agent-down alerts are', async () => {
    const analytics = project('analytics-prod');
    const r = await t.call('list_agents', { projectId: analytics, agentType: 'BACKUP' });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(/db-analytics-01\.example\.internal \| ACTIVE \| [\d-]+ [\d:]+ \(2 h ago\)/);
    expect(r.text).toMatch(/db-analytics-06\.example\.internal \| STANDBY \| [\d-]+ [\d:]+ \(\d+ s ago\)/);
    expect(new Set(openAlerts(analytics, 'BACKUP_AGENT_DOWN').map((a) => a.hostnameAndPort))).toEqual(
      new Set(['db-analytics-01.example.internal:27018']),
    );
  });

  it('is the monitoring agent running? — db-prod-01 pings; db-prod-04 silent 45 min', async () => {
    const r = await t.call('list_agents', { projectId: project('payments-prod'), agentType: 'MONITORING' });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(
      /db-prod-04\.example\.internal \| STANDBY \| [\d-]+ [\d:]+ \(45 min ago\) \| [\d-]+ [\d:]+ \(45 min ago\)/,
    );
    expect(r.text).toMatch(
      /db-prod-01\.example\.internal \| ACTIVE \| [\d-]+ [\d:]+ \(\d+ s ago\) \| [\d-]+ [\d:]+ \(\d+ s ago\)/,
    );
  });

  it('why is the deployment stuck? — rs-ledger_2 on db-prod-06 failed to start, its plan, behind goal 57', async () => {
    const r = await t.call('get_automation_status', { projectId: project('payments-prod') });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(
      /rs-ledger_2 \| db-prod-06\.example\.internal \| 56 \| Download → Start → WaitRsInit \| Process failed to start/,
    );
    expect(r.text).toContain('goal version 57');
  });

  it('who changed the threshold yesterday? — Dana Okafor, 23 h ago, 90 → 85', async () => {
    const r = await t.call('list_project_events', {
      projectId: project('payments-prod'),
      eventType: ['ALERT_CONFIG_CHANGED_AUDIT'],
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(/\(23 h ago\) \| ALERT_CONFIG_CHANGED_AUDIT \| dana\.okafor@example\.com/);
    expect(r.text).toContain('90 → 85');
  });

  it('give Priya read access to search-staging — who she is and where she has roles', async () => {
    const priya = sim.store.data.users.find((u) => u.username.includes('priya'))!;
    const r = await t.call('find_user', { username: priya.username });
    expect(r.isError, r.text).toBe(false);
    for (const fact of [
      priya.username,
      priya.id,
      `GROUP_OWNER @ project payments-prod (${project('payments-prod')})`,
    ])
      expect(r.text).toContain(fact);
    const projects = new Set(priya.roles.map((x) => x.groupId).filter(Boolean));
    expect(projects).toEqual(new Set([project('payments-prod'), project('analytics-prod')]));
  });

  it('rotate the PagerDuty key — the CONNECTIONS > 4000 notification still carries the previous key', async () => {
    const payments = project('payments-prod');
    const integration = sim.store.data.integrations.find(
      (i) => i.groupId === payments && i.type === 'INCIDENT_PAGING_A',
    )!;
    const config = sim.store.data.alertConfigs.find(
      (c) => c.groupId === payments && c.metricThreshold?.metricName === 'CONNECTIONS',
    )!;
    const current = String(integration.fields.serviceKey).slice(-4);
    const old = String(
      config.notifications.find((n) => n.typeName === 'INCIDENT_PAGING_A')!.serviceKey,
    ).slice(-4);
    expect(old).not.toBe(current);
    const listed = await t.call('list_integrations', { projectId: payments });
    expect(listed.text).toContain(`serviceKey=******${current}`);
    const shown = await t.call('get_alert_config', { projectId: payments, alertConfigId: config.id });
    expect(shown.isError, shown.text).toBe(false);
    expect(shown.text).toContain(old);
    expect(shown.text).not.toContain(current);
    const rotation = sim.store.data.events.find(
      (e) => e.groupId === payments && e.eventTypeName === 'INTEGRATION_UPDATED',
    )!;
    expect(rotation).toMatchObject({
      username: 'priya.raman@example.com',
      integrationType: 'INCIDENT_PAGING_A',
    });
  });

  it('what is on fire across all projects? — analytics-prod (no primary, hosts down) before payments-prod; the others quiet', async () => {
    const r = await t.call('triage_installation', {});
    expect(r.isError, r.text).toBe(false);
    // Ranked headings: "## 1. `analytics-prod` (id) — unmuted data availability, 8 open".
    const at = (name: string) => r.text.search(new RegExp(`^## \\d+\\. \`${name}\``, 'm'));
    expect(at('analytics-prod')).toBeGreaterThan(0);
    expect(at('analytics-prod')).toBeLessThan(at('payments-prod'));
    expect(r.text).toMatch(/^## \d+\. `search-staging` \(\w+\) — [a-z ]+, [01] open$/m);
    expect(r.text).toMatch(/^## \d+\. `platform-dev` \(\w+\) — [a-z ]+, 0 open$/m);
    const analytics = project('analytics-prod');
    expect(openAlerts(analytics, 'NO_PRIMARY').map((a) => a.replicaSetName)).toEqual(['analytics-shard-1']);
  });

  it('silence disk alerts during patching — what goes quiet by name, paging first, and it asks first', async () => {
    const r = await t.call('create_maintenance_window', {
      projectId: project('payments-prod'),
      startDate: new Date(Date.now() + 3_600_000).toISOString(),
      endDate: new Date(Date.now() + 3 * 3_600_000).toISOString(),
      alertTypeNames: ['HOST'],
      description: 'Kernel patching',
    });
    expect(r.structured?.outcome, r.text).toBe('confirmation_required');
    for (const fact of [
      'Pages go quiet',
      'Project-wide',
      'host down (HOST_DOWN)',
      'Disk alerts cannot be muted alone',
      '`Disk space used on data partition > 85 %`',
    ])
      expect(r.text).toContain(fact);
    const lines = r.text.split('\n');
    const at = (s: string) => lines.findIndex((l) => l.includes(s));
    expect(at('pages via')).toBeLessThan(at('`Disk space used on data partition'));
    expect(r.text.length).toBeLessThan(4000);
  });

  it('find Priya by part of her name, her roles whole, named by project', async () => {
    const priya = sim.store.data.users.find((u) => u.username.includes('priya'))!;
    const r = await t.call('find_user', { query: 'priya' });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain(priya.id);
    for (const role of priya.roles.filter((x) => x.groupId)) {
      const name = sim.store.data.projects.find((p) => p.id === role.groupId)!.name;
      expect(r.text).toContain(`- ${role.roleName} @ project ${name} (${role.groupId})`);
    }
    expect(r.text).not.toContain('…');
  });
});
