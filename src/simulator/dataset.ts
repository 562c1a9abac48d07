// The demo dataset: one organization with four projects, their hosts, agents, automation status, alert
// configurations and alerts, maintenance windows, integrations, users and keys, and a month of events.
// Every value comes from a seeded PRNG, so ids and contents are identical on every start for a given seed;
// timestamps are offsets from the `now` at creation.

import {
  type AgentRec,
  type AlertConfigRec,
  type AlertRec,
  type AlertStatus,
  accessListEntry,
  type EventRec,
  emptyData,
  type FixtureKey,
  type HostRec,
  hashPassword,
  type MatcherRec,
  type MetricThresholdRec,
  type NotificationRec,
  type ProcessRec,
  type ProjectRec,
  type StoreData,
  type ThresholdRec,
  timestamp,
  type UserRec,
} from './store.js';
import type { RoleAssignment } from './types.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** mulberry32: small, fast and good enough for demo data. */
class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((sum, [, w]) => sum + w, 0);
    let x = this.next() * total;
    for (const [item, w] of items) {
      x -= w;
      if (x < 0) return item;
    }
    return items[items.length - 1]![0];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  chars(n: number, alphabet: string): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
  hex(n: number): string {
    return this.chars(n, '0123456789abcdef');
  }
  id(): string {
    return this.hex(24);
  }
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
  }
  publicKey(): string {
    return this.chars(8, 'abcdefghijklmnopqrstuvwxyz');
  }
}

interface Topology {
  name: string;
  tags: string[];
  disks: string[];
  goalVersion: number;
  /** Replica sets: name, hostname prefix, first host number, member count, port, member type prefix. */
  sets: Array<{ rs: string; prefix: string; from: number; count: number; port: number; kind: string }>;
  mongos?: { prefix: string; count: number };
  standalone?: string;
  cluster?: string;
}

const TOPOLOGY: Topology[] = [
  {
    name: 'payments-prod',
    tags: ['production', 'pci'],
    disks: ['nvme0n1', 'nvme1n1'],
    goalVersion: 57,
    sets: [
      { rs: 'rs-payments', prefix: 'db-prod', from: 1, count: 3, port: 27017, kind: 'REPLICA' },
      { rs: 'rs-ledger', prefix: 'db-prod', from: 4, count: 3, port: 27017, kind: 'REPLICA' },
    ],
  },
  {
    name: 'search-staging',
    tags: ['staging'],
    disks: ['xvdb', 'xvdf'],
    goalVersion: 23,
    sets: [{ rs: 'rs-search', prefix: 'db-stg', from: 1, count: 3, port: 27017, kind: 'REPLICA' }],
  },
  {
    name: 'analytics-prod',
    tags: ['production', 'reporting'],
    disks: ['sda1', 'sdb'],
    goalVersion: 112,
    cluster: 'analytics',
    sets: [
      { rs: 'analytics-shard-0', prefix: 'db-analytics', from: 1, count: 3, port: 27018, kind: 'SHARD' },
      { rs: 'analytics-shard-1', prefix: 'db-analytics', from: 4, count: 3, port: 27018, kind: 'SHARD' },
      { rs: 'analytics-config', prefix: 'cfg-analytics', from: 1, count: 3, port: 27019, kind: 'CONFIG' },
    ],
    mongos: { prefix: 'mongos-analytics', count: 2 },
  },
  {
    name: 'platform-dev',
    tags: ['development'],
    disks: ['nvme0n1'],
    goalVersion: 9,
    sets: [{ rs: 'rs-dev', prefix: 'db-dev', from: 1, count: 3, port: 27017, kind: 'REPLICA' }],
    standalone: 'db-dev-04',
  },
];

const DOMAIN = 'example.internal';
const pad = (n: number): string => String(n).padStart(2, '0');

export function buildDemoDataset(seed: number, now: Date): StoreData {
  const r = new Rng(seed);
  const at = (offsetMs: number): string => timestamp(new Date(now.getTime() + offsetMs));
  const ago = (min: number, max: number): string => at(-(min + r.next() * (max - min)));
  const data = emptyData();

  // --- organization, projects, hosts -------------------------------------------------------------------
  const org = { id: r.id(), name: 'Northwind Data Platform', created: at(-420 * DAY) };
  data.orgs.push(org);
  for (const [i, topo] of TOPOLOGY.entries()) {
    const project: ProjectRec = {
      id: r.id(),
      name: topo.name,
      orgId: org.id,
      created: at(-(400 - i * 60) * DAY),
      tags: topo.tags,
    };
    data.projects.push(project);
    const clusterId = topo.cluster === undefined ? undefined : r.id();
    const addHost = (hostname: string, port: number, typeName: string, rs?: string, cid?: string): void => {
      const host: HostRec = {
        id: r.hex(32),
        groupId: project.id,
        hostname,
        port,
        typeName,
        created: at(-(300 - i * 40) * DAY + r.int(0, 10) * DAY),
        lastPing: ago(5_000, 55_000),
        disks: topo.disks,
      };
      if (rs !== undefined) host.replicaSetName = rs;
      if (cid !== undefined) host.clusterId = cid;
      data.hosts.push(host);
    };
    for (const set of topo.sets) {
      const rsClusterId = clusterId ?? r.id();
      for (let n = 0; n < set.count; n++) {
        const role =
          set.kind === 'CONFIG' ? 'SHARD_CONFIG' : `${set.kind}_${n === 0 ? 'PRIMARY' : 'SECONDARY'}`;
        addHost(`${set.prefix}-${pad(set.from + n)}.${DOMAIN}`, set.port, role, set.rs, rsClusterId);
      }
    }
    if (topo.mongos !== undefined) {
      for (let n = 1; n <= topo.mongos.count; n++) {
        addHost(`${topo.mongos.prefix}-${pad(n)}.${DOMAIN}`, 27017, 'SHARD_MONGOS', undefined, clusterId);
      }
    }
    if (topo.standalone !== undefined) addHost(`${topo.standalone}.${DOMAIN}`, 27017, 'STANDALONE');
  }
  const [payments, search, analytics, dev] = data.projects as [
    ProjectRec,
    ProjectRec,
    ProjectRec,
    ProjectRec,
  ];
  const hostsOf = (p: ProjectRec): HostRec[] => data.hosts.filter((h) => h.groupId === p.id);

  // --- agents: every type in every state somewhere ------------------------------------------------------
  type AgentPlan = Array<[AgentRec['typeName'], number, AgentRec['stateName']]>;
  const agentPlans: AgentPlan[] = [
    [
      ['MONITORING', 0, 'ACTIVE'],
      ['MONITORING', 3, 'STANDBY'],
      ['BACKUP', 1, 'ACTIVE'],
      ['BACKUP', 4, 'STANDBY'],
    ],
    [
      ['MONITORING', 0, 'ACTIVE'],
      ['BACKUP', 2, 'NO_PROCESSES'],
    ],
    [
      ['MONITORING', 9, 'ACTIVE'],
      ['MONITORING', 10, 'STANDBY'],
      ['BACKUP', 0, 'ACTIVE'],
      ['BACKUP', 3, 'STANDBY'],
    ],
    [
      ['MONITORING', 0, 'ACTIVE'],
      ['MONITORING', 3, 'NO_PROCESSES'],
      ['BACKUP', 1, 'STANDBY'],
    ],
  ];
  for (const [i, project] of data.projects.entries()) {
    const hosts = hostsOf(project);
    for (const [typeName, hostIndex, stateName] of agentPlans[i] ?? []) {
      const host = hosts[hostIndex] ?? hosts[0]!;
      const agent: AgentRec = {
        groupId: project.id,
        typeName,
        hostname: host.hostname,
        confCount: r.int(2_000, 90_000),
        lastConf: ago(10_000, 60_000),
        stateName,
      };
      if (typeName === 'MONITORING') {
        agent.pingCount = r.int(50_000, 900_000);
        agent.lastPing = ago(5_000, 60_000);
      }
      agent.isManaged = true;
      if (typeName === 'BACKUP' && stateName === 'ACTIVE') agent.tag = `${project.name}-backup`;
      data.agents.push(agent);
    }
    for (const [n, host] of hosts.entries()) {
      let stateName: AgentRec['stateName'] = 'ACTIVE';
      if (project === dev && host.typeName === 'STANDALONE') stateName = 'NO_PROCESSES';
      if (project === analytics && n === hosts.length - 1) stateName = 'STANDBY';
      data.agents.push({
        groupId: project.id,
        typeName: 'AUTOMATION',
        hostname: host.hostname,
        confCount: r.int(5_000, 200_000),
        lastConf: ago(5_000, 40_000),
        stateName,
      });
    }
  }

  // --- automation status: most processes at goal, some behind, one failing -----------------------------
  for (const [i, project] of data.projects.entries()) {
    const topo = TOPOLOGY[i]!;
    const goal = topo.goalVersion;
    const hosts = hostsOf(project);
    const processes: ProcessRec[] = hosts.map((host, n) => {
      const name =
        host.replicaSetName !== undefined
          ? `${host.replicaSetName}_${hosts.filter((h) => h.replicaSetName === host.replicaSetName).indexOf(host)}`
          : host.typeName === 'SHARD_MONGOS'
            ? `mongos_${n}`
            : host.hostname.split('.')[0]!;
      return {
        name,
        hostname: host.hostname,
        lastGoalVersionAchieved: goal,
        plan: [],
        errorCode: 0,
        errorCodeDescription: '',
        errorCodeHumanReadable: '',
        errorString: '',
        planUpdated: ago(2 * DAY, 20 * DAY),
      };
    });
    const behind = (index: number, plan: string[], versionsBehind = 1): ProcessRec | undefined => {
      const p = processes[index];
      if (p === undefined) return undefined;
      p.lastGoalVersionAchieved = goal - versionsBehind;
      p.plan = plan;
      p.planUpdated = ago(2 * MINUTE, 3 * HOUR);
      return p;
    };
    if (project === payments) behind(5, ['Download', 'Start', 'WaitRsInit']);
    if (project === analytics) {
      behind(1, ['Download', 'Start', 'WaitFeatureCompatibilityVersionCorrect']);
      behind(2, ['Download', 'Start', 'WaitFeatureCompatibilityVersionCorrect']);
      behind(7, ['AdjustRoles'], 2);
    }
    if (project === search) {
      const failing = behind(2, ['Start', 'WaitRsInit']);
      if (failing !== undefined) {
        failing.errorCode = 3;
        failing.errorCodeHumanReadable = 'Process failed to start';
        failing.errorCodeDescription = `The process ${failing.name} on ${failing.hostname} failed to start: exit status 48 (address already in use).`;
        failing.errorString = `<${failing.name}> [${at(-7 * MINUTE).slice(11, 19)}.418] Error starting process: exit status 48; another process is listening on port 27017`;
      }
    }
    data.automation.push({ groupId: project.id, goalVersion: goal, processes });
  }

  // --- users and keys --------------------------------------------------------------------------------------
  const orgRole = (roleName: string): RoleAssignment => ({ orgId: org.id, roleName });
  const groupRole = (p: ProjectRec, roleName: string): RoleAssignment => ({ groupId: p.id, roleName });
  const teamId = r.id();
  const userSpecs: Array<{
    username: string;
    firstName: string;
    lastName: string;
    email?: string;
    roles: RoleAssignment[];
    pending?: RoleAssignment[];
    accessList?: string[];
    mobile?: string;
    teams?: string[];
  }> = [
    {
      username: 'ops-admin@example.com',
      firstName: 'Morgan',
      lastName: 'Ellis',
      roles: [{ roleName: 'GLOBAL_OWNER' }, orgRole('ORG_OWNER')],
      mobile: '+15555550100',
    },
    {
      username: 'priya.raman@example.com',
      firstName: 'Priya',
      lastName: 'Raman',
      roles: [
        orgRole('ORG_MEMBER'),
        groupRole(payments, 'GROUP_OWNER'),
        groupRole(analytics, 'GROUP_READ_ONLY'),
      ],
      teams: [teamId],
      mobile: '+15555550142',
    },
    {
      username: 'marcus.chen@example.com',
      firstName: 'Marcus',
      lastName: 'Chen',
      roles: [
        orgRole('ORG_MEMBER'),
        groupRole(analytics, 'GROUP_MONITORING_ADMIN'),
        groupRole(payments, 'GROUP_READ_ONLY'),
      ],
      pending: [groupRole(search, 'GROUP_READ_ONLY')],
      teams: [teamId],
    },
    {
      username: 'sofia.alvarez@example.com',
      firstName: 'Sofia',
      lastName: 'Alvarez',
      roles: [
        orgRole('ORG_MEMBER'),
        groupRole(search, 'GROUP_OWNER'),
        groupRole(analytics, 'GROUP_OWNER'),
        groupRole(dev, 'GROUP_OWNER'),
      ],
    },
    {
      username: 'oncall-bot',
      email: 'oncall-bot@example.com',
      firstName: 'On-call',
      lastName: 'Automation',
      roles: [{ roleName: 'GLOBAL_MONITORING_ADMIN' }],
    },
    {
      username: 'dana.okafor@example.com',
      firstName: 'Dana',
      lastName: 'Okafor',
      roles: [orgRole('ORG_MEMBER'), groupRole(payments, 'GROUP_MONITORING_ADMIN')],
      accessList: ['10.20.0.0/16', '192.0.2.15'],
    },
    {
      username: 'lee.novak@example.com',
      firstName: 'Lee',
      lastName: 'Novak',
      roles: [
        orgRole('ORG_MEMBER'),
        groupRole(payments, 'GROUP_READ_ONLY'),
        groupRole(analytics, 'GROUP_READ_ONLY'),
      ],
      accessList: ['127.0.0.1', '10.0.0.0/8'],
    },
  ];
  for (const spec of userSpecs) {
    const created = ago(60 * DAY, 380 * DAY);
    const user: UserRec = {
      id: r.id(),
      username: spec.username,
      passwordHash: hashPassword(`${r.hex(12)}!A1`, r.hex(32)),
      emailAddress: spec.email ?? spec.username,
      firstName: spec.firstName,
      lastName: spec.lastName,
      roles: spec.roles,
      pendingRoles: spec.pending ?? [],
      teamIds: spec.teams ?? [],
      accessList: (spec.accessList ?? []).map(
        (value) => accessListEntry(value, new Date(Date.parse(created) + DAY))!,
      ),
      created,
    };
    if (spec.mobile !== undefined) user.mobileNumber = spec.mobile;
    data.users.push(user);
  }
  const [admin, priya, marcus, sofia, bot, dana, lee] = data.users as [
    UserRec,
    UserRec,
    UserRec,
    UserRec,
    UserRec,
    UserRec,
    UserRec,
  ];
  // lee's 127.0.0.1 entry has been used before, so its bookkeeping starts from real numbers.
  const leeLocal = lee.accessList[0];
  if (leeLocal !== undefined) {
    leeLocal.lastUsed = ago(1 * DAY, 3 * DAY);
    leeLocal.lastUsedAddress = '127.0.0.1';
    leeLocal.count = r.int(20, 400);
  }

  const projectKeyRoles = (p: ProjectRec, ...names: string[]): RoleAssignment[] => [
    ...names.map((roleName) => ({ groupId: p.id, orgId: org.id, roleName })),
    orgRole('ORG_MEMBER'),
  ];
  const addKey = (desc: string, roles: RoleAssignment[], userId?: string): FixtureKey => {
    const key = {
      id: r.id(),
      publicKey: r.publicKey(),
      privateKey: r.uuid(),
      desc,
      roles,
      created: ago(30 * DAY, 200 * DAY),
      ...(userId === undefined ? {} : { userId }),
    };
    data.apiKeys.push(key);
    return { id: key.id, publicKey: key.publicKey, privateKey: key.privateKey };
  };
  const demoKey = addKey('Operations automation', [{ roleName: 'GLOBAL_OWNER' }, orgRole('ORG_OWNER')]);
  const readOnlyKey = addKey('Dashboard reader', projectKeyRoles(payments, 'GROUP_READ_ONLY'));
  const monitoringKey = addKey('Alert triage bot', projectKeyRoles(payments, 'GROUP_MONITORING_ADMIN'));
  const outsiderKey = addKey('Search team CI', [
    { groupId: search.id, orgId: org.id, roleName: 'GROUP_OWNER' },
    { groupId: dev.id, orgId: org.id, roleName: 'GROUP_READ_ONLY' },
    orgRole('ORG_MEMBER'),
  ]);
  const deniedKey = addKey(
    'Workstation key (Dana)',
    projectKeyRoles(payments, 'GROUP_MONITORING_ADMIN'),
    dana.id,
  );
  const allowedKey = addKey('Reporting key (Lee)', projectKeyRoles(payments, 'GROUP_READ_ONLY'), lee.id);
  const globalReadKey = addKey('Compliance exporter', [{ roleName: 'GLOBAL_READ_ONLY' }]);
  data.demo = {
    publicKey: demoKey.publicKey,
    privateKey: demoKey.privateKey,
    orgId: org.id,
    projectIds: data.projects.map((p) => p.id),
  };
  data.fixtures = {
    readOnly: { ...readOnlyKey, projectId: payments.id },
    monitoringAdmin: { ...monitoringKey, projectId: payments.id },
    notInProject: { ...outsiderKey, projectId: payments.id },
    accessListDenied: { ...deniedKey, userId: dana.id },
    accessListAllowed: { ...allowedKey, userId: lee.id },
    globalReadOnly: globalReadKey,
  };

  // --- alert configurations --------------------------------------------------------------------------------
  const secretFor = (typeName: string): Record<string, unknown> => {
    switch (typeName) {
      case 'GROUP':
        return { emailEnabled: true, smsEnabled: false, roles: ['GROUP_OWNER', 'GROUP_MONITORING_ADMIN'] };
      case 'ORG':
        return { emailEnabled: true, smsEnabled: false, roles: ['ORG_OWNER'] };
      case 'USER':
        return { username: priya.username, emailEnabled: true, smsEnabled: true };
      case 'EMAIL':
        return { emailAddress: 'dba-oncall@example.com' };
      case 'SMS':
        return { mobileNumber: '+15555550177' };
      case 'TEAM_CHAT_A':
        return { notificationToken: r.hex(40), roomName: 'db-alerts' };
      case 'TEAM_CHAT_B':
        return { apiToken: `xoxb-${r.chars(12, '0123456789')}-${r.hex(24)}`, channelName: '#db-alerts' };
      case 'TEAM_CHAT_C':
        return {
          teamChatCWebhookUrl: `https://chat-c.example.com/webhookb2/${r.uuid()}/IncomingWebhook/${r.hex(32)}`,
        };
      case 'INCIDENT_PAGING_A':
        return { serviceKey: r.hex(32) };
      case 'INCIDENT_PAGING_B':
        return { incidentPagingBApiKey: r.uuid(), incidentPagingBRegion: 'US' };
      case 'INCIDENT_PAGING_C':
        return { incidentPagingCApiKey: r.uuid(), incidentPagingCRoutingKey: 'db-platform' };
      case 'WEBHOOK':
        return { webhookUrl: `https://hooks.example.net/dbops/${r.hex(16)}`, webhookSecret: r.hex(32) };
      case 'MONITORING_SAAS':
        return { monitoringSaasApiKey: r.hex(32) };
      default:
        return {};
    }
  };
  const notification = (typeName: string): NotificationRec => ({
    typeName,
    delayMin: r.pick([0, 0, 5, 10]),
    intervalMin: r.pick([5, 15, 60]),
    ...secretFor(typeName),
  });
  const metric = (
    metricName: string,
    operator: string,
    threshold: number,
    units: string,
  ): MetricThresholdRec => ({
    metricName,
    mode: 'AVERAGE',
    operator,
    threshold,
    units,
  });
  const limit = (operator: string, threshold: number, units: string): ThresholdRec => ({
    operator,
    threshold,
    units,
  });
  const m = (fieldName: string, operator: string, value: string): MatcherRec => ({
    fieldName,
    operator,
    value,
  });
  const mf = (field: string, operator: string, value: string): MatcherRec => ({ field, operator, value });
  const configSpecs: Array<{
    project: ProjectRec;
    event: string;
    metric?: MetricThresholdRec;
    threshold?: ThresholdRec;
    matchers: MatcherRec[];
    notify: string[];
    enabled?: boolean;
  }> = [
    {
      project: payments,
      event: 'OUTSIDE_METRIC_THRESHOLD',
      metric: metric('ASSERT_REGULAR', 'GREATER_THAN', 10, 'RAW'),
      matchers: [m('TYPE_NAME', 'EQUALS', 'PRIMARY')],
      notify: ['GROUP', 'TEAM_CHAT_B'],
    },
    {
      project: payments,
      event: 'OUTSIDE_METRIC_THRESHOLD',
      metric: metric('CONNECTIONS', 'GREATER_THAN', 4000, 'RAW'),
      matchers: [mf('REPLICA_SET_NAME', 'EQUALS', 'rs-payments')],
      notify: ['INCIDENT_PAGING_A', 'EMAIL'],
    },
    {
      project: payments,
      event: 'OUTSIDE_METRIC_THRESHOLD',
      metric: metric('DISK_PARTITION_SPACE_USED_DATA', 'GREATER_THAN', 85, 'RAW'),
      matchers: [m('HOSTNAME', 'CONTAINS', 'db-prod')],
      notify: ['WEBHOOK', 'USER'],
    },
    {
      project: payments,
      event: 'HOST_DOWN',
      threshold: limit('GREATER_THAN', 5, 'MINUTES'),
      matchers: [],
      notify: ['INCIDENT_PAGING_B', 'SMS'],
    },
    {
      project: payments,
      event: 'REPLICATION_OPLOG_WINDOW_RUNNING_OUT',
      threshold: limit('LESS_THAN', 24, 'HOURS'),
      matchers: [mf('REPLICA_SET_NAME', 'EQUALS', 'rs-ledger')],
      notify: ['TEAM_CHAT_A'],
    },
    {
      project: payments,
      event: 'MONITORING_AGENT_DOWN',
      threshold: limit('GREATER_THAN', 10, 'MINUTES'),
      matchers: [],
      notify: ['ORG'],
    },
    {
      project: search,
      event: 'OUTSIDE_METRIC_THRESHOLD',
      metric: metric('QUERY_TARGETING_SCANNED_OBJECTS_PER_RETURNED', 'GREATER_THAN', 1000, 'RAW'),
      matchers: [m('REPLICA_SET_NAME', 'EQUALS', 'rs-search')],
      notify: ['TEAM_CHAT_C'],
    },
    {
      project: search,
      event: 'RESYNC_REQUIRED',
      threshold: limit('GREATER_THAN', 0, 'RAW'),
      matchers: [],
      notify: ['EMAIL'],
      enabled: false,
    },
    {
      project: search,
      event: 'HOST_DOWN',
      threshold: limit('GREATER_THAN', 15, 'MINUTES'),
      matchers: [m('HOSTNAME_AND_PORT', 'EQUALS', `db-stg-03.${DOMAIN}:27017`)],
      notify: ['INCIDENT_PAGING_C'],
    },
    {
      project: analytics,
      event: 'OUTSIDE_METRIC_THRESHOLD',
      metric: metric('DISK_PARTITION_SPACE_USED_INDEX', 'GREATER_THAN', 90, 'RAW'),
      matchers: [mf('CLUSTER_NAME', 'EQUALS', 'analytics')],
      notify: ['MONITORING_SAAS'],
    },
    {
      project: analytics,
      event: 'OUTSIDE_METRIC_THRESHOLD',
      metric: metric('OPLOG_SLAVE_LAG_MASTER_TIME', 'GREATER_THAN', 60, 'SECONDS'),
      matchers: [m('TYPE_NAME', 'EQUALS', 'SECONDARY')],
      notify: ['GROUP', 'WEBHOOK'],
    },
    {
      project: analytics,
      event: 'OUTSIDE_METRIC_THRESHOLD',
      metric: metric('MEMORY_RESIDENT', 'GREATER_THAN', 28, 'GIGABYTES'),
      matchers: [m('SHARD_NAME', 'EQUALS', 'analytics-shard-0')],
      notify: ['EMAIL'],
    },
    {
      project: analytics,
      event: 'BACKUP_AGENT_DOWN',
      threshold: limit('GREATER_THAN', 15, 'MINUTES'),
      matchers: [],
      notify: ['INCIDENT_PAGING_A'],
    },
    {
      project: analytics,
      event: 'NO_PRIMARY',
      threshold: limit('GREATER_THAN', 2, 'MINUTES'),
      matchers: [mf('CLUSTER_NAME', 'EQUALS', 'analytics')],
      notify: ['INCIDENT_PAGING_B'],
    },
    {
      project: dev,
      event: 'OUTSIDE_METRIC_THRESHOLD',
      metric: metric('CONNECTIONS', 'GREATER_THAN', 500, 'RAW'),
      matchers: [],
      notify: ['EMAIL'],
      enabled: false,
    },
    {
      project: dev,
      event: 'MONITORING_AGENT_DOWN',
      threshold: limit('GREATER_THAN', 10, 'MINUTES'),
      matchers: [],
      notify: ['USER'],
    },
  ];
  for (const spec of configSpecs) {
    const created = ago(40 * DAY, 300 * DAY);
    const config: AlertConfigRec = {
      id: r.id(),
      groupId: spec.project.id,
      created,
      updated: timestamp(new Date(Date.parse(created) + r.int(0, 30) * DAY)),
      enabled: spec.enabled ?? true,
      eventTypeName: spec.event,
      matchers: spec.matchers,
      notifications: spec.notify.map(notification),
    };
    if (spec.metric !== undefined) config.metricThreshold = spec.metric;
    if (spec.threshold !== undefined) config.threshold = spec.threshold;
    data.alertConfigs.push(config);
  }

  // --- alerts ---------------------------------------------------------------------------------------------
  const statusCycle: AlertStatus[] = [
    'OPEN',
    'CLOSED',
    'TRACKING',
    'OPEN',
    'CLOSED',
    'CANCELLED',
    'OPEN',
    'CLOSED',
  ];
  let alertCount = 0;
  let openCount = 0;
  const hostsFor = (groupId: string, matchers: MatcherRec[]): HostRec[] => {
    const all = data.hosts.filter((h) => h.groupId === groupId && h.typeName !== 'SHARD_MONGOS');
    const rs = matchers.find(
      (x) => (x.fieldName ?? x.field) === 'REPLICA_SET_NAME' || (x.fieldName ?? x.field) === 'SHARD_NAME',
    );
    const narrowed = rs === undefined ? all : all.filter((h) => h.replicaSetName === rs.value);
    return narrowed.length > 0 ? narrowed : all;
  };
  const fillSubject = (
    alert: AlertRec,
    groupId: string,
    event: string,
    matchers: MatcherRec[],
    mt?: MetricThresholdRec,
  ): void => {
    const host = r.pick(hostsFor(groupId, matchers));
    const hostFields = (): void => {
      alert.hostId = host.id;
      alert.hostnameAndPort = `${host.hostname}:${host.port}`;
      if (host.replicaSetName !== undefined) alert.replicaSetName = host.replicaSetName;
    };
    const clusterFields = (): void => {
      if (host.replicaSetName !== undefined) alert.replicaSetName = host.replicaSetName;
      if (host.clusterId !== undefined) alert.clusterId = host.clusterId;
      const topo = TOPOLOGY.find((t) => data.projects.find((p) => p.name === t.name)?.id === groupId);
      alert.clusterName = topo?.cluster ?? host.replicaSetName ?? host.hostname;
    };
    switch (event) {
      case 'OUTSIDE_METRIC_THRESHOLD': {
        hostFields();
        if (mt !== undefined) {
          alert.metricName = mt.metricName;
          const over = mt.operator === 'LESS_THAN' ? -1 : 1;
          const value = mt.threshold * (1 + over * (0.05 + r.next() * 0.6));
          alert.currentValue = { number: Math.round(value * 100) / 100, units: mt.units };
        }
        break;
      }
      case 'HOST_DOWN':
        hostFields();
        break;
      case 'REPLICATION_OPLOG_WINDOW_RUNNING_OUT':
        hostFields();
        clusterFields();
        alert.currentValue = { number: r.int(6, 23), units: 'HOURS' };
        break;
      case 'NO_PRIMARY':
        clusterFields();
        break;
      case 'RESYNC_REQUIRED':
        clusterFields();
        alert.sourceTypeName = 'REPLICA_SET';
        break;
      default:
        // Agent alerts name the agent's host.
        alert.hostnameAndPort = `${host.hostname}:${host.port}`;
    }
  };
  for (const [i, config] of data.alertConfigs.entries()) {
    const count = 2 + (i % 3);
    for (let n = 0; n < count; n++) {
      let status = statusCycle[alertCount % statusCycle.length]!;
      alertCount += 1;
      if (!config.enabled && (status === 'OPEN' || status === 'TRACKING')) status = 'CLOSED';
      const alert = makeAlert(config.id, config.groupId, config.eventTypeName, status);
      fillSubject(alert, config.groupId, config.eventTypeName, config.matchers, config.metricThreshold);
      if (status === 'OPEN') {
        openCount += 1;
        // Every third open alert is acknowledged: one far ahead, one for hours, one whose ack has lapsed.
        if (openCount % 3 === 0) {
          const kind = (openCount / 3) % 3;
          const ackBy = r.pick([priya.username, marcus.username, bot.username]);
          alert.acknowledgingUsername = ackBy;
          alert.acknowledgementComment = r.pick([
            'Known issue, fix deploying tonight',
            'Investigating with the app team',
            'Expected during the batch import',
          ]);
          alert.acknowledgedUntil =
            kind === 0 ? at(100 * 365 * DAY) : kind === 1 ? at(r.int(2, 12) * HOUR) : at(-r.int(1, 5) * HOUR);
        }
      }
      data.alerts.push(alert);
    }
  }
  function makeAlert(
    alertConfigId: string,
    groupId: string | undefined,
    eventTypeName: string,
    status: AlertStatus,
  ): AlertRec {
    const created =
      status === 'TRACKING'
        ? ago(1 * MINUTE, 9 * MINUTE)
        : status === 'OPEN'
          ? ago(1 * HOUR, 5 * DAY)
          : ago(1 * DAY, 28 * DAY);
    const createdMs = Date.parse(created);
    const alert: AlertRec = { id: r.id(), alertConfigId, created, updated: created, status, eventTypeName };
    if (groupId !== undefined) alert.groupId = groupId;
    if (status === 'OPEN') {
      alert.lastNotified = ago(0, Math.min(now.getTime() - createdMs, 50 * MINUTE));
      alert.updated = alert.lastNotified;
    }
    if (status === 'CLOSED') {
      alert.resolved = timestamp(new Date(createdMs + r.int(10, 360) * MINUTE));
      alert.updated = alert.resolved;
      alert.lastNotified = timestamp(new Date(createdMs + 5 * MINUTE));
    }
    if (status === 'CANCELLED') alert.updated = timestamp(new Date(createdMs + r.int(2, 90) * MINUTE));
    return alert;
  }

  // --- global alert configurations and global alerts --------------------------------------------------------
  const globalSpecs: Array<{
    event: string;
    threshold?: ThresholdRec;
    metric?: MetricThresholdRec;
    groups?: ProjectRec[];
    notify: string[];
    statuses: AlertStatus[];
  }> = [
    {
      event: 'HOST_DOWN',
      threshold: limit('GREATER_THAN', 15, 'MINUTES'),
      notify: ['EMAIL'],
      statuses: ['OPEN', 'CLOSED', 'OPEN'],
    },
    {
      event: 'BACKUP_AGENT_DOWN',
      threshold: limit('GREATER_THAN', 30, 'MINUTES'),
      notify: ['INCIDENT_PAGING_A'],
      statuses: ['OPEN', 'CLOSED'],
    },
    {
      event: 'OUTSIDE_METRIC_THRESHOLD',
      metric: metric('DISK_PARTITION_SPACE_USED_DATA', 'GREATER_THAN', 95, 'RAW'),
      groups: [payments, analytics],
      notify: ['EMAIL', 'WEBHOOK'],
      statuses: ['OPEN', 'TRACKING', 'CANCELLED'],
    },
  ];
  for (const spec of globalSpecs) {
    const created = ago(100 * DAY, 380 * DAY);
    const config = {
      id: r.id(),
      created,
      updated: created,
      enabled: true,
      eventTypeName: spec.event,
      forAllGroups: spec.groups === undefined,
      groupIds: (spec.groups ?? []).map((p) => p.id),
      matchers: [],
      notifications: spec.notify.map(notification),
      tags: ['platform'],
      ...(spec.threshold === undefined ? {} : { threshold: spec.threshold }),
      ...(spec.metric === undefined ? {} : { metricThreshold: spec.metric }),
    };
    data.globalAlertConfigs.push(config);
    for (const [n, status] of spec.statuses.entries()) {
      const project = spec.groups?.[n % spec.groups.length] ?? data.projects[(n + 1) % data.projects.length]!;
      const alert = makeAlert(config.id, project.id, spec.event, status);
      fillSubject(alert, project.id, spec.event, [], spec.metric);
      if (status === 'OPEN' && n === 2) {
        alert.acknowledgedUntil = at(6 * HOUR);
        alert.acknowledgingUsername = admin.username;
        alert.acknowledgementComment = 'Host is being re-imaged';
      }
      data.globalAlerts.push(alert);
    }
  }

  // --- maintenance windows: one active now, some ahead, some past -------------------------------------------
  const windowSpecs: Array<[ProjectRec, number, number, string[], string | undefined]> = [
    [payments, -1 * HOUR, 2 * HOUR, ['HOST', 'REPLICA_SET'], 'Rolling OS patching of rs-ledger'],
    [payments, -10 * DAY, -10 * DAY + 3 * HOUR, ['HOST'], 'Kernel upgrade'],
    [search, 1 * DAY, 1 * DAY + 4 * HOUR, ['HOST', 'REPLICA_SET', 'AGENT'], 'Index rebuild on rs-search'],
    [analytics, 3 * DAY, 3 * DAY + 6 * HOUR, ['CLUSTER', 'BACKUP'], undefined],
    [analytics, -20 * DAY, -20 * DAY + 2 * HOUR, ['CLUSTER'], 'Balancer window change'],
    [dev, 7 * DAY, 7 * DAY + 1 * HOUR, ['AGENT'], 'Agent upgrade'],
  ];
  for (const [project, start, end, alertTypeNames, description] of windowSpecs) {
    const created = at(Math.min(start, 0) - r.int(1, 5) * DAY);
    data.maintenanceWindows.push({
      id: r.id(),
      groupId: project.id,
      created,
      updated: created,
      startDate: at(start),
      endDate: at(end),
      alertTypeNames,
      ...(description === undefined ? {} : { description }),
    });
  }

  // --- integrations (secrets in full; masked on output) ----------------------------------------------------
  const integrations: Array<[ProjectRec, string, Record<string, string | boolean>]> = [
    [payments, 'INCIDENT_PAGING_A', { serviceKey: r.hex(32) }],
    [
      payments,
      'TEAM_CHAT_B',
      { apiToken: `xoxb-${r.hex(24)}`, teamName: 'northwind', channelName: '#payments-db' },
    ],
    [payments, 'WEBHOOK', { url: `https://hooks.example.net/dbops/${r.hex(16)}`, secret: r.hex(32) }],
    // A legacy chat integration: no team name, no channel.
    [search, 'TEAM_CHAT_B', { apiToken: `xoxb-${r.hex(24)}` }],
    [search, 'INCIDENT_PAGING_C', { apiKey: r.uuid(), routingKey: 'search-oncall' }],
    [analytics, 'MONITORING_SAAS', { apiKey: r.hex(32) }],
    [analytics, 'INCIDENT_PAGING_B', { apiKey: r.uuid(), region: 'US' }],
    [
      analytics,
      'METRICS_SCRAPER',
      {
        username: 'prom-scraper',
        password: r.hex(20),
        listenAddress: '0.0.0.0:9216',
        serviceDiscovery: 'http',
        scheme: 'https',
        enabled: true,
        tlsPemPath: '/etc/dbops/tls/scraper.pem',
        tlsPemPassword: r.hex(16),
      },
    ],
    [dev, 'TEAM_CHAT_A', { notificationToken: r.hex(40), roomName: 'dev-db' }],
    [dev, 'TEAM_CHAT_C', { teamChatCWebhookUrl: `https://chat-c.example.com/webhookb2/${r.uuid()}` }],
  ];
  for (const [project, type, fields] of integrations)
    data.integrations.push({ groupId: project.id, type, fields });

  // --- events: a month of history ---------------------------------------------------------------------------
  buildEvents(r, data, now, { admin, priya, sofia, bot });
  return data;
}

// ---------------------------------------------------------------------------------------------------------
// Events

const PROJECT_EVENT_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
  ['AUTOMATION_CONFIG_PUBLISHED_AUDIT', 12],
  ['OUTSIDE_METRIC_THRESHOLD', 16],
  ['INSIDE_METRIC_THRESHOLD', 11],
  ['HOST_DOWN', 3],
  ['HOST_RECOVERED', 3],
  ['PRIMARY_ELECTED', 3],
  ['DATA_EXPLORER', 10],
  ['DATA_EXPLORER_CRUD', 6],
  ['ALERT_ACKNOWLEDGED_AUDIT', 3],
  ['ALERT_UNACKNOWLEDGED_AUDIT', 1],
  ['ALERT_CONFIG_CHANGED_AUDIT', 2],
  ['ALERT_CONFIG_ENABLED_AUDIT', 1],
  ['ALERT_CONFIG_DISABLED_AUDIT', 1],
  ['USER_ROLES_CHANGED_AUDIT', 2],
  ['JOINED_GROUP', 1],
  ['MAINTENANCE_WINDOW_ADDED_AUDIT', 1],
  ['MAINTENANCE_WINDOW_CHANGED_AUDIT', 1],
  ['MAINTENANCE_WINDOW_DELETED_AUDIT', 1],
  ['API_KEY_ADDED_TO_GROUP', 1],
  ['MONITORING_AGENT_DOWN', 1],
  ['MONITORING_AGENT_UP', 1],
  ['INTEGRATION_CONFIGURED', 1],
];

const GLOBAL_EVENT_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
  ['SUCCESSFUL_LOGIN_AUDIT', 10],
  ['UNSUCCESSFUL_LOGIN_AUDIT', 2],
  ['API_KEY_CREATED', 1],
  ['API_KEY_ACCESS_LIST_ENTRY_ADDED', 1],
  ['USER_CREATED_AUDIT', 1],
  ['JOINED_ORG', 1],
  ['USER_ROLES_CHANGED_AUDIT', 1],
  ['GROUP_TAGS_CHANGED', 1],
  ['MAINTENANCE_WINDOW_ADDED_AUDIT', 1],
  ['DAEMON_DOWN', 1],
  ['DAEMON_UP', 1],
];

const PROJECT_EVENT_COUNT = 1100;
const GLOBAL_EVENT_COUNT = 160;

const DATABASES: Record<string, Array<[string, string[]]>> = {
  'payments-prod': [
    ['payments', ['transactions', 'refunds', 'merchants']],
    ['ledger', ['entries', 'balances']],
  ],
  'search-staging': [['catalog', ['products', 'synonyms']]],
  'analytics-prod': [
    ['events', ['clickstream', 'sessions']],
    ['reports', ['daily_rollups']],
  ],
  'platform-dev': [['sandbox', ['feature_flags', 'scratch']]],
};

function rawClass(eventTypeName: string): string {
  if (eventTypeName.startsWith('AUTOMATION_CONFIG')) return 'AutomationConfigEvent';
  if (eventTypeName.includes('METRIC_THRESHOLD')) return 'HostMetricEvent';
  if (eventTypeName.startsWith('HOST_') || eventTypeName === 'PRIMARY_ELECTED') return 'HostEvent';
  if (eventTypeName.startsWith('DATA_EXPLORER')) return 'DataExplorerAccessedEvent';
  if (eventTypeName.startsWith('ALERT_')) return 'AlertAudit';
  if (eventTypeName.startsWith('MAINTENANCE_WINDOW')) return 'MaintenanceWindowAudit';
  if (eventTypeName.includes('AGENT')) return 'AgentEvent';
  return 'UserEvent';
}

function buildEvents(
  r: Rng,
  data: StoreData,
  now: Date,
  people: Record<'admin' | 'priya' | 'sofia' | 'bot', UserRec>,
): void {
  const userAddress = new Map(
    data.users.map((u, i) => [u.id, `10.${12 + i}.${(i * 37) % 250}.${20 + i * 11}`]),
  );
  const keyAddress = new Map(data.apiKeys.map((k, i) => [k.id, `203.0.113.${40 + i * 7}`]));
  const when = (): number => now.getTime() - Math.floor(r.next() * 30 * DAY);

  const userActor = (user: UserRec): Record<string, unknown> => ({
    userId: user.id,
    username: user.username,
    remoteAddress: userAddress.get(user.id),
    isGlobalAdmin: user.roles.some(
      (x) => x.roleName === 'GLOBAL_MONITORING_ADMIN' || x.roleName === 'GLOBAL_OWNER',
    ),
  });
  const keyActor = (keyId: string): Record<string, unknown> => {
    const key = data.apiKeys.find((k) => k.id === keyId)!;
    return { apiKeyId: key.id, publicKey: key.publicKey, remoteAddress: keyAddress.get(key.id) };
  };
  const membersOf = (groupId: string): UserRec[] =>
    data.users.filter((u) => u.roles.some((x) => x.groupId === groupId || x.roleName === 'GLOBAL_OWNER'));
  const keysOf = (groupId: string): string[] =>
    data.apiKeys
      .filter((k) => k.roles.some((x) => x.groupId === groupId || x.roleName === 'GLOBAL_OWNER'))
      .map((k) => k.id);
  const someActor = (groupId: string, preferUser: boolean): Record<string, unknown> =>
    preferUser || r.chance(0.5) ? userActor(r.pick(membersOf(groupId))) : keyActor(r.pick(keysOf(groupId)));

  const projectEvents: EventRec[] = [];
  for (let n = 0; n < PROJECT_EVENT_COUNT; n++) {
    const project = r.weighted(data.projects.map((p, i) => [p, [5, 2, 4, 1][i] ?? 1] as const));
    const type = r.weighted(PROJECT_EVENT_WEIGHTS);
    const created = timestamp(new Date(when()));
    const event: EventRec = { id: r.id(), created, eventTypeName: type, groupId: project.id };
    const hosts = data.hosts.filter((h) => h.groupId === project.id);
    const host = r.pick(hosts);
    const hostFields = (): void => {
      event.hostId = host.id;
      event.hostname = host.hostname;
      event.port = host.port;
      if (host.replicaSetName !== undefined) event.replicaSetName = host.replicaSetName;
    };
    const configs = data.alertConfigs.filter((c) => c.groupId === project.id);
    const windows = data.maintenanceWindows.filter((w) => w.groupId === project.id);
    let source = 'USER';
    switch (type) {
      case 'AUTOMATION_CONFIG_PUBLISHED_AUDIT':
        Object.assign(event, someActor(project.id, false));
        event.diffs = automationDiffs(r, project.name, hosts);
        break;
      case 'OUTSIDE_METRIC_THRESHOLD':
      case 'INSIDE_METRIC_THRESHOLD': {
        source = 'SYSTEM';
        hostFields();
        const config =
          configs.find((c) => c.metricThreshold !== undefined && r.chance(0.6)) ??
          configs.find((c) => c.metricThreshold !== undefined);
        const mt = config?.metricThreshold;
        if (config !== undefined && mt !== undefined) {
          event.alertConfigId = config.id;
          const alert = data.alerts.find((a) => a.alertConfigId === config.id && a.hostId === host.id);
          if (alert !== undefined) event.alertId = alert.id;
          event.metricName = mt.metricName;
          const factor = type === 'OUTSIDE_METRIC_THRESHOLD' ? 1.1 + r.next() * 0.5 : 0.4 + r.next() * 0.5;
          event.currentValue = { number: Math.round(mt.threshold * factor * 100) / 100, units: mt.units };
        } else {
          event.metricName = 'CONNECTIONS';
          event.currentValue = { number: r.int(100, 900), units: 'RAW' };
        }
        break;
      }
      case 'HOST_DOWN':
      case 'HOST_RECOVERED':
      case 'PRIMARY_ELECTED':
        source = 'SYSTEM';
        hostFields();
        if (host.clusterId !== undefined) event.clusterId = host.clusterId;
        break;
      case 'DATA_EXPLORER':
      case 'DATA_EXPLORER_CRUD': {
        Object.assign(event, userActor(r.pick(membersOf(project.id))));
        const [database, collections] = r.pick(DATABASES[project.name] ?? [['test', ['items']]]);
        event.database = database;
        event.collection = r.pick(collections);
        event.opType =
          type === 'DATA_EXPLORER'
            ? r.pick(['FIND', 'AGGREGATE', 'LIST_INDEXES', 'COLLECTION_STATS'])
            : r.pick(['INSERT', 'UPDATE', 'DELETE', 'REPLACE']);
        break;
      }
      case 'ALERT_ACKNOWLEDGED_AUDIT':
      case 'ALERT_UNACKNOWLEDGED_AUDIT': {
        Object.assign(event, someActor(project.id, false));
        const alert = r.pick(data.alerts.filter((a) => a.groupId === project.id));
        event.alertId = alert.id;
        event.alertConfigId = alert.alertConfigId;
        break;
      }
      case 'ALERT_CONFIG_CHANGED_AUDIT':
      case 'ALERT_CONFIG_ENABLED_AUDIT':
      case 'ALERT_CONFIG_DISABLED_AUDIT':
        Object.assign(event, someActor(project.id, false));
        event.alertConfigId = r.pick(configs).id;
        break;
      case 'USER_ROLES_CHANGED_AUDIT':
      case 'JOINED_GROUP': {
        const target = r.pick(membersOf(project.id));
        if (type === 'JOINED_GROUP') Object.assign(event, userActor(target));
        else {
          Object.assign(event, userActor(r.pick([people.admin, people.priya, people.sofia])));
          event.targetUsername = target.username;
        }
        break;
      }
      case 'MAINTENANCE_WINDOW_ADDED_AUDIT':
      case 'MAINTENANCE_WINDOW_CHANGED_AUDIT':
      case 'MAINTENANCE_WINDOW_DELETED_AUDIT':
        Object.assign(event, someActor(project.id, false));
        event.maintenanceWindowId = windows.length > 0 && r.chance(0.7) ? r.pick(windows).id : r.id();
        break;
      case 'API_KEY_ADDED_TO_GROUP':
        Object.assign(event, userActor(people.admin));
        event.targetPublicKey = data.apiKeys.find((k) => k.id === r.pick(keysOf(project.id)))?.publicKey;
        break;
      case 'MONITORING_AGENT_DOWN':
      case 'MONITORING_AGENT_UP':
        source = 'SYSTEM';
        event.hostname = host.hostname;
        break;
      default:
        Object.assign(event, userActor(r.pick(membersOf(project.id))));
    }
    if (event.apiKeyId !== undefined) source = 'API';
    event.raw = {
      _t: rawClass(type),
      cid: project.id,
      cre: created,
      gn: project.name,
      id: event.id,
      et: type,
      severity: type === 'OUTSIDE_METRIC_THRESHOLD' || type === 'HOST_DOWN' ? 'WARNING' : 'INFO',
      source,
      hidden: false,
    };
    projectEvents.push(event);
  }

  const org = data.orgs[0]!;
  const globalEvents: EventRec[] = [];
  for (let n = 0; n < GLOBAL_EVENT_COUNT; n++) {
    const type = r.weighted(GLOBAL_EVENT_WEIGHTS);
    const event: EventRec = {
      id: r.id(),
      created: timestamp(new Date(when())),
      eventTypeName: type,
      orgId: org.id,
    };
    const user = r.pick(data.users);
    switch (type) {
      case 'SUCCESSFUL_LOGIN_AUDIT':
        Object.assign(event, userActor(user));
        break;
      case 'UNSUCCESSFUL_LOGIN_AUDIT':
        event.targetUsername = user.username;
        event.remoteAddress = `198.51.100.${r.int(2, 250)}`;
        break;
      case 'API_KEY_CREATED':
      case 'API_KEY_ACCESS_LIST_ENTRY_ADDED': {
        Object.assign(event, userActor(people.admin));
        event.targetPublicKey = r.pick(data.apiKeys).publicKey;
        if (type === 'API_KEY_ACCESS_LIST_ENTRY_ADDED') event.accessListEntry = `10.${r.int(0, 255)}.0.0/16`;
        break;
      }
      case 'USER_CREATED_AUDIT':
      case 'USER_ROLES_CHANGED_AUDIT':
        Object.assign(event, userActor(people.admin));
        event.targetUsername = user.username;
        break;
      case 'JOINED_ORG':
        Object.assign(event, userActor(user));
        break;
      case 'GROUP_TAGS_CHANGED':
        Object.assign(event, r.chance(0.5) ? userActor(people.sofia) : keyActor(data.apiKeys[0]!.id));
        event.groupId = r.pick(data.projects).id;
        break;
      case 'MAINTENANCE_WINDOW_ADDED_AUDIT':
        Object.assign(event, userActor(r.pick([people.admin, people.bot])));
        event.maintenanceWindowId = r.pick(data.maintenanceWindows).id;
        break;
      default:
        // Backup daemon state changes are system events.
        event.hostname = `backup-daemon-0${r.int(1, 2)}.example.internal`;
    }
    globalEvents.push(event);
  }
  const byCreated = (a: EventRec, b: EventRec): number => a.created.localeCompare(b.created);
  data.events = projectEvents.sort(byCreated);
  data.globalEvents = globalEvents.sort(byCreated);
}

function automationDiffs(r: Rng, projectName: string, hosts: HostRec[]): unknown[] {
  const host = r.pick(hosts);
  const name = host.replicaSetName ?? host.hostname.split('.')[0]!;
  const db = (DATABASES[projectName] ?? [['test', ['items']]])[0]!;
  const candidates = [
    () => ({
      id: `${name}_${r.int(0, 2)}`,
      name: `${name}_${r.int(0, 2)}`,
      params: [{ display: 'Version', new: '7.0.14', old: '7.0.12', param: 'processes.version' }],
      status: 'MODIFIED',
      type: 'PROCESS',
      roles: [],
      priviileges: null,
    }),
    () => ({
      id: `reporting@admin`,
      name: 'reporting',
      params: [],
      status: r.pick(['NEW', 'MODIFIED']),
      type: 'USERS',
      roles: [{ db: 'admin', role: 'readAnyDatabase' }],
      priviileges: null,
    }),
    () => ({
      id: `appReadWrite@${db[0]}`,
      name: 'appReadWrite',
      params: [],
      status: 'MODIFIED',
      type: 'ROLES',
      roles: [{ db: db[0], role: 'read' }],
      priviileges: [
        { actions: ['find', 'insert', 'update'], resource: { collection: db[1][0], db: db[0] } },
        { actions: ['serverStatus'], resource: { cluster: true } },
      ],
    }),
    () => ({
      id: name,
      name,
      params: [{ display: 'Members', new: '3', old: null, param: 'members' }],
      status: 'MODIFIED',
      type: 'REPLICA_SET',
      roles: [],
      priviileges: null,
    }),
    () => ({
      id: host.hostname,
      name: null,
      params: [{ display: 'Log level', new: 'DEBUG', old: 'INFO', param: 'logLevel' }],
      status: 'MODIFIED',
      type: 'MONITORING_AGENT',
      roles: [],
      priviileges: null,
    }),
    () => ({
      id: `${name}_${r.int(0, 2)}`,
      name: `${name}_${r.int(0, 2)}`,
      params: [],
      status: r.pick(['RESTART', 'SHUTDOWN', 'STARTUP']),
      type: 'PROCESS',
      roles: [],
      priviileges: null,
    }),
  ];
  const count = r.int(1, 3);
  return Array.from({ length: count }, () => r.pick(candidates)());
}
