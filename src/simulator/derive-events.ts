// A month of the demo's events: what happened in the world (derive-history.ts), and around it routine activity
// that changes nothing the alerts or agents show (data explorer use, role changes, keys added, older publishes
// of users and roles), drawn by weight (data/events.ts) and at least a day old; and global events (logins,
// keys, users, backup daemons).

import type { DiffStatus, DiffType } from '../vocabulary/index.js';
import {
  ADMIN,
  DATABASES,
  GLOBAL_EVENT_COUNT,
  GLOBAL_EVENT_WEIGHTS,
  PROJECT_EVENT_COUNT,
  PROJECT_EVENT_WEIGHTS,
  QUIET_RECENT,
  SOFIA,
} from './data/events.js';
import { type Build, DAY, type Rng } from './data/gen.js';
import { WORLD } from './data/world.js';
import { rawOf, recordWorld } from './derive-history.js';
import type { EventRec, HostRec, ProjectRec, UserRec } from './records.js';
import { timestamp } from './values.js';

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

/** Who may do what in a project, and how a person or key appears as an event's author. */
function actors(b: Build) {
  const { data } = b;
  const userAddress = new Map(
    data.users.map((u, i) => [u.id, `10.${12 + i}.${(i * 37) % 250}.${20 + i * 11}`]),
  );
  const keyAddress = new Map(data.apiKeys.map((k, i) => [k.id, `203.0.113.${40 + i * 7}`]));
  const ownerOf = (groupId: string) => (x: { groupId?: string; roleName: string }) =>
    (x.groupId === groupId && x.roleName === 'GROUP_OWNER') || x.roleName === 'GLOBAL_OWNER';
  return {
    user: (user: UserRec): Record<string, unknown> => ({
      userId: user.id,
      username: user.username,
      remoteAddress: userAddress.get(user.id),
      isGlobalAdmin: user.roles.some(
        (x) => x.roleName === 'GLOBAL_MONITORING_ADMIN' || x.roleName === 'GLOBAL_OWNER',
      ),
    }),
    key: (keyId: string): Record<string, unknown> => {
      const key = data.apiKeys.find((k) => k.id === keyId)!;
      return { apiKeyId: key.id, publicKey: key.publicKey, remoteAddress: keyAddress.get(key.id) };
    },
    members: (groupId: string): UserRec[] =>
      data.users.filter((u) => u.roles.some((x) => x.groupId === groupId || x.roleName === 'GLOBAL_OWNER')),
    owners: (groupId: string): UserRec[] => data.users.filter((u) => u.roles.some(ownerOf(groupId))),
    ownerKeys: (groupId: string): string[] =>
      data.apiKeys.filter((k) => k.roles.some(ownerOf(groupId))).map((k) => k.id),
    keys: (groupId: string): string[] =>
      data.apiKeys
        .filter((k) => k.roles.some((x) => x.groupId === groupId || x.roleName === 'GLOBAL_OWNER'))
        .map((k) => k.id),
  };
}

type Actors = ReturnType<typeof actors>;

/** One routine event of a project: its author and what it touched, by its type. */
function routineEvent(b: Build, who: Actors, project: ProjectRec, event: EventRec): void {
  const { r, data } = b;
  const type = event.eventTypeName;
  switch (type) {
    case 'AUTOMATION_CONFIG_PUBLISHED_AUDIT': {
      // By an owner, or by a key that may publish (CI, operations automation).
      const keys = who.ownerKeys(project.id);
      Object.assign(event, r.chance(0.5) ? who.user(r.pick(who.owners(project.id))) : who.key(r.pick(keys)));
      const hosts = data.hosts.filter((h) => h.groupId === project.id);
      event.diffs = automationDiffs(r, project.name, hosts);
      break;
    }
    case 'DATA_EXPLORER':
    case 'DATA_EXPLORER_CRUD': {
      const readers = who.members(project.id);
      const writers = readers.filter((u) =>
        u.roles.some(
          (x) =>
            (x.groupId === project.id && x.roleName !== 'GROUP_READ_ONLY') || x.roleName === 'GLOBAL_OWNER',
        ),
      );
      Object.assign(event, who.user(r.pick(type === 'DATA_EXPLORER' ? readers : writers)));
      const [database, collections] = r.pick(DATABASES[project.name] ?? [['test', ['items']]]);
      event.database = database;
      event.collection = r.pick(collections);
      event.opType =
        type === 'DATA_EXPLORER'
          ? r.pick(['FIND', 'AGGREGATE', 'LIST_INDEXES', 'COLLECTION_STATS'])
          : r.pick(['INSERT', 'UPDATE', 'DELETE', 'REPLACE']);
      break;
    }
    case 'USER_ROLES_CHANGED_AUDIT':
      // Only an owner of the project (or the global owner) changes roles in it.
      Object.assign(event, who.user(r.pick(who.owners(project.id))));
      event.targetUsername = r.pick(who.members(project.id)).username;
      break;
    case 'API_KEY_ADDED_TO_GROUP':
      Object.assign(event, who.user(b.user(ADMIN)));
      event.targetPublicKey = data.apiKeys.find((k) => k.id === r.pick(who.keys(project.id)))?.publicKey;
      break;
    default:
      Object.assign(event, who.user(r.pick(who.members(project.id))));
  }
  event.raw = rawOf(event, project.name, event.apiKeyId !== undefined ? 'API' : 'USER');
}

/** The routine events of the projects, each older than QUIET_RECENT. */
function routineEvents(b: Build, who: Actors): EventRec[] {
  const { r, data, now } = b;
  const out: EventRec[] = [];
  for (let n = 0; n < PROJECT_EVENT_COUNT; n++) {
    const project = r.weighted(data.projects.map((p, i) => [p, [5, 2, 4, 1][i] ?? 1] as const));
    const type = r.weighted(PROJECT_EVENT_WEIGHTS);
    const when = now.getTime() - QUIET_RECENT - Math.floor(r.next() * (30 * DAY - QUIET_RECENT));
    const event: EventRec = {
      id: r.id(),
      created: timestamp(new Date(when)),
      eventTypeName: type,
      groupId: project.id,
    };
    routineEvent(b, who, project, event);
    out.push(event);
  }
  return out;
}

/** The organization's events: logins, keys, users, tags, backup daemons. */
function globalEvents(b: Build, who: Actors): EventRec[] {
  const { r, data, now } = b;
  const org = data.orgs[0]!;
  const out: EventRec[] = [];
  for (let n = 0; n < GLOBAL_EVENT_COUNT; n++) {
    const type = r.weighted(GLOBAL_EVENT_WEIGHTS);
    const id = r.id(); // drawn before its time
    const when = now.getTime() - Math.floor(r.next() * 30 * DAY);
    const event: EventRec = {
      id,
      created: timestamp(new Date(when)),
      eventTypeName: type,
      orgId: org.id,
    };
    const user = r.pick(data.users);
    switch (type) {
      case 'SUCCESSFUL_LOGIN_AUDIT':
      case 'JOINED_ORG':
        Object.assign(event, who.user(user));
        break;
      case 'UNSUCCESSFUL_LOGIN_AUDIT':
        event.targetUsername = user.username;
        event.remoteAddress = `198.51.100.${r.int(2, 250)}`;
        break;
      case 'API_KEY_CREATED':
      case 'API_KEY_ACCESS_LIST_ENTRY_ADDED':
        Object.assign(event, who.user(b.user(ADMIN)));
        event.targetPublicKey = r.pick(data.apiKeys).publicKey;
        if (type === 'API_KEY_ACCESS_LIST_ENTRY_ADDED') event.accessListEntry = `10.${r.int(0, 255)}.0.0/16`;
        break;
      case 'USER_CREATED_AUDIT':
      case 'USER_ROLES_CHANGED_AUDIT':
        Object.assign(event, who.user(b.user(ADMIN)));
        event.targetUsername = user.username;
        break;
      case 'GROUP_TAGS_CHANGED':
        Object.assign(event, r.chance(0.5) ? who.user(b.user(SOFIA)) : who.key(data.apiKeys[0]!.id));
        event.groupId = r.pick(data.projects).id;
        break;
      default:
        // Backup daemon state changes are system events.
        event.hostname = `backup-daemon-0${r.int(1, 2)}.example.internal`;
    }
    out.push(event);
  }
  return out;
}

/** Invitations still pending. */
function invitationEvents(b: Build, who: Actors): EventRec[] {
  return WORLD.invitations.map((v) => {
    const project = b.project(v.project);
    const event: EventRec = {
      id: b.r.id(),
      created: b.at(v.at),
      eventTypeName: 'INVITED_TO_GROUP',
      groupId: project.id,
      ...who.user(b.user(v.by)),
      targetUsername: b.user(v.person).username,
    };
    event.raw = rawOf(event, project.name, 'USER');
    return event;
  });
}

// ISO timestamps of one length: ordered by their characters (localeCompare orders them the same, slowly).
const byCreated = (a: EventRec, b: EventRec): number =>
  a.created < b.created ? -1 : a.created > b.created ? 1 : 0;

export function buildEvents(b: Build): void {
  const who = actors(b);
  const projectEvents = [...recordWorld(b, who.user), ...routineEvents(b, who)];
  const global = globalEvents(b, who);
  // Invitations are drawn last so that no id drawn before them moves.
  projectEvents.push(...invitationEvents(b, who));
  b.data.events = projectEvents.sort(byCreated);
  b.data.globalEvents = global.sort(byCreated);
}
