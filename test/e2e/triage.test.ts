// triage_project and list_open_alerts end to end: SDK client ↔ server ↔ API client ↔ simulator (digest,
// loopback), including the spec-only fallback when the server lacks the project-wide alert list.
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { supports } from '../../src/api/capabilities.js';
import { ApiError } from '../../src/api/errors.js';
import { loadRecentEvents } from '../../src/model/index.js';
import { changeKind } from '../../src/rules/index.js';
import { startSimulator } from '../../src/simulator/index.js';
import { routes } from '../../src/simulator/routes/index.js';
import { startTestServer, type TestServer, withDemoServer } from '../helpers/mcp.js';

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let t: TestServer;
withDemoServer((s, server) => {
  sim = s;
  t = server;
});

const openAlertsOf = (s: Sim, projectId: string, statuses = ['OPEN', 'TRACKING']) =>
  s.store.data.alerts.filter((a) => a.groupId === projectId && statuses.includes(a.status));
/** What a project's alert list must hold: its own alerts and the global ones on its hosts (the API lists
 * a global configuration's OPEN alerts only). */
const alertsOfProject = (s: Sim, projectId: string, statuses = ['OPEN', 'TRACKING']) => [
  ...openAlertsOf(s, projectId, statuses),
  ...s.store.data.globalAlerts.filter(
    (a) => a.groupId === projectId && a.status === 'OPEN' && statuses.includes('OPEN'),
  ),
];

/** Counts the per-configuration alert reads the server launches (wrapping its API client). */
function countPerConfigReads(server: TestServer): { launched: number } {
  const counter = { launched: 0 };
  const area = server.deps.api.alertConfigs;
  const original = area.listOpenAlerts.bind(area);
  area.listOpenAlerts = (...args) => {
    counter.launched += 1;
    return original(...args);
  };
  return counter;
}

/** A server of the spec only: no project-wide alert list (404 RESOURCE_NOT_FOUND), no list of maintenance windows. */
const BEYOND_SPEC_LISTS = ['/groups/:projectId/alerts', '/groups/:projectId/maintenanceWindows'];
function specOnlySimulator(options: Parameters<typeof startSimulator>[0] = {}) {
  return startSimulator({
    dataset: 'demo',
    port: 0,
    ...options,
    routes: routes.filter((r) => !(r.method === 'GET' && BEYOND_SPEC_LISTS.includes(r.path))),
  });
}

/** Where the timeline line of a change starts (a change to an alert's configuration is also noted by the alert). */
const changeLine = (text: string, eventId: string) =>
  new RegExp(`^- \\*\\*.*\\(eventId ${eventId}\\)$`, 'm').exec(text)?.index ?? -1;

async function callWithProgress(server: TestServer, name: string, args: Record<string, unknown>) {
  const progress: Progress[] = [];
  const r = await server.client.callTool({ name, arguments: args }, undefined, {
    onprogress: (p) => progress.push(p),
  });
  return { r, progress };
}

describe('triage_project', () => {
  it('tells what changed, then what broke, in under 4,000 characters with the ids follow-up calls need', async () => {
    const projectId = sim.projectIds[0]!;
    const r = await t.call('triage_project', {});
    expect(r.isError).toBe(false);
    expect(r.text.length).toBeLessThan(4_000);
    const s = r.structured as any;
    expect(s.projectId).toBe(projectId);
    expect(s.errors).toEqual([]);

    // Every open alert of the demo project, global ones on its hosts too, with its configuration id, in the
    // text and the structure.
    const open = alertsOfProject(sim, projectId);
    expect(open.length).toBeGreaterThan(3);
    expect(open.some((a) => sim.store.data.globalAlerts.includes(a))).toBe(true);
    expect(s.alerts.totalCount).toBe(open.length);
    // The headline's parts add up to its total: "10 alerts (8 open, 2 tracking)", not "9 open (2 tracking)";
    // with none tracking (the demo project now), "7 open alerts".
    const tracking = open.filter((a) => a.status === 'TRACKING').length;
    const head = /\*\*Alerts\*\*: (\d+) (?:open )?alerts(?: \((\d+) open, (\d+) tracking\))?/.exec(r.text);
    expect(head, r.text.split('\n')[1]).not.toBeNull();
    expect(Number(head![1])).toBe(open.length);
    expect(Number(head![2] ?? head![1]) + Number(head![3] ?? 0)).toBe(open.length);
    expect(Number(head![3] ?? 0)).toBe(tracking);
    expect(head![3] === undefined).toBe(tracking === 0);
    for (const a of open) {
      expect(r.text).toContain(a.id);
      expect(r.text).toContain(a.alertConfigId);
    }
    // Acknowledged vs not, and the processes behind the goal with their remaining plan.
    const acked = open.filter((a) => a.acknowledgedUntil && Date.parse(a.acknowledgedUntil) > Date.now());
    expect(s.alerts.acknowledgedCount).toBe(acked.length);
    const behind = sim.store.data.automation
      .find((x) => x.groupId === projectId)!
      .processes.filter((p) => p.plan.length > 0);
    expect(behind.length).toBeGreaterThan(0);
    for (const p of behind) {
      expect(r.text).toContain(p.name);
      expect(r.text).toContain(p.plan.join(' → '));
    }
    // The maintenance window in force, with its id.
    const active = sim.store.data.maintenanceWindows.filter(
      (w) =>
        w.groupId === projectId &&
        Date.parse(w.startDate) <= Date.now() &&
        Date.parse(w.endDate) > Date.now(),
    );
    expect(active.length).toBeGreaterThan(0);
    for (const w of active) expect(r.text).toContain(w.id);

    // Changes only (no metric or host noise, no data reads; data writes are changes), each with its event id.
    const changes = s.changes as Array<{ id: string; eventTypeName: string; opType?: string }>;
    expect(changes.length).toBeGreaterThan(0);
    for (const c of changes) {
      expect(c.eventTypeName).not.toMatch(/METRIC_THRESHOLD|^HOST_|ALERT_ACKNOWLEDGED/);
      if (c.opType) expect(c.opType).toMatch(/INSERT|UPDATE|DELETE|REPLACE/);
      expect(r.text).toContain(c.id);
    }

    // Chronological: the timeline is oldest first and the text follows it.
    const tl = s.timeline as Array<{ time: string; kind: string; eventId?: string; alertIds?: string[] }>;
    const times = tl.map((e) => Date.parse(e.time));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const positions = tl.map((e) =>
      e.kind === 'change' ? changeLine(r.text, e.eventId!) : r.text.indexOf(e.alertIds![0]!),
    );
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));

    // Platform text is fenced.
    const tag = /<(data-[0-9a-f]+)>/.exec(r.text)?.[1];
    expect(tag).toBeDefined();
    expect(r.text).toContain(`</${tag}>`);
  });

  it('looks back up to 720 hours and says how to see the changes it leaves out', async () => {
    const r = await t.call('triage_project', { sinceHours: 720 });
    expect(r.isError).toBe(false);
    const s = r.structured as any;
    expect(s.window.hours).toBe(720);
    // structuredContent is bounded (16,000 characters): it lists the changes that fit and counts the rest.
    const counted = s.leftOut?.find((c: { path: string }) => c.path === 'changes')?.of ?? s.changes.length;
    expect(counted).toBeGreaterThan(12);
    // Every change in the window, read as triage reads them.
    const since = new Date(Date.now() - 720 * 3_600_000);
    const recent = await loadRecentEvents(t.deps.api, { projectId: sim.projectIds[0]! }, since);
    const changes = recent.events.filter((e) => changeKind(e) !== undefined);
    expect(changes.length).toBe(counted);
    // The oldest changes (before the first alert: the likeliest causes) stay; the middle run is left out,
    // counted, and named by the exact range that fetches it.
    const oldestFirst = [...changes].reverse() as Array<{ id: string; created: string }>;
    expect(r.text).toContain(oldestFirst[0]!.id);
    expect(r.text).toContain(oldestFirst.at(-1)!.id);
    const gap =
      /(\d+) changes between (\S+) and (\S+) left out: list_project_events with minDate=(\S+) and maxDate=(\S+),/.exec(
        r.text,
      );
    expect(gap).not.toBeNull();
    const [, count, from, to] = gap!;
    const inGap = oldestFirst.filter((c) => c.created >= from! && c.created <= to!);
    expect(inGap.length).toBe(Number(count));
    for (const c of inGap) expect(changeLine(r.text, c.id)).toBe(-1);
    expect(oldestFirst.filter((c) => changeLine(r.text, c.id) >= 0).length).toBe(12);
    expect(r.text.length).toBeLessThan(6_000);

    const tooFar = await t.call('triage_project', { sinceHours: 721 });
    expect(tooFar.isError).toBe(true);
  });

  it('reports an unknown project as an error, not as an empty triage', async () => {
    const r = await t.call('triage_project', { projectId: 'aaaaaaaaaaaaaaaaaaaaaaaa' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/project/i);
  });

  /** A server whose reads of one area are refused (401), the others as they are. */
  const unauthorized = (path: string) => async () => {
    throw new ApiError({
      status: 401,
      errorCode: 'USER_UNAUTHORIZED',
      detail: 'Current user is not authorized to perform this action.',
      method: 'GET',
      path,
    });
  };

  // The agents are one section too: a failed read of them is named like any other.
  it.each([
    [
      'automation',
      'Automation',
      (s2: TestServer) => {
        s2.deps.api.automation.status = unauthorized(`/groups/${sim.projectIds[0]}/automationStatus/full`);
      },
    ],
    [
      'agents',
      'Agents',
      (s2: TestServer) => {
        s2.deps.api.agents.list = unauthorized(`/groups/${sim.projectIds[0]}/agents/MONITORING`);
      },
    ],
  ] as const)(
    'still answers when the %s cannot be read, and says which and why',
    async (section, label, refuse) => {
      const s2 = await startTestServer({ sim });
      try {
        refuse(s2);
        const r = await s2.call('triage_project', {});
        expect(r.isError).toBe(false);
        const s = r.structured as any;
        expect(s[section]).toBeNull();
        expect(s.errors).toEqual([
          { section, message: expect.stringMatching(/USER_UNAUTHORIZED|not authorized/) },
        ]);
        expect(r.text).toMatch(new RegExp(`\\*\\*${label}\\*\\*: unavailable — `));
        expect(s.alerts.totalCount).toBeGreaterThan(0);
      } finally {
        await s2.close();
      }
    },
  );

  it('reports progress per section when asked', async () => {
    const { r, progress } = await callWithProgress(t, 'triage_project', {});
    expect(r.isError).toBeFalsy();
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5]);
    expect(progress.every((p) => p.total === 5)).toBe(true);
  });

  it('leads with a silent monitoring agent: where, since when, and what it means', async () => {
    const projectId = sim.projectIds[0]!;
    const r = await t.call('triage_project', {});
    const agents = sim.store.data.agents.filter(
      (a) => a.groupId === projectId && a.typeName === 'MONITORING',
    );
    const silent = agents.filter((a) => Date.now() - Date.parse(a.lastPing ?? '') > 10 * 60_000);
    const active = agents.find((a) => a.stateName === 'ACTIVE' && !silent.includes(a))!;
    expect(silent.length).toBe(1);
    // The first line under the heading: the agent, its last ping, the threshold, and what it means.
    const lead = r.text.split('\n')[1]!;
    expect(lead).toMatch(/^\*\*Agents\*\*: /);
    const host = silent[0]!.hostname.split('.')[0]!;
    const minutes = Math.round((Date.now() - Date.parse(silent[0]!.lastPing!)) / 60_000);
    expect(lead).toContain(host);
    expect(lead).toContain(silent[0]!.stateName!);
    expect(lead).toMatch(
      new RegExp(`last ping (${minutes - 1}|${minutes}|${minutes + 1}) min ago, past 10 min`),
    );
    // A silent standby with an active agent that pings: alerts still fire, but no one takes over.
    expect(lead).toContain(active.hostname.split('.')[0]!);
    expect(lead).toMatch(/alerts still fire/);
    expect((r.structured as any).agents.silent).toEqual([
      expect.objectContaining({ hostname: silent[0]!.hostname }),
    ]);
  });

  it('says since when and by whom each process is behind its goal, even when the publish is older than the window', async () => {
    const projectId = sim.projectIds[0]!;
    const s = sim.store.data.automation.find((x) => x.groupId === projectId)!;
    const pub = sim.store.data.events
      .filter((e) => e.groupId === projectId && e.eventTypeName === 'AUTOMATION_CONFIG_PUBLISHED_AUDIT')
      .sort((a, b) => Date.parse(b.created) - Date.parse(a.created))[0]!;
    const created = pub.created;
    // Published 3 h ago, outside a window of the last hour (a fresh server: no read kept from before).
    pub.created = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const s2 = await startTestServer({ sim });
    try {
      const r = await s2.call('triage_project', { sinceHours: 1 });
      for (const p of s.processes.filter((x) => x.plan.length > 0)) {
        const line = r.text.split('\n').find((l) => l.includes(p.name) && l.includes('published'));
        expect(line, r.text).toBeDefined();
        expect(line).toMatch(new RegExp(`published 3 h ago by \x60?${pub.username}`));
      }
    } finally {
      pub.created = created;
      await s2.close();
    }
  });
});

describe('list_open_alerts', () => {
  it('reads many things at once under one call without a listener-leak warning', async () => {
    const warnings: string[] = [];
    const hear = (w: Error) => warnings.push(w.name);
    process.on('warning', hear);
    try {
      // triage_installation reads every project at once: well over ten reads share the call's signal.
      expect((await t.call('triage_installation', {})).isError).toBe(false);
      expect((await t.call('triage_project', {})).isError).toBe(false);
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      process.off('warning', hear);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('lists the open and tracking alerts of a project grouped by cause, with progress', async () => {
    const projectId = sim.projectIds[0]!;
    const { r, progress } = await callWithProgress(t, 'list_open_alerts', {});
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as any;
    const open = alertsOfProject(sim, projectId);
    expect(s.source).toBe('project');
    expect(s.totalCount).toBe(open.length);
    expect(s.trackingCount).toBe(open.filter((a) => a.status === 'TRACKING').length);
    // The rows share one budget with the text (DBOPS_MAX_OUTPUT_CHARS): the first ones in full, and leftOut
    // says how many of how many when some did not fit.
    const ids = new Set(open.map((a) => a.id));
    for (const a of s.alerts) expect(ids.has(a.id)).toBe(true);
    if (s.alerts.length < open.length)
      expect(s.leftOut).toContainEqual({ path: 'alerts', kept: s.alerts.length, of: open.length });
    // One group per cause; every alert in exactly one group.
    const grouped = s.groups.flatMap((g: { alertIds: string[] }) => g.alertIds);
    expect(grouped.sort()).toEqual(open.map((a) => a.id).sort());
    const text = (r.content as Array<{ text: string }>)[0]!.text;
    for (const g of s.groups) expect(text).toContain(g.alertConfigIds[0]);

    // Progress: one step per list read (alert configurations, OPEN, TRACKING, the global configurations and
    // each enabled one's alerts), increasing, ending at a total that never shrank.
    const globalConfigs = sim.store.data.globalAlertConfigs.filter((c) => c.enabled);
    const reads = 3 + 1 + globalConfigs.length;
    expect(progress.map((p) => p.progress)).toEqual(Array.from({ length: reads }, (_, i) => i + 1));
    expect(progress.at(-1)!.total).toBe(reads);
    const totals = progress.map((p) => p.total!);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    expect(progress.every((p) => typeof p.message === 'string')).toBe(true);
  });

  it('names the window that mutes each cause, and the global alerts on the project hosts', async () => {
    const projectId = sim.projectIds[0]!;
    const r = await t.call('list_open_alerts', {});
    const active = sim.store.data.maintenanceWindows.find(
      (w) =>
        w.groupId === projectId &&
        w.alertTypeNames.includes('HOST') &&
        Date.parse(w.startDate) <= Date.now() &&
        Date.parse(w.endDate) > Date.now(),
    )!;
    const hostDown = r.text.split('\n').find((l) => l.startsWith('#### HOST_DOWN'))!;
    // By its description, and why it applies: windows mute their alert types project-wide.
    expect(hostDown).toContain(`muted by "${active.description!.slice(0, 30)}`);
    expect(hostDown).toContain('project-wide');
    const agentDown = r.text.split('\n').find((l) => l.startsWith('#### MONITORING_AGENT_DOWN'))!;
    expect(agentDown).not.toContain('muted'); // the window mutes HOST and REPLICA_SET, not AGENT
    const global = sim.store.data.globalAlerts.find((a) => a.groupId === projectId && a.status === 'OPEN')!;
    const heading = r.text.split('\n').find((l) => l.includes(`globalAlertConfigId ${global.alertConfigId}`));
    expect(heading).toContain('(global)');
    expect(r.text).toContain(global.id);
    expect(r.text).toContain('acknowledge_global_alert');
  });

  it('still lists the project alerts with a key that cannot read global alerts, and says so', async () => {
    const key = sim.store.fixtures!.readOnly;
    const s2 = await startTestServer({
      sim,
      config: { publicKey: key.publicKey, privateKey: key.privateKey, projectId: key.projectId },
    });
    try {
      const r = await s2.call('list_open_alerts', {});
      expect(r.isError, r.text).toBe(false);
      expect((r.structured as any).totalCount).toBe(openAlertsOf(sim, key.projectId).length);
      expect(r.text).toContain('were not checked: this key has no global role');
    } finally {
      await s2.close();
    }
  });

  it('still lists the project alerts when the global alerts cannot be read for another reason', async () => {
    const s2 = await startTestServer({ sim });
    try {
      s2.deps.api.globalAlerts.listConfigs = async () => {
        throw new ApiError({
          status: 500,
          errorCode: 'UNEXPECTED_ERROR',
          method: 'GET',
          path: '/globalAlertConfigs',
        });
      };
      const r = await s2.call('triage_project', {});
      expect(r.isError, r.text).toBe(false);
      expect((r.structured as any).errors).toEqual([]);
      expect((r.structured as any).alerts.totalCount).toBe(openAlertsOf(sim, sim.projectIds[0]!).length);
      expect(r.text).toMatch(/Global alerts .* were not checked: the platform answered: .*500/);
    } finally {
      await s2.close();
    }
  });

  it('filters by status', async () => {
    const r = await t.call('list_open_alerts', { status: 'TRACKING' });
    const s = r.structured as any;
    expect(s.totalCount).toBe(openAlertsOf(sim, sim.projectIds[0]!, ['TRACKING']).length);
    expect(s.alerts.every((a: { status: string }) => a.status === 'TRACKING')).toBe(true);
  });
});

describe('a server without the project-wide alert list', () => {
  it('falls back to the alert configurations and their open alerts, and remembers that for the session', async () => {
    const specOnly = await specOnlySimulator();
    const s2 = await startTestServer({ sim: specOnly });
    try {
      const projectId = specOnly.projectIds[0]!;
      const configs = specOnly.store.data.alertConfigs.filter((c) => c.groupId === projectId);
      const reads = countPerConfigReads(s2);
      const { r, progress } = await callWithProgress(s2, 'list_open_alerts', {});
      expect(r.isError).toBeFalsy();
      const s = r.structuredContent as any;
      expect(s.source).toBe('per-config');
      // The spec's per-configuration list holds OPEN alerts only.
      expect(s.totalCount).toBe(alertsOfProject(specOnly, projectId, ['OPEN']).length);
      expect((r.content as Array<{ text: string }>)[0]!.text).toContain('read per alert configuration');
      expect(supports(s2.deps.api, 'projectAlerts')).toBe(false);
      // Progress covers the fan-out: the configuration list and one read per configuration.
      const globalReads = 1 + specOnly.store.data.globalAlertConfigs.filter((c) => c.enabled).length;
      const allReads = 1 + configs.length + globalReads;
      expect(progress.at(-1)).toMatchObject({ progress: allReads, total: allReads });
      expect(reads.launched).toBe(configs.length);

      // Later calls go straight to the fallback: no second 404.
      const notFound = specOnly.stats.byStatus['404'] ?? 0;
      expect(notFound).toBeGreaterThan(0);
      const triage = await s2.call('triage_project', {});
      expect(triage.isError).toBe(false);
      expect((triage.structured as any).alerts.source).toBe('per-config');
      // No maintenance window list either: said so, not mistaken for "no windows".
      expect((triage.structured as any).maintenanceWindows).toBeNull();
      expect(triage.text).toContain('this server cannot list maintenance windows');
      // The window list path exists for POST only: 405, asked once and remembered like the 404.
      const notAllowed = specOnly.stats.byStatus['405'] ?? 0;
      expect(notAllowed).toBe(1);
      await s2.call('triage_project', {});
      expect(specOnly.stats.byStatus['404'] ?? 0).toBe(notFound);
      expect(specOnly.stats.byStatus['405'] ?? 0).toBe(notAllowed);
    } finally {
      await s2.close();
      await specOnly.close();
    }
  });

  it('stops launching reads when the call is cancelled', async () => {
    const specOnly = await specOnlySimulator({ faults: { latencyMs: 150 } });
    const s2 = await startTestServer({ sim: specOnly });
    try {
      const projectId = specOnly.projectIds[0]!;
      const configs = specOnly.store.data.alertConfigs.filter((c) => c.groupId === projectId);
      expect(configs.length).toBeGreaterThan(5);
      const reads = countPerConfigReads(s2);
      const ac = new AbortController();
      const call = s2.client.callTool({ name: 'list_open_alerts', arguments: {} }, undefined, {
        signal: ac.signal,
        onprogress: (p) => {
          if (p.message?.includes('configuration ')) ac.abort();
        },
      });
      await expect(call).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 600));
      // Four in flight when the first finished and one launched after it; the last never started.
      expect(reads.launched).toBeGreaterThanOrEqual(4);
      expect(reads.launched).toBeLessThan(configs.length);
    } finally {
      await s2.close();
      await specOnly.close();
    }
  });
});

describe('triage_installation', () => {
  it('ranks every project by what matters now, names its worst causes, and counts what the platform lists', async () => {
    const sim = await startSimulator({ dataset: 'demo', port: 0 });
    const t = await startTestServer({ sim });
    try {
      const r = await t.call('triage_installation', {});
      expect(r.isError, r.text).toBe(false);
      expect(r.text.length).toBeLessThan(4_000);
      const tiers = [
        'unmuted data availability',
        'unmuted paging',
        'unmuted alerts',
        'muted or acknowledged',
        'informational',
        'quiet',
      ];
      const rows = (r.structured?.results ?? []) as Array<{
        projectId: string;
        name: string;
        tier: string;
        openAlerts: number;
        causes: Array<{ cause: string }>;
      }>;
      expect(rows.map((x) => x.projectId).sort()).toEqual([...sim.projectIds].sort());
      // Most urgent first.
      for (let i = 1; i < rows.length; i++)
        expect(tiers.indexOf(rows[i - 1]!.tier)).toBeLessThanOrEqual(tiers.indexOf(rows[i]!.tier));
      for (const [i, row] of rows.entries()) {
        // The project's own open and tracking alerts, and the global ones on its hosts (listed when OPEN).
        const open = [
          ...sim.store.data.alerts.filter((a) => a.status === 'OPEN' || a.status === 'TRACKING'),
          ...sim.store.data.globalAlerts.filter((a) => a.status === 'OPEN'),
        ].filter((a) => a.groupId === row.projectId);
        expect(row.openAlerts, row.projectId).toBe(open.length);
        // Each project by name and id, ranked, with its tier in words.
        expect(r.text).toMatch(
          new RegExp(`^## ${i + 1}\\. \`${row.name}\` \\(${row.projectId}\\) — ${row.tier}`, 'm'),
        );
      }
      expect(r.text).toMatch(/^Next: triage_project\b.* with a projectId\.$/m);
    } finally {
      await t.close();
      await sim.close();
    }
  });
});
