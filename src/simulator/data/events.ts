// A month of events: project events drawn by weight with the fields their type carries, and global
// events (logins, keys, users, backup daemons). Actors are the dataset's users and keys.

import type { DiffStatus, DiffType, EventType } from '../../platform/index.js';
import type { EventRec, HostRec, UserRec } from '../records.js';
import { timestamp } from '../values.js';
import { type Build, DAY, type Rng } from './gen.js';

/** How often each project event type occurs (relative weights). */
const PROJECT_EVENT_WEIGHTS: ReadonlyArray<readonly [EventType, number]> = [
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

const GLOBAL_EVENT_WEIGHTS: ReadonlyArray<readonly [EventType, number]> = [
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

/** Databases and collections by project, for data explorer events and automation diffs. */
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

/** Who changes roles and keys in the history. */
const ADMINS = ['ops-admin@example.com', 'priya.raman@example.com', 'sofia.alvarez@example.com'];
const BOT = 'oncall-bot';

export function buildEvents(b: Build): void {
  const { r, data, now } = b;
  const [admin, priya, sofia] = ADMINS.map((u) => b.user(u)) as [UserRec, UserRec, UserRec];
  const people = { admin, priya, sofia, bot: b.user(BOT) };
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

/** One element of an automation event's `diffs` (the privilege list is spelled so by the platform). */
interface AutomationDiff {
  id: string;
  name: string | null;
  params: Array<{ display: string; new: string; old: string | null; param: string }>;
  status: DiffStatus;
  type: DiffType;
  roles: Array<{ db: string; role: string }>;
  priviileges: unknown[] | null;
}

function automationDiffs(r: Rng, projectName: string, hosts: HostRec[]): AutomationDiff[] {
  const host = r.pick(hosts);
  const name = host.replicaSetName ?? host.hostname.split('.')[0]!;
  const db = (DATABASES[projectName] ?? [['test', ['items']]])[0]!;
  const candidates: Array<() => AutomationDiff> = [
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
      status: r.pick<DiffStatus>(['NEW', 'MODIFIED']),
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
      status: r.pick<DiffStatus>(['RESTART', 'SHUTDOWN', 'STARTUP']),
      type: 'PROCESS',
      roles: [],
      priviileges: null,
    }),
  ];
  const count = r.int(1, 3);
  return Array.from({ length: count }, () => r.pick(candidates)());
}
