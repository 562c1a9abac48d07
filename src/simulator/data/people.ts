// Users and API keys, and the fixture keys with narrow rights that the tests of the error paths use.

import { createHash } from 'node:crypto';
import { ORG_ROLES, type ProjectRole, type RoleName } from '../../vocabulary/index.js';
import type { FixtureKey, Fixtures, RoleAssignment, UserRec } from '../records.js';
import { accessListEntry, hashPassword } from '../values.js';
import { type Build, DAY } from './gen.js';
import { WORKED_OUT } from './hashes.js';

/** A role name alone (global or, with the org's id, organization), or a project role in a named project. */
type RoleSpec = RoleName | [project: string, role: ProjectRole];

interface UserSpec {
  username: string;
  firstName: string;
  lastName: string;
  email?: string;
  roles: RoleSpec[];
  pending?: RoleSpec[];
  accessList?: string[];
  mobile?: string;
  /** Member of the one team. */
  inTeam?: boolean;
}

export const USERS: UserSpec[] = [
  {
    username: 'ops-admin@example.com',
    firstName: 'Morgan',
    lastName: 'Ellis',
    roles: ['GLOBAL_OWNER', 'ORG_OWNER'],
    mobile: '+15555550100',
  },
  {
    username: 'priya.raman@example.com',
    firstName: 'Priya',
    lastName: 'Raman',
    roles: ['ORG_MEMBER', ['payments-prod', 'GROUP_OWNER'], ['analytics-prod', 'GROUP_READ_ONLY']],
    inTeam: true,
    mobile: '+15555550142',
  },
  {
    username: 'marcus.chen@example.com',
    firstName: 'Marcus',
    lastName: 'Chen',
    roles: ['ORG_MEMBER', ['analytics-prod', 'GROUP_MONITORING_ADMIN'], ['payments-prod', 'GROUP_READ_ONLY']],
    pending: [['search-staging', 'GROUP_READ_ONLY']],
    inTeam: true,
  },
  {
    username: 'sofia.alvarez@example.com',
    firstName: 'Sofia',
    lastName: 'Alvarez',
    roles: [
      'ORG_MEMBER',
      ['search-staging', 'GROUP_OWNER'],
      ['analytics-prod', 'GROUP_OWNER'],
      ['platform-dev', 'GROUP_OWNER'],
    ],
  },
  {
    username: 'oncall-bot',
    email: 'oncall-bot@example.com',
    firstName: 'On-call',
    lastName: 'Automation',
    roles: ['GLOBAL_MONITORING_ADMIN'],
  },
  {
    username: 'dana.okafor@example.com',
    firstName: 'Dana',
    lastName: 'Okafor',
    roles: ['ORG_MEMBER', ['payments-prod', 'GROUP_MONITORING_ADMIN']],
    accessList: ['10.20.0.0/16', '192.0.2.15'],
  },
  {
    username: 'lee.novak@example.com',
    firstName: 'Lee',
    lastName: 'Novak',
    roles: ['ORG_MEMBER', ['payments-prod', 'GROUP_READ_ONLY'], ['analytics-prod', 'GROUP_READ_ONLY']],
    accessList: ['127.0.0.1', '10.0.0.0/8'],
  },
];

/** An access-list entry that has been used before, so its bookkeeping starts from real numbers. */
const USED_ENTRY = { username: 'lee.novak@example.com', address: '127.0.0.1' };

interface KeySpec {
  desc: string;
  /** Project roles of a key name the organization too; every key here but the global ones is ORG_MEMBER. */
  roles: RoleSpec[];
  owner?: string;
  /** Which fixture the key is (and the project it is about); the first key is the demo key. */
  fixture?: { name: keyof Fixtures; project?: string };
}

const KEYS: KeySpec[] = [
  { desc: 'Operations automation', roles: ['GLOBAL_OWNER', 'ORG_OWNER'] },
  {
    desc: 'Dashboard reader',
    roles: [['payments-prod', 'GROUP_READ_ONLY'], 'ORG_MEMBER'],
    fixture: { name: 'readOnly', project: 'payments-prod' },
  },
  {
    desc: 'Alert triage bot',
    roles: [['payments-prod', 'GROUP_MONITORING_ADMIN'], 'ORG_MEMBER'],
    fixture: { name: 'monitoringAdmin', project: 'payments-prod' },
  },
  {
    desc: 'Search team CI',
    roles: [['search-staging', 'GROUP_OWNER'], ['platform-dev', 'GROUP_READ_ONLY'], 'ORG_MEMBER'],
    fixture: { name: 'notInProject', project: 'payments-prod' },
  },
  {
    desc: 'Workstation key (Dana)',
    roles: [['payments-prod', 'GROUP_MONITORING_ADMIN'], 'ORG_MEMBER'],
    owner: 'dana.okafor@example.com',
    fixture: { name: 'accessListDenied' },
  },
  {
    desc: 'Reporting key (Lee)',
    roles: [['payments-prod', 'GROUP_READ_ONLY'], 'ORG_MEMBER'],
    owner: 'lee.novak@example.com',
    fixture: { name: 'accessListAllowed' },
  },
  { desc: 'Compliance exporter', roles: ['GLOBAL_READ_ONLY'], fixture: { name: 'globalReadOnly' } },
];

/** Users' project roles name only the project; keys' name the organization as well. */
function assign(b: Build, spec: RoleSpec, projectRolesNameOrg: boolean): RoleAssignment {
  const orgId = b.data.orgs[0]!.id;
  if (typeof spec === 'string') {
    return (ORG_ROLES as readonly string[]).includes(spec) ? { orgId, roleName: spec } : { roleName: spec };
  }
  const groupId = b.project(spec[0]).id;
  return projectRolesNameOrg ? { groupId, orgId, roleName: spec[1] } : { groupId, roleName: spec[1] };
}

/**
 * A demo person's password hash: scrypt, unless the same password and salt were hashed already (the default
 * seed's people, hashes.ts), which saves every demo start ten scrypt runs. Keyed by a digest of both inputs, so
 * a changed password or salt misses the table and is hashed anew.
 */
function passwordHashOf(password: string, salt: string): string {
  const key = createHash('sha256').update(`${password}\0${salt}`).digest('hex').slice(0, 32);
  const known = WORKED_OUT[key];
  return known === undefined ? hashPassword(password, salt) : `scrypt$${salt}$${known}`;
}

export function buildUsers(b: Build): void {
  const { r, data } = b;
  const teamId = r.id();
  for (const spec of USERS) {
    const created = b.ago(60 * DAY, 380 * DAY);
    const user: UserRec = {
      id: r.id(),
      username: spec.username,
      passwordHash: passwordHashOf(`${r.hex(12)}!A1`, r.hex(32)),
      emailAddress: spec.email ?? spec.username,
      firstName: spec.firstName,
      lastName: spec.lastName,
      roles: spec.roles.map((x) => assign(b, x, false)),
      pendingRoles: (spec.pending ?? []).map((x) => assign(b, x, false)),
      teamIds: spec.inTeam ? [teamId] : [],
      accessList: (spec.accessList ?? []).map(
        (value) => accessListEntry(value, new Date(Date.parse(created) + DAY))!,
      ),
      created,
    };
    if (spec.mobile !== undefined) user.mobileNumber = spec.mobile;
    data.users.push(user);
  }
  const used = b.user(USED_ENTRY.username).accessList.find((e) => e.ipAddress === USED_ENTRY.address);
  if (used !== undefined) {
    used.lastUsed = b.ago(1 * DAY, 3 * DAY);
    used.lastUsedAddress = USED_ENTRY.address;
    used.count = r.int(20, 400);
  }
}

export function buildKeys(b: Build): void {
  const { r, data } = b;
  const fixtures: Partial<Record<keyof Fixtures, FixtureKey>> = {};
  for (const spec of KEYS) {
    const userId = spec.owner === undefined ? undefined : b.user(spec.owner).id;
    const key = {
      id: r.id(),
      publicKey: r.publicKey(),
      privateKey: r.uuid(),
      desc: spec.desc,
      roles: spec.roles.map((x) => assign(b, x, true)),
      created: b.ago(30 * DAY, 200 * DAY),
      ...(userId === undefined ? {} : { userId }),
    };
    data.apiKeys.push(key);
    const fixture: FixtureKey = { id: key.id, publicKey: key.publicKey, privateKey: key.privateKey };
    if (spec.fixture === undefined) {
      data.demo = {
        publicKey: key.publicKey,
        privateKey: key.privateKey,
        orgId: data.orgs[0]!.id,
        projectIds: data.projects.map((p) => p.id),
      };
      continue;
    }
    const { name, project } = spec.fixture;
    fixtures[name] = {
      ...fixture,
      ...(project === undefined ? {} : { projectId: b.project(project).id }),
      ...(userId === undefined ? {} : { userId }),
    };
  }
  data.fixtures = fixtures as Fixtures;
}
