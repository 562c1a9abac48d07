// The demo's one world state: which agent runs where, what each deployment did, which hosts and agents went
// quiet and when, what the metrics read, who changed what, which windows exist and why. Alerts (open and
// closed), events, agent states, host pings, metric values and automation status are all derived from it
// (agents.ts, automation.ts, alerts.ts, events.ts); nothing there is drawn at random that this file could
// contradict. Times are offsets from "now" in milliseconds (negative: ago). docs/demo-world.md tells the
// story; test/unit/demo-world.test.ts checks that every open alert, agent state and automation status
// follows from it. checkWorld() refuses a world that contradicts itself before anything is built.

import type { AgentState } from '../../vocabulary/index.js';
import { DAY, HOUR, MINUTE } from './gen.js';
import { USERS } from './people.js';
import { TOPOLOGY, type Topology } from './topology.js';

/** A host by its short name (`db-prod-04`); the domain is added when records are built. */
type Host = string;
type Person = string;

interface AgentSpec {
  type: 'MONITORING' | 'BACKUP';
  host: Host;
  state: AgentState;
}

/** An alert configuration of a project, or (project absent) a global one, by its event and metric. */
export interface ConfigRef {
  project?: string;
  event: string;
  metric?: string;
}

/** A configuration publish that moves some processes to a new goal version. */
export interface Deployment {
  project: string;
  at: number;
  by: Person;
  /** The goal version it published (the project's current goal when it is the latest). */
  goalVersion: number;
  change: { display: string; param: string; old: string; new: string };
  /** The processes it touches (by host) and those that have reached the goal. */
  hosts: Host[];
  done: Host[];
  /** The plan of the processes still on their way. */
  plan: string[];
  /** A process that failed to start: since when, and the error it reports. */
  fails?: { host: Host; at: number; code: number; human: string; error: string };
}

/** A mongod unreachable from `from` (to `to`, or still): the machine (agents quiet too) or only the process. */
export interface Outage {
  host: Host;
  from: number;
  to?: number;
  machine: boolean;
  why: string;
}

/** An agent that stopped reporting from `from` (to `to`, or still). */
export interface Silence {
  project: string;
  type: 'MONITORING' | 'BACKUP';
  host: Host;
  from: number;
  to?: number;
  why: string;
}

/** A measured value over its threshold from `since` (to `until`, or still); `cancelled` ended by a change. */
export interface Reading {
  host: Host;
  /** A metric name, or OPLOG_WINDOW (the replication oplog window, HOURS). */
  metric: string;
  value: number;
  units: string;
  since: number;
  until?: number;
  cancelled?: boolean;
}

interface ThresholdChange {
  config: ConfigRef;
  by: Person;
  at: number;
  from: number;
  to: number;
}

interface ConfigToggle {
  config: ConfigRef;
  by: Person;
  at: number;
  enabled: boolean;
}

/** A paging key replaced in the integration at `at`; the `stale` configurations' notifications keep the old one. */
interface KeyRotation {
  project: string;
  integration: string;
  by: Person;
  at: number;
  stale: ConfigRef[];
}

interface WindowSpec {
  project: string;
  start: number;
  end: number;
  alertTypeNames: string[];
  description?: string;
  by: Person;
}

interface Ack {
  config: ConfigRef;
  host: Host;
  by: Person;
  at: number;
  until: number;
  comment: string;
}

/** A project role offered to a person who has not accepted it yet (people.ts holds it as pending). */
interface Invitation {
  project: string;
  person: Person;
  role: string;
  by: Person;
  at: number;
}

export interface World {
  agents: Record<string, AgentSpec[]>;
  /** Automation agents run on every host, ACTIVE unless named here. */
  automationAgents: Record<Host, AgentState>;
  deployments: Deployment[];
  outages: Outage[];
  silences: Silence[];
  readings: Reading[];
  thresholdChanges: ThresholdChange[];
  toggles: ConfigToggle[];
  rotations: KeyRotation[];
  windows: WindowSpec[];
  acks: Ack[];
  invitations: Invitation[];
}

const PRIYA = 'priya.raman@example.com';
const MARCUS = 'marcus.chen@example.com';
const SOFIA = 'sofia.alvarez@example.com';
const DANA = 'dana.okafor@example.com';
const ADMIN = 'ops-admin@example.com';

const disk = (host: Host, value: number, since: number, until?: number): Reading => ({
  host,
  metric: 'DISK_PARTITION_SPACE_USED_DATA',
  value,
  units: 'RAW',
  since,
  ...(until === undefined ? {} : { until }),
});

const QT = 'QUERY_TARGETING_SCANNED_OBJECTS_PER_RETURNED';

/** A month of routine episodes that came and went: host, metric, value, units, days ago, hours it lasted. */
const PAST: Array<[Host, string, number, string, number, number]> = [
  ['db-prod-01', 'CONNECTIONS', 4105, 'RAW', 27, 2],
  ['db-prod-02', 'CONNECTIONS', 4220, 'RAW', 21, 1],
  ['db-prod-03', 'CONNECTIONS', 4050, 'RAW', 15, 0.5],
  ['db-prod-01', 'ASSERT_REGULAR', 12, 'RAW', 18, 1],
  ['db-prod-04', 'ASSERT_REGULAR', 11, 'RAW', 9, 0.5],
  ['db-prod-02', 'DISK_PARTITION_SPACE_USED_DATA', 91.2, 'RAW', 25, 6],
  ['db-prod-05', 'DISK_PARTITION_SPACE_USED_DATA', 95.2, 'RAW', 23, 1],
  ['db-prod-05', 'DISK_PARTITION_SPACE_USED_DATA', 90.8, 'RAW', 16, 4],
  ['db-prod-06', 'OPLOG_WINDOW', 21, 'HOURS', 19, 3],
  ['db-prod-04', 'OPLOG_WINDOW', 22, 'HOURS', 11, 2],
  ['db-stg-01', QT, 1450, 'RAW', 22, 1],
  ['db-stg-02', QT, 1210, 'RAW', 13, 2],
  ['db-stg-03', QT, 2600, 'RAW', 3, 1],
  ['db-analytics-03', 'DISK_PARTITION_SPACE_USED_INDEX', 90.9, 'RAW', 24, 5],
  ['db-analytics-06', 'DISK_PARTITION_SPACE_USED_INDEX', 91.4, 'RAW', 12, 3],
  ['db-analytics-02', 'OPLOG_SLAVE_LAG_MASTER_TIME', 75, 'SECONDS', 26, 0.5],
  ['db-analytics-05', 'OPLOG_SLAVE_LAG_MASTER_TIME', 130, 'SECONDS', 17, 1],
  ['db-analytics-03', 'OPLOG_SLAVE_LAG_MASTER_TIME', 68, 'SECONDS', 6, 0.5],
  ['db-analytics-01', 'MEMORY_RESIDENT', 29.1, 'GIGABYTES', 20, 8],
  ['db-analytics-02', 'MEMORY_RESIDENT', 28.7, 'GIGABYTES', 10, 5],
  ['db-analytics-02', 'DISK_PARTITION_SPACE_USED_DATA', 95.6, 'RAW', 14, 2],
];

export const WORLD: World = {
  agents: {
    'payments-prod': [
      { type: 'MONITORING', host: 'db-prod-01', state: 'ACTIVE' },
      { type: 'MONITORING', host: 'db-prod-04', state: 'STANDBY' },
      { type: 'BACKUP', host: 'db-prod-02', state: 'ACTIVE' },
      { type: 'BACKUP', host: 'db-prod-05', state: 'STANDBY' },
    ],
    'search-staging': [
      { type: 'MONITORING', host: 'db-stg-01', state: 'ACTIVE' },
      { type: 'BACKUP', host: 'db-stg-03', state: 'NO_PROCESSES' },
    ],
    'analytics-prod': [
      { type: 'MONITORING', host: 'mongos-analytics-01', state: 'ACTIVE' },
      { type: 'MONITORING', host: 'mongos-analytics-02', state: 'STANDBY' },
      { type: 'BACKUP', host: 'db-analytics-01', state: 'ACTIVE' },
      { type: 'BACKUP', host: 'db-analytics-06', state: 'STANDBY' },
    ],
    'platform-dev': [
      { type: 'MONITORING', host: 'db-dev-01', state: 'ACTIVE' },
      { type: 'MONITORING', host: 'db-dev-04', state: 'NO_PROCESSES' },
      { type: 'BACKUP', host: 'db-dev-02', state: 'STANDBY' },
    ],
  },
  automationAgents: { 'db-dev-04': 'NO_PROCESSES', 'mongos-analytics-02': 'STANDBY' },

  deployments: [
    {
      project: 'search-staging',
      at: -4 * DAY,
      by: SOFIA,
      goalVersion: 23,
      change: { display: 'Version', param: 'version', old: '7.0.12', new: '7.0.14' },
      hosts: ['db-stg-01', 'db-stg-02', 'db-stg-03'],
      done: ['db-stg-01', 'db-stg-02', 'db-stg-03'],
      plan: [],
    },
    {
      // The deployment that is stuck: rs-ledger to 7.0.14 during the patching window; the third member's
      // mongod does not come back because the old process still holds the port.
      project: 'payments-prod',
      at: -50 * MINUTE,
      by: PRIYA,
      goalVersion: 57,
      change: { display: 'Version', param: 'version', old: '7.0.12', new: '7.0.14' },
      hosts: ['db-prod-04', 'db-prod-05', 'db-prod-06'],
      done: ['db-prod-04', 'db-prod-05'],
      plan: ['Download', 'Start', 'WaitRsInit'],
      fails: {
        host: 'db-prod-06',
        at: -36 * MINUTE,
        code: 3,
        human: 'Process failed to start',
        error: 'exit status 48 (address already in use): the old mongod still holds port 27017',
      },
    },
    {
      // Rolling feature-compatibility change on shard 0, in progress.
      project: 'analytics-prod',
      at: -15 * MINUTE,
      by: SOFIA,
      goalVersion: 112,
      change: {
        display: 'Feature compatibility version',
        param: 'featureCompatibilityVersion',
        old: '6.0',
        new: '7.0',
      },
      hosts: ['db-analytics-01', 'db-analytics-02', 'db-analytics-03'],
      done: ['db-analytics-01'],
      plan: ['Download', 'Start', 'WaitFeatureCompatibilityVersionCorrect'],
    },
  ],

  outages: [
    {
      host: 'db-prod-06',
      from: -38 * MINUTE,
      machine: false,
      why: 'mongod stopped for the 7.0.14 upgrade and fails to start again (exit status 48)',
    },
    { host: 'db-analytics-04', from: -25 * MINUTE, machine: true, why: 'rack B lost power' },
    { host: 'db-analytics-05', from: -25 * MINUTE, machine: true, why: 'rack B lost power' },
    {
      host: 'db-stg-03',
      from: -6 * DAY,
      to: -6 * DAY + 40 * MINUTE,
      machine: true,
      why: 'hypervisor migration',
    },
    {
      host: 'db-prod-02',
      from: -12 * DAY,
      to: -12 * DAY + 12 * MINUTE,
      machine: false,
      why: 'mongod restart',
    },
  ],

  silences: [
    {
      project: 'payments-prod',
      type: 'MONITORING',
      host: 'db-prod-04',
      from: -45 * MINUTE,
      why: 'not restarted after db-prod-04 was rebooted for OS patching',
    },
    {
      project: 'analytics-prod',
      type: 'BACKUP',
      host: 'db-analytics-01',
      from: -2 * HOUR,
      why: 'the backup agent process exited (out of memory)',
    },
    {
      project: 'platform-dev',
      type: 'MONITORING',
      host: 'db-dev-01',
      from: -9 * DAY,
      to: -9 * DAY + 25 * MINUTE,
      why: 'agent upgrade',
    },
    {
      project: 'analytics-prod',
      type: 'BACKUP',
      host: 'db-analytics-06',
      from: -15 * DAY,
      to: -15 * DAY + 50 * MINUTE,
      why: 'disk full on the agent host',
    },
  ],

  readings: [
    // payments-prod, now: connections over 4000 on the rs-payments primary (pages through PagerDuty), two
    // data partitions between the old and the new disk threshold, a short oplog window on rs-ledger.
    { host: 'db-prod-01', metric: 'CONNECTIONS', value: 4412, units: 'RAW', since: -2 * HOUR },
    disk('db-prod-03', 87.4, -3 * DAY),
    disk('db-prod-04', 88.9, -5 * DAY),
    { host: 'db-prod-05', metric: 'OPLOG_WINDOW', value: 19, units: 'HOURS', since: -6 * HOUR },
    // search-staging: query targeting just crossed its threshold (tracking, not yet notified).
    {
      host: 'db-stg-02',
      metric: 'QUERY_TARGETING_SCANNED_OBJECTS_PER_RETURNED',
      value: 2350,
      units: 'RAW',
      since: -4 * MINUTE,
    },
    // analytics-prod: index partition, resident memory on shard 0, a data partition past the global 95.
    {
      host: 'db-analytics-03',
      metric: 'DISK_PARTITION_SPACE_USED_INDEX',
      value: 92.5,
      units: 'RAW',
      since: -9 * HOUR,
    },
    {
      host: 'db-analytics-01',
      metric: 'MEMORY_RESIDENT',
      value: 30.5,
      units: 'GIGABYTES',
      since: -14 * HOUR,
    },
    disk('db-analytics-02', 96.1, -30 * HOUR),
    // History: episodes that ended.
    {
      host: 'db-prod-02',
      metric: 'CONNECTIONS',
      value: 4310,
      units: 'RAW',
      since: -8 * DAY,
      until: -8 * DAY + 3 * HOUR,
    },
    {
      host: 'db-prod-01',
      metric: 'ASSERT_REGULAR',
      value: 14,
      units: 'RAW',
      since: -4 * DAY,
      until: -4 * DAY + HOUR,
    },
    disk('db-prod-04', 95.4, -7 * DAY, -7 * DAY + 5 * HOUR),
    {
      host: 'db-analytics-06',
      metric: 'OPLOG_SLAVE_LAG_MASTER_TIME',
      value: 95,
      units: 'SECONDS',
      since: -2 * DAY,
      until: -2 * DAY + 30 * MINUTE,
    },
    ...PAST.map(
      ([host, metric, value, units, days, hours]): Reading => ({
        host,
        metric,
        value,
        units,
        since: -days * DAY,
        until: -days * DAY + hours * HOUR,
      }),
    ),
    {
      host: 'db-stg-01',
      metric: QT,
      value: 1800,
      units: 'RAW',
      since: -5 * DAY,
      until: -5 * DAY + 20 * MINUTE,
      cancelled: true,
    },
  ],

  thresholdChanges: [
    {
      config: {
        project: 'payments-prod',
        event: 'OUTSIDE_METRIC_THRESHOLD',
        metric: 'DISK_PARTITION_SPACE_USED_DATA',
      },
      by: DANA,
      at: -23 * HOUR,
      from: 90,
      to: 85,
    },
  ],

  toggles: [
    {
      config: { project: 'search-staging', event: 'RESYNC_REQUIRED' },
      by: SOFIA,
      at: -12 * DAY,
      enabled: false,
    },
    {
      config: { project: 'platform-dev', event: 'OUTSIDE_METRIC_THRESHOLD', metric: 'CONNECTIONS' },
      by: SOFIA,
      at: -25 * DAY,
      enabled: false,
    },
  ],

  rotations: [
    {
      project: 'payments-prod',
      integration: 'INCIDENT_PAGING_A',
      by: PRIYA,
      at: -3 * DAY,
      stale: [{ project: 'payments-prod', event: 'OUTSIDE_METRIC_THRESHOLD', metric: 'CONNECTIONS' }],
    },
  ],

  windows: [
    {
      project: 'payments-prod',
      start: -1 * HOUR,
      end: 2 * HOUR,
      alertTypeNames: ['HOST', 'REPLICA_SET'],
      description: 'Rolling OS patching of rs-ledger; project-wide on purpose (rs-payments too)',
      by: PRIYA,
    },
    {
      project: 'payments-prod',
      start: -10 * DAY,
      end: -10 * DAY + 3 * HOUR,
      alertTypeNames: ['HOST'],
      description: 'Kernel upgrade',
      by: PRIYA,
    },
    {
      project: 'search-staging',
      start: 1 * DAY,
      end: 1 * DAY + 4 * HOUR,
      alertTypeNames: ['HOST', 'REPLICA_SET', 'AGENT'],
      description: 'Index rebuild on rs-search',
      by: SOFIA,
    },
    {
      project: 'analytics-prod',
      start: 3 * DAY,
      end: 3 * DAY + 6 * HOUR,
      alertTypeNames: ['CLUSTER', 'BACKUP'],
      by: MARCUS,
    },
    {
      project: 'analytics-prod',
      start: -20 * DAY,
      end: -20 * DAY + 2 * HOUR,
      alertTypeNames: ['CLUSTER'],
      description: 'Balancer window change',
      by: SOFIA,
    },
    {
      project: 'platform-dev',
      start: 7 * DAY,
      end: 7 * DAY + 1 * HOUR,
      alertTypeNames: ['AGENT'],
      description: 'Agent upgrade',
      by: SOFIA,
    },
  ],

  acks: [
    {
      config: {
        project: 'payments-prod',
        event: 'OUTSIDE_METRIC_THRESHOLD',
        metric: 'DISK_PARTITION_SPACE_USED_DATA',
      },
      host: 'db-prod-03',
      by: DANA,
      at: -20 * HOUR,
      until: 10 * HOUR,
      comment: 'Log cleanup scheduled tonight',
    },
    {
      config: { event: 'HOST_DOWN' },
      host: 'db-analytics-04',
      by: ADMIN,
      at: -8 * MINUTE,
      until: 6 * HOUR,
      comment: 'Rack B power loss: facilities on site',
    },
    {
      config: { project: 'analytics-prod', event: 'OUTSIDE_METRIC_THRESHOLD', metric: 'MEMORY_RESIDENT' },
      host: 'db-analytics-01',
      by: MARCUS,
      at: -12 * HOUR,
      until: -2 * HOUR,
      comment: 'Expected during the batch import',
    },
  ],

  invitations: [
    { project: 'search-staging', person: MARCUS, role: 'GROUP_READ_ONLY', by: SOFIA, at: -2 * DAY },
  ],
};

/** Percent-like metrics: never above 100. */
export const PERCENT_METRICS = ['DISK_PARTITION_SPACE_USED_DATA', 'DISK_PARTITION_SPACE_USED_INDEX'];

/** The hosts of a project as the topology names them (short names, in creation order). */
function shortHostsOf(topo: Topology): Host[] {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const out: Host[] = [];
  for (const set of topo.sets)
    for (let n = 0; n < set.count; n++) out.push(`${set.prefix}-${pad(set.from + n)}`);
  if (topo.mongos !== undefined)
    for (let n = 1; n <= topo.mongos.count; n++) out.push(`${topo.mongos.prefix}-${pad(n)}`);
  if (topo.standalone !== undefined) out.push(topo.standalone);
  return out;
}

interface ConfigLike {
  project?: string;
  event: string;
  metric?: string;
}

/**
 * What is wrong with a world, one line each (`where: reason`); empty when it holds together. The
 * configurations are those of alert-configs.ts (project and global).
 */
export function checkWorld(world: World, configs: ConfigLike[], topology: Topology[] = TOPOLOGY): string[] {
  const problems: string[] = [];
  const bad = (where: string, why: string): void => {
    problems.push(`${where}: ${why}`);
  };
  const projectOf = new Map<Host, string>();
  for (const topo of topology) for (const h of shortHostsOf(topo)) projectOf.set(h, topo.name);
  const projects = new Set(topology.map((t) => t.name));
  const people = new Set(USERS.map((u) => u.username));
  const hostIn = (where: string, host: Host, project?: string): void => {
    const p = projectOf.get(host);
    if (p === undefined) bad(where, `host ${host} does not exist`);
    else if (project !== undefined && p !== project) bad(where, `host ${host} is in ${p}, not in ${project}`);
  };
  const person = (where: string, who: Person): void => {
    if (!people.has(who)) bad(where, `nobody is called ${who}`);
  };
  const config = (where: string, ref: ConfigRef): void => {
    if (ref.project !== undefined && !projects.has(ref.project))
      bad(where, `project ${ref.project} does not exist`);
    const n = configs.filter(
      (c) =>
        c.project === ref.project &&
        c.event === ref.event &&
        (ref.metric === undefined || c.metric === ref.metric),
    ).length;
    if (n !== 1)
      bad(
        where,
        `${n === 0 ? 'no' : 'more than one'} alert configuration ${ref.event}${ref.metric ? ` ${ref.metric}` : ''} in ${ref.project ?? 'the global configurations'}`,
      );
  };
  const span = (where: string, from: number, to: number | undefined): void => {
    if (from > 0) bad(where, 'starts in the future');
    if (to !== undefined && to <= from) bad(where, 'ends before it starts');
    if (to !== undefined && to > 0) bad(where, 'ends in the future (leave the end out while it lasts)');
  };

  for (const [project, agents] of Object.entries(world.agents)) {
    if (!projects.has(project)) bad(`agents.${project}`, 'no such project');
    for (const [i, a] of agents.entries())
      hostIn(`agents.${project}[${i}] (${a.type} on ${a.host})`, a.host, project);
  }
  for (const host of Object.keys(world.automationAgents)) hostIn(`automationAgents.${host}`, host);
  world.deployments.forEach((d, i) => {
    const where = `deployments[${i}] (${d.project}, ${d.change.param})`;
    person(where, d.by);
    if (d.at > 0) bad(where, 'is in the future');
    for (const h of [...d.hosts, ...d.done]) hostIn(where, h, d.project);
    for (const h of d.done) if (!d.hosts.includes(h)) bad(where, `${h} is done but not part of it`);
    if (d.fails !== undefined) {
      hostIn(where, d.fails.host, d.project);
      if (d.done.includes(d.fails.host)) bad(where, `${d.fails.host} both reached the goal and failed`);
      if (d.fails.at < d.at) bad(where, 'fails before it was published');
    }
    const goal = topology.find((t) => t.name === d.project)?.goalVersion;
    if (goal !== undefined && d.goalVersion > goal)
      bad(where, `goal version ${d.goalVersion} is past the project's ${goal}`);
  });
  world.outages.forEach((o, i) => {
    const where = `outages[${i}] (${o.host})`;
    hostIn(where, o.host);
    span(where, o.from, o.to);
  });
  world.silences.forEach((s, i) => {
    const where = `silences[${i}] (${s.type} on ${s.host})`;
    span(where, s.from, s.to);
    if (!(world.agents[s.project] ?? []).some((a) => a.type === s.type && a.host === s.host))
      bad(where, `no ${s.type} agent runs on ${s.host} in ${s.project}`);
  });
  world.readings.forEach((r, i) => {
    const where = `readings[${i}] (${r.metric} on ${r.host})`;
    hostIn(where, r.host);
    span(where, r.since, r.until);
    if (r.value < 0) bad(where, 'a negative value');
    if (PERCENT_METRICS.includes(r.metric) && r.value > 100) bad(where, `${r.value} % is more than 100 %`);
  });
  world.thresholdChanges.forEach((c, i) => {
    const where = `thresholdChanges[${i}]`;
    config(where, c.config);
    person(where, c.by);
    if (c.at > 0) bad(where, 'is in the future');
  });
  world.toggles.forEach((t, i) => {
    config(`toggles[${i}]`, t.config);
    person(`toggles[${i}]`, t.by);
  });
  world.rotations.forEach((r, i) => {
    const where = `rotations[${i}] (${r.integration} of ${r.project})`;
    person(where, r.by);
    for (const ref of r.stale) config(where, ref);
  });
  world.windows.forEach((w, i) => {
    const where = `windows[${i}] (${w.project}${w.description ? `, ${w.description.slice(0, 30)}` : ''})`;
    if (!projects.has(w.project)) bad(where, 'no such project');
    if (w.end <= w.start) bad(where, 'ends before it starts');
    if (w.alertTypeNames.length === 0) bad(where, 'mutes nothing');
    person(where, w.by);
  });
  world.acks.forEach((a, i) => {
    const where = `acks[${i}] (${a.host})`;
    config(where, a.config);
    hostIn(where, a.host, a.config.project);
    person(where, a.by);
    if (a.at > 0) bad(where, 'acknowledged in the future');
    if (a.until <= a.at) bad(where, 'expires before it was given');
  });
  world.invitations.forEach((v, i) => {
    const where = `invitations[${i}] (${v.person} to ${v.project})`;
    person(where, v.by);
    if (v.at > 0) bad(where, 'is in the future');
    const pending = USERS.find((u) => u.username === v.person)?.pending ?? [];
    if (!pending.some((r) => Array.isArray(r) && r[0] === v.project && r[1] === v.role))
      bad(where, `people.ts does not hold ${v.role} in ${v.project} as pending for ${v.person}`);
  });
  for (const u of USERS)
    for (const r of u.pending ?? [])
      if (Array.isArray(r) && !world.invitations.some((v) => v.person === u.username && v.project === r[0]))
        bad(`people: ${u.username}`, `pending ${r[1]} in ${r[0]} that no invitation of the world explains`);
  return problems;
}
