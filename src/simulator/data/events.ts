// A month of events. What happened in the world (world.ts) is recorded as it happened: host down and
// recovered, agents gone quiet, readings crossing thresholds (with the alert they opened), deployments
// published, thresholds changed, configurations disabled, keys rotated, windows added, alerts acknowledged —
// each with its author. Around them, routine activity that changes nothing the alerts or agents show (data
// explorer use, role changes, keys added, older publishes of users and roles), drawn by weight and at least
// three hours old; and global events (logins, keys, users, backup daemons).

import type { DiffStatus, DiffType, EventType } from '../../vocabulary/index.js';
import type { EventRec, HostRec, UserRec } from '../records.js';
import { timestamp } from '../values.js';
import { type Build, DAY, HOUR, type Rng } from './gen.js';
import { configOf, fqdn, hostRec } from './state.js';
import { WORLD } from './world.js';

/** How often each routine project event type occurs (relative weights). */
const PROJECT_EVENT_WEIGHTS: ReadonlyArray<readonly [EventType, number]> = [
  ['AUTOMATION_CONFIG_PUBLISHED_AUDIT', 12],
  ['DATA_EXPLORER', 10],
  ['DATA_EXPLORER_CRUD', 6],
  ['USER_ROLES_CHANGED_AUDIT', 2],
  ['JOINED_GROUP', 1],
  ['API_KEY_ADDED_TO_GROUP', 1],
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
  ['DAEMON_DOWN', 1],
  ['DAEMON_UP', 1],
];

const PROJECT_EVENT_COUNT = 1000;
/** Routine events are older than a day: the last day shows only what the world did. */
const QUIET_RECENT = 26 * HOUR;
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

/** Who adds keys and users, and changes the organization's tags, in the history. */
const ADMIN = 'ops-admin@example.com';
const SOFIA = 'sofia.alvarez@example.com';

export function buildEvents(b: Build): void {
  const { r, data, now } = b;
  const people = { admin: b.user(ADMIN), sofia: b.user(SOFIA) };
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
  const ownerKeys = (groupId: string): string[] =>
    data.apiKeys
      .filter((k) =>
        k.roles.some(
          (x) => (x.groupId === groupId && x.roleName === 'GROUP_OWNER') || x.roleName === 'GLOBAL_OWNER',
        ),
      )
      .map((k) => k.id);
  const keysOf = (groupId: string): string[] =>
    data.apiKeys
      .filter((k) => k.roles.some((x) => x.groupId === groupId || x.roleName === 'GLOBAL_OWNER'))
      .map((k) => k.id);

  const projectEvents: EventRec[] = recordWorld(b, userActor);
  const routineWhen = (): number =>
    now.getTime() - QUIET_RECENT - Math.floor(r.next() * (30 * DAY - QUIET_RECENT));
  const owners = (groupId: string): UserRec[] =>
    data.users.filter((u) =>
      u.roles.some(
        (x) => (x.groupId === groupId && x.roleName === 'GROUP_OWNER') || x.roleName === 'GLOBAL_OWNER',
      ),
    );
  for (let n = 0; n < PROJECT_EVENT_COUNT; n++) {
    const project = r.weighted(data.projects.map((p, i) => [p, [5, 2, 4, 1][i] ?? 1] as const));
    const type = r.weighted(PROJECT_EVENT_WEIGHTS);
    const created = timestamp(new Date(routineWhen()));
    const event: EventRec = { id: r.id(), created, eventTypeName: type, groupId: project.id };
    const hosts = data.hosts.filter((h) => h.groupId === project.id);
    switch (type) {
      case 'AUTOMATION_CONFIG_PUBLISHED_AUDIT': {
        // By an owner, or by a key that may publish (CI, operations automation).
        const keys = ownerKeys(project.id);
        Object.assign(event, r.chance(0.5) ? userActor(r.pick(owners(project.id))) : keyActor(r.pick(keys)));
        event.diffs = automationDiffs(r, project.name, hosts);
        break;
      }
      case 'DATA_EXPLORER':
      case 'DATA_EXPLORER_CRUD': {
        const readers = membersOf(project.id);
        const writers = readers.filter((u) =>
          u.roles.some(
            (x) =>
              (x.groupId === project.id && x.roleName !== 'GROUP_READ_ONLY') || x.roleName === 'GLOBAL_OWNER',
          ),
        );
        Object.assign(event, userActor(r.pick(type === 'DATA_EXPLORER' ? readers : writers)));
        const [database, collections] = r.pick(DATABASES[project.name] ?? [['test', ['items']]]);
        event.database = database;
        event.collection = r.pick(collections);
        event.opType =
          type === 'DATA_EXPLORER'
            ? r.pick(['FIND', 'AGGREGATE', 'LIST_INDEXES', 'COLLECTION_STATS'])
            : r.pick(['INSERT', 'UPDATE', 'DELETE', 'REPLACE']);
        break;
      }
      case 'USER_ROLES_CHANGED_AUDIT': {
        // Only an owner of the project (or the global owner) changes roles in it.
        Object.assign(event, userActor(r.pick(owners(project.id))));
        event.targetUsername = r.pick(membersOf(project.id)).username;
        break;
      }
      case 'API_KEY_ADDED_TO_GROUP':
        Object.assign(event, userActor(people.admin));
        event.targetPublicKey = data.apiKeys.find((k) => k.id === r.pick(keysOf(project.id)))?.publicKey;
        break;
      default:
        Object.assign(event, userActor(r.pick(membersOf(project.id))));
    }
    event.raw = rawOf(event, project.name, event.apiKeyId !== undefined ? 'API' : 'USER');
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
      default:
        // Backup daemon state changes are system events.
        event.hostname = `backup-daemon-0${r.int(1, 2)}.example.internal`;
    }
    globalEvents.push(event);
  }
  // Invitations still pending, drawn last so that no id drawn before them moves.
  for (const v of WORLD.invitations) {
    const project = b.project(v.project);
    const event: EventRec = {
      id: r.id(),
      created: b.at(v.at),
      eventTypeName: 'INVITED_TO_GROUP',
      groupId: project.id,
      ...userActor(b.user(v.by)),
      targetUsername: b.user(v.person).username,
    };
    event.raw = rawOf(event, project.name, 'USER');
    projectEvents.push(event);
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
      id: host.hostname.split('.')[0]!,
      name: null,
      params: [{ display: 'Log level', new: 'DEBUG', old: 'INFO', param: 'logLevel' }],
      status: 'MODIFIED',
      type: 'MONITORING_AGENT',
      roles: [],
      priviileges: null,
    }),
  ];
  const count = r.int(1, 3);
  return Array.from({ length: count }, () => r.pick(candidates)());
}

type Actor = (user: UserRec) => Record<string, unknown>;

/** The raw document of a project event (shown with includeRaw). */
function rawOf(event: EventRec, projectName: string, source: string): Record<string, unknown> {
  const type = event.eventTypeName;
  return {
    _t: rawClass(type),
    cid: event.groupId,
    cre: event.created,
    gn: projectName,
    id: event.id,
    et: type,
    severity:
      type === 'OUTSIDE_METRIC_THRESHOLD' ||
      type === 'HOST_DOWN' ||
      type.endsWith('_AGENT_DOWN') ||
      type === 'NO_PRIMARY'
        ? 'WARNING'
        : 'INFO',
    source,
    hidden: false,
  };
}

/** The events of what happened in the world, each when it happened and by whom. */
function recordWorld(b: Build, userActor: Actor): EventRec[] {
  const { r, data } = b;
  const out: EventRec[] = [];
  const add = (
    groupId: string,
    at: number | string,
    type: EventType,
    fields: Record<string, unknown>,
  ): EventRec => {
    const project = data.projects.find((p) => p.id === groupId)!;
    const created = typeof at === 'string' ? at : b.at(at);
    const event: EventRec = { id: r.id(), created, eventTypeName: type, groupId, ...fields };
    event.raw = rawOf(event, project.name, fields.username === undefined ? 'SYSTEM' : 'USER');
    out.push(event);
    return event;
  };
  const hostFields = (host: HostRec): Record<string, unknown> => ({
    hostId: host.id,
    hostname: host.hostname,
    port: host.port,
    ...(host.replicaSetName === undefined ? {} : { replicaSetName: host.replicaSetName }),
    ...(host.clusterId === undefined ? {} : { clusterId: host.clusterId }),
  });
  const by = (username: string): Record<string, unknown> => userActor(b.user(username));

  // Hosts unreachable and back.
  for (const o of WORLD.outages) {
    const host = hostRec(b, o.host);
    add(host.groupId, o.from, 'HOST_DOWN', hostFields(host));
    if (o.to !== undefined) add(host.groupId, o.to, 'HOST_RECOVERED', hostFields(host));
  }
  // Agents gone quiet, and back (the platform records a monitoring agent's return only): their own silences,
  // and the agents of a machine that went down.
  const machineQuiet = WORLD.outages
    .filter((o) => o.machine)
    .flatMap((o) =>
      Object.entries(WORLD.agents).flatMap(([project, agents]) =>
        agents
          .filter((a) => a.host === o.host)
          .map((a) => ({
            project,
            type: a.type,
            host: a.host,
            from: o.from,
            ...(o.to === undefined ? {} : { to: o.to }),
          })),
      ),
    );
  for (const s of [...WORLD.silences, ...machineQuiet]) {
    const groupId = b.project(s.project).id;
    add(groupId, s.from, s.type === 'MONITORING' ? 'MONITORING_AGENT_DOWN' : 'BACKUP_AGENT_DOWN', {
      hostname: fqdn(s.host),
    });
    if (s.to !== undefined && s.type === 'MONITORING')
      add(groupId, s.to, 'MONITORING_AGENT_UP', { hostname: fqdn(s.host) });
  }
  // Readings crossing thresholds: the alert each opened, and its return inside.
  for (const alert of [...data.alerts, ...data.globalAlerts]) {
    if (alert.eventTypeName !== 'OUTSIDE_METRIC_THRESHOLD' || alert.hostId === undefined) continue;
    const host = data.hosts.find((h) => h.id === alert.hostId)!;
    const fields = {
      ...hostFields(host),
      alertId: alert.id,
      alertConfigId: alert.alertConfigId,
      metricName: alert.metricName,
      currentValue: alert.currentValue,
    };
    if (alert.status !== 'TRACKING') add(alert.groupId!, alert.created, 'OUTSIDE_METRIC_THRESHOLD', fields);
    if (alert.resolved !== undefined) add(alert.groupId!, alert.resolved, 'INSIDE_METRIC_THRESHOLD', fields);
  }
  // Deployments published.
  for (const d of WORLD.deployments) {
    const project = b.project(d.project);
    const diffs = d.hosts.map((short) => {
      const p = data.automation
        .find((a) => a.groupId === project.id)
        ?.processes.find((x) => x.hostname === fqdn(short));
      return {
        id: p?.name ?? short,
        name: p?.name ?? short,
        params: [d.change],
        status: 'MODIFIED',
        type: 'PROCESS',
        roles: [],
        priviileges: null,
      };
    });
    add(project.id, d.at, 'AUTOMATION_CONFIG_PUBLISHED_AUDIT', { ...by(d.by), diffs });
  }
  // Thresholds changed: who, and before → after.
  for (const c of WORLD.thresholdChanges) {
    const config = configOf(b, c.config);
    const metric = config.metricThreshold?.metricName;
    add(b.project(c.config.project!).id, c.at, 'ALERT_CONFIG_CHANGED_AUDIT', {
      ...by(c.by),
      alertConfigId: config.id,
      diffs: [
        {
          id: config.id,
          name: metric ?? config.eventTypeName,
          params: [
            {
              display: 'Threshold',
              param: 'threshold',
              old: String(c.from),
              new: String(c.to),
            },
          ],
          status: 'MODIFIED',
          type: 'ALERT_CONFIG',
          roles: [],
          priviileges: null,
        },
      ],
    });
  }
  // Configurations disabled or enabled.
  for (const t of WORLD.toggles) {
    const config = configOf(b, t.config);
    add(
      b.project(t.config.project!).id,
      t.at,
      t.enabled ? 'ALERT_CONFIG_ENABLED_AUDIT' : 'ALERT_CONFIG_DISABLED_AUDIT',
      {
        ...by(t.by),
        alertConfigId: config.id,
      },
    );
  }
  // Keys rotated.
  for (const rot of WORLD.rotations)
    add(b.project(rot.project).id, rot.at, 'INTEGRATION_UPDATED', {
      ...by(rot.by),
      integrationType: rot.integration,
    });
  // Windows added.
  for (const [i, w] of WORLD.windows.entries()) {
    const rec = data.maintenanceWindows[i]!;
    add(rec.groupId, rec.created, 'MAINTENANCE_WINDOW_ADDED_AUDIT', {
      ...by(w.by),
      maintenanceWindowId: rec.id,
    });
  }
  // Alerts acknowledged.
  for (const alert of [...data.alerts, ...data.globalAlerts]) {
    if (alert.acknowledgingUsername === undefined) continue;
    const ack = WORLD.acks.find(
      (a) =>
        alert.hostnameAndPort?.startsWith(`${fqdn(a.host)}:`) &&
        configOf(b, a.config).id === alert.alertConfigId,
    );
    if (ack === undefined) continue;
    add(alert.groupId!, ack.at, 'ALERT_ACKNOWLEDGED_AUDIT', {
      ...by(ack.by),
      alertId: alert.id,
      alertConfigId: alert.alertConfigId,
    });
  }
  return out;
}
