// The demo is one world: every open alert, every agent's state and every process behind its goal must be
// explained by something the world holds (a host that stopped pinging, an agent gone quiet past its
// threshold, a reading over it, a deployment under way), and every such condition must show where it
// should. The checks read the built records the way a person reads the answers — not the code that
// derived them — so a datum that nothing explains fails here, whoever put it there.
import { describe, expect, it } from 'vitest';
import { assertWorld, buildDemoDataset, WorldError } from '../../src/simulator/data/index.js';
import { WORLD } from '../../src/simulator/data/world.js';
import type { World } from '../../src/simulator/data/world-types.js';
import { startSimulator } from '../../src/simulator/index.js';
import type {
  AlertConfigRec,
  AlertRec,
  GlobalAlertConfigRec,
  HostRec,
  StoreData,
} from '../../src/simulator/records.js';

const NOW = new Date('2026-11-21T16:00:00Z');
const MIN = 60_000;
const PERCENT = ['DISK_PARTITION_SPACE_USED_DATA', 'DISK_PARTITION_SPACE_USED_INDEX'];
/** An agent or host that reported longer ago than this is quiet. */
const QUIET = 5 * MIN;

type Config = AlertConfigRec | GlobalAlertConfigRec;

const ago = (t: string): number => NOW.getTime() - Date.parse(t);
const short = (hostname: string): string => hostname.split('.')[0]!;
const thresholdMs = (c: Config): number =>
  (c.threshold?.units === 'HOURS' ? 60 : 1) * (c.threshold?.threshold ?? 0) * MIN;
const over = (value: number, op: string, limit: number): boolean =>
  op === 'LESS_THAN' ? value < limit : value > limit;

/** Every datum of the dataset that no part of the world explains, one line each. */
function unexplained(d: StoreData): string[] {
  const out: string[] = [];
  const name = (groupId?: string): string => d.projects.find((p) => p.id === groupId)?.name ?? `?${groupId}`;
  const configs: Config[] = [...d.alertConfigs, ...d.globalAlertConfigs];
  const hostOf = (a: AlertRec): HostRec | undefined =>
    d.hosts.find((h) => h.groupId === a.groupId && `${h.hostname}:${h.port}` === a.hostnameAndPort);
  const agentsOn = (groupId: string | undefined, type: string, hostname: string) =>
    d.agents.filter((x) => x.groupId === groupId && x.typeName === type && x.hostname === hostname);
  const hostQuiet = (h: HostRec): boolean => ago(h.lastPing) > QUIET;
  const agentLast = (x: { typeName: string; lastPing?: string; lastConf: string }): number =>
    ago(x.typeName === 'MONITORING' ? (x.lastPing ?? x.lastConf) : x.lastConf);
  const outage = (h: HostRec) =>
    WORLD.outages.find((o) => o.host === short(h.hostname) && o.to === undefined);

  // 1. Each open or tracking alert, from a condition that holds now.
  for (const a of [...d.alerts, ...d.globalAlerts]) {
    if (a.status !== 'OPEN' && a.status !== 'TRACKING') continue;
    const c = configs.find((x) => x.id === a.alertConfigId);
    const where = `${a.status} ${a.eventTypeName} alert ${a.id} in ${name(a.groupId)} on ${a.hostnameAndPort ?? a.replicaSetName}`;
    if (c === undefined || !c.enabled) {
      out.push(`${where}: its configuration is missing or disabled`);
      continue;
    }
    const host = hostOf(a);
    const limit = c.metricThreshold ?? c.threshold;
    switch (a.eventTypeName) {
      case 'HOST_DOWN':
        if (host === undefined || ago(host.lastPing) < thresholdMs(c) || outage(host) === undefined)
          out.push(
            `${where}: the host pinged ${host ? `${Math.round(ago(host.lastPing) / 1000)} s ago` : 'never'}`,
          );
        break;
      case 'MONITORING_AGENT_DOWN':
      case 'BACKUP_AGENT_DOWN': {
        const type = a.eventTypeName.split('_')[0]!;
        const agents = host === undefined ? [] : agentsOn(a.groupId, type, host.hostname);
        if (agents.length === 0) out.push(`${where}: no ${type} agent runs there`);
        else if (!agents.some((x) => agentLast(x) > thresholdMs(c)))
          out.push(`${where}: its ${type} agent reported ${Math.round(agentLast(agents[0]!) / 1000)} s ago`);
        break;
      }
      case 'NO_PRIMARY': {
        const members = d.hosts.filter(
          (h) => h.groupId === a.groupId && h.replicaSetName === a.replicaSetName,
        );
        const down = members.filter(hostQuiet).length;
        if (members.length === 0 || down < members.length - Math.floor(members.length / 2))
          out.push(`${where}: ${members.length - down} of ${members.length} members are reachable`);
        break;
      }
      case 'OUTSIDE_METRIC_THRESHOLD':
      case 'REPLICATION_OPLOG_WINDOW_RUNNING_OUT': {
        const v = a.currentValue;
        const metric = c.metricThreshold?.metricName ?? 'OPLOG_WINDOW';
        const reading = WORLD.readings.find(
          (r) => host && r.host === short(host.hostname) && r.metric === metric && r.until === undefined,
        );
        if (
          host === undefined ||
          v === undefined ||
          limit === undefined ||
          !over(v.number, limit.operator, limit.threshold)
        )
          out.push(`${where}: ${v?.number} ${v?.units} is not past ${limit?.operator} ${limit?.threshold}`);
        else if (reading === undefined || reading.value !== v.number)
          out.push(`${where}: no reading of ${metric} ${v.number} there in the world`);
        else if (a.status === 'TRACKING' && ago(a.created) > QUIET)
          out.push(`${where}: tracking for too long`);
        break;
      }
      default:
        out.push(`${where}: nothing in the world raises ${a.eventTypeName}`);
    }
  }
  // 2. Each condition past a threshold, alerting where it should.
  const openFor = (c: Config, groupId: string, test: (a: AlertRec) => boolean): boolean =>
    [...d.alerts, ...d.globalAlerts].some(
      (a) => a.alertConfigId === c.id && a.groupId === groupId && a.status === 'OPEN' && test(a),
    );
  const applies = (c: Config, groupId: string): boolean =>
    'groupId' in c ? c.groupId === groupId : c.forAllGroups || c.groupIds.includes(groupId);
  for (const c of configs.filter((x) => x.enabled)) {
    for (const p of d.projects) {
      if (!applies(c, p.id)) continue;
      if (c.eventTypeName === 'HOST_DOWN' && c.matchers.length === 0)
        for (const h of d.hosts.filter((x) => x.groupId === p.id && ago(x.lastPing) > thresholdMs(c)))
          if (!openFor(c, p.id, (a) => a.hostId === h.id))
            out.push(
              `${h.hostname} stopped pinging but ${c.eventTypeName} (${c.id}) has no open alert for it`,
            );
      if (c.eventTypeName === 'MONITORING_AGENT_DOWN' || c.eventTypeName === 'BACKUP_AGENT_DOWN') {
        const type = c.eventTypeName.split('_')[0];
        for (const x of d.agents.filter(
          (y) => y.groupId === p.id && y.typeName === type && agentLast(y) > thresholdMs(c),
        ))
          if (!openFor(c, p.id, (a) => a.hostnameAndPort?.startsWith(`${x.hostname}:`) === true))
            out.push(`the ${type} agent on ${x.hostname} is quiet but ${c.id} has no open alert for it`);
      }
    }
  }
  // 3. Agents: on a host of their project; quiet only for a reason the world gives.
  for (const x of d.agents) {
    const where = `${x.typeName} agent on ${x.hostname} in ${name(x.groupId)}`;
    const host = d.hosts.find((h) => h.groupId === x.groupId && h.hostname === x.hostname);
    if (host === undefined) out.push(`${where}: no such host in the project`);
    if (agentLast(x) <= QUIET) continue;
    const silence = WORLD.silences.find(
      (s) =>
        s.host === short(x.hostname) &&
        s.type === x.typeName &&
        s.to === undefined &&
        name(x.groupId) === s.project,
    );
    const machine = WORLD.outages.find(
      (o) => o.host === short(x.hostname) && o.machine && o.to === undefined,
    );
    if (silence === undefined && machine === undefined) out.push(`${where}: quiet for no reason`);
  }
  for (const h of d.hosts)
    if (hostQuiet(h) && outage(h) === undefined) out.push(`${h.hostname} stopped pinging for no reason`);
  // 4. Automation: behind the goal only in a deployment under way; an error only where it failed.
  for (const s of d.automation) {
    for (const p of s.processes) {
      const where = `${p.name} on ${p.hostname} in ${name(s.groupId)}`;
      const behind = p.lastGoalVersionAchieved !== s.goalVersion;
      const published = d.events.some(
        (e) =>
          e.groupId === s.groupId &&
          e.eventTypeName === 'AUTOMATION_CONFIG_PUBLISHED_AUDIT' &&
          typeof e.username === 'string' &&
          Date.parse(e.created) <= Date.parse(p.planUpdated) &&
          ((e.diffs as Array<{ name?: string }> | undefined) ?? []).some((x) => x.name === p.name),
      );
      if (behind && !published) out.push(`${where}: behind the goal with no deployment naming it`);
      if (behind && p.plan.length === 0) out.push(`${where}: behind the goal with no plan`);
      if (!behind && (p.plan.length > 0 || p.errorCode !== 0))
        out.push(`${where}: at the goal with a plan or error`);
      const failed = WORLD.deployments.some(
        (x) => x.fails !== undefined && `${x.fails.host}` === short(p.hostname),
      );
      if (p.errorCode !== 0 && !failed) out.push(`${where}: an error no deployment explains`);
    }
  }
  // 5. Values within their units, events that agree with the hosts and agents.
  for (const a of [...d.alerts, ...d.globalAlerts, ...d.events]) {
    const v = a.currentValue as { number?: number } | undefined;
    const metric = a.metricName as string | undefined;
    if (v?.number !== undefined && (v.number < 0 || (metric && PERCENT.includes(metric) && v.number > 100)))
      out.push(`${a.eventTypeName} ${a.id}: ${v.number} ${metric} is out of range`);
  }
  for (const e of d.events) {
    const hostname = e.hostname as string | undefined;
    if ((e.eventTypeName === 'HOST_DOWN' || e.eventTypeName === 'HOST_RECOVERED') && hostname !== undefined)
      if (!WORLD.outages.some((o) => o.host === short(hostname)))
        out.push(`${e.eventTypeName} event ${e.id} on ${hostname}, which never went down`);
    if (e.eventTypeName.endsWith('_AGENT_DOWN') || e.eventTypeName.endsWith('_AGENT_UP')) {
      const type = e.eventTypeName.split('_')[0]!;
      if (hostname === undefined || agentsOn(e.groupId, type, hostname).length === 0)
        out.push(
          `${e.eventTypeName} event ${e.id} on ${hostname}, where no ${type} agent of ${name(e.groupId)} runs`,
        );
    }
    if (e.eventTypeName === 'ALERT_CONFIG_CHANGED_AUDIT') {
      const params = (e.diffs as Array<{ params?: Array<{ old?: string; new?: string }> }> | undefined)?.[0]
        ?.params;
      if (typeof e.username !== 'string' || params?.[0]?.old === undefined)
        out.push(`${e.eventTypeName} event ${e.id}: no author or no before → after`);
    }
  }
  for (const w of d.maintenanceWindows)
    if (Date.parse(w.endDate) <= Date.parse(w.startDate)) out.push(`window ${w.id} ends before it starts`);
  return out;
}

const demo = (): StoreData => buildDemoDataset(20260101, NOW);

describe('the demo world', () => {
  it('explains every open alert, agent state and automation status, and nothing goes unalerted', () => {
    expect(unexplained(demo())).toEqual([]);
  });

  it('holds the incidents the on-call answers are measured on', () => {
    const d = demo();
    const project = (n: string) => d.projects.find((p) => p.name === n)!.id;
    const open = [...d.alerts, ...d.globalAlerts].filter((a) => a.status === 'OPEN');
    // A project with no primary.
    expect(
      open.some((a) => a.eventTypeName === 'NO_PRIMARY' && a.groupId === project('analytics-prod')),
    ).toBe(true);
    // A deployment failing with its error, in payments-prod.
    const failing = d.automation
      .find((s) => s.groupId === project('payments-prod'))!
      .processes.filter((p) => p.errorCode !== 0);
    expect(failing.map((p) => [p.name, p.errorString.includes('exit status 48')])).toEqual([
      ['rs-ledger_2', true],
    ]);
    // A backup agent down, a monitoring agent silent 45 minutes, each alerting only where it runs.
    const agentAlerts = open.filter((a) => a.eventTypeName.endsWith('_AGENT_DOWN'));
    expect(new Set(agentAlerts.map((a) => `${a.eventTypeName} ${a.hostnameAndPort}`))).toEqual(
      new Set([
        'BACKUP_AGENT_DOWN db-analytics-01.example.internal:27018',
        'MONITORING_AGENT_DOWN db-prod-04.example.internal:27017',
      ]),
    );
    const silent = d.agents.find((a) => a.typeName === 'MONITORING' && a.hostname.startsWith('db-prod-04'))!;
    expect(Math.round(ago(silent.lastPing!) / MIN)).toBe(45);
    // A threshold changed yesterday by a named person, before → after.
    const change = d.events.find(
      (e) => e.eventTypeName === 'ALERT_CONFIG_CHANGED_AUDIT' && ago(e.created) < 24 * 60 * MIN,
    )!;
    expect(change.username).toBe('dana.okafor@example.com');
    expect(JSON.stringify(change.diffs)).toContain('"old":"90","new":"85"');
    // Priya has roles in several projects.
    const priya = d.users.find((u) => u.username.includes('priya'))!;
    expect(new Set(priya.roles.map((r) => r.groupId).filter(Boolean)).size).toBeGreaterThan(1);
    // The PagerDuty key rotated; the CONNECTIONS > 4000 notification still carries the old key.
    const key = d.integrations.find(
      (i) => i.groupId === project('payments-prod') && i.type === 'INCIDENT_PAGING_A',
    )!.fields.serviceKey;
    const connections = d.alertConfigs.find(
      (c) => c.metricThreshold?.metricName === 'CONNECTIONS' && c.metricThreshold.threshold === 4000,
    )!;
    const paging = connections.notifications.find((n) => n.typeName === 'INCIDENT_PAGING_A')!;
    expect(String(paging.serviceKey).slice(-4)).not.toBe(String(key).slice(-4));
    // The window in force says what it is for.
    const inForce = d.maintenanceWindows.filter((w) => ago(w.startDate) > 0 && ago(w.endDate) < 0);
    expect(inForce.map((w) => w.description)).toEqual([expect.stringMatching(/project-wide/)]);
  });

  it('finds a datum that nothing explains (an agent-down alert where no agent is quiet)', () => {
    const d = demo();
    const config = d.alertConfigs.find((c) => c.eventTypeName === 'MONITORING_AGENT_DOWN')!;
    const host = d.hosts.find((h) => h.groupId === config.groupId && h.hostname.startsWith('db-prod-05'))!;
    d.alerts.push({
      id: 'a'.repeat(24),
      alertConfigId: config.id,
      groupId: config.groupId,
      created: NOW.toISOString(),
      updated: NOW.toISOString(),
      status: 'OPEN',
      eventTypeName: 'MONITORING_AGENT_DOWN',
      hostnameAndPort: `${host.hostname}:${host.port}`,
    });
    d.hosts.find((h) => h.hostname.startsWith('db-prod-02'))!.lastPing = '2026-11-21T15:00:00Z';
    d.alerts.find((a) => a.metricName === 'CONNECTIONS' && a.status === 'OPEN')!.currentValue = {
      number: 127.19,
      units: 'RAW',
    };
    expect(unexplained(d)).toEqual([
      expect.stringContaining('127.19 RAW is not past GREATER_THAN 4000'),
      expect.stringContaining('no MONITORING agent runs there'),
      expect.stringContaining('db-prod-02.example.internal stopped pinging but HOST_DOWN'),
      expect.stringContaining('db-prod-02.example.internal stopped pinging but HOST_DOWN'),
      'db-prod-02.example.internal stopped pinging for no reason',
    ]);
  });

  it('refuses a world that contradicts itself, saying where and why', () => {
    expect(() => assertWorld(WORLD)).not.toThrow();
    const broken: World = structuredClone(WORLD);
    broken.agents['payments-prod']!.push({ type: 'BACKUP', host: 'db-prod-09', state: 'ACTIVE' });
    broken.windows[0] = { ...broken.windows[0]!, start: 2 * 60 * MIN, end: -60 * MIN };
    broken.readings.push({
      host: 'db-prod-01',
      metric: 'DISK_PARTITION_SPACE_USED_DATA',
      value: 127.19,
      units: 'RAW',
      since: -MIN,
    });
    let error: unknown;
    try {
      assertWorld(broken);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WorldError);
    expect((error as WorldError).problems).toEqual([
      'agents.payments-prod[4] (BACKUP on db-prod-09): host db-prod-09 does not exist',
      expect.stringMatching(
        /^readings\[\d+\] \(DISK_PARTITION_SPACE_USED_DATA on db-prod-01\): 127.19 % is more than 100 %$/,
      ),
      expect.stringMatching(/^windows\[0\] \(payments-prod, .*\): ends before it starts$/),
    ]);
    expect((error as Error).message).toMatch(
      /^The demo world contradicts itself:\n {2}agents\.payments-prod\[4\]/,
    );
  });

  it('stops the simulator at start when the world contradicts itself', async () => {
    const agents = WORLD.agents['platform-dev']!;
    agents.push({ type: 'MONITORING', host: 'db-dev-09', state: 'ACTIVE' });
    try {
      await expect(startSimulator({ dataset: 'demo', port: 0 })).rejects.toThrow(
        /contradicts itself:\n {2}agents\.platform-dev\[3\] \(MONITORING on db-dev-09\): host db-dev-09 does not exist/,
      );
    } finally {
      agents.pop();
    }
    const sim = await startSimulator({ dataset: 'empty', port: 0 });
    await sim.close();
  });
});
