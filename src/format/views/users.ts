// How a user looks to a person: name, contact, roles, teams; and the user's access list.
import type { AccessListEntry, User } from '../../api/types.js';
import { cell } from '../../untrusted.js';
import type { ListView } from '../answers.js';
import { age } from '../markdown.js';
import { roleLabel } from './keys.js';
export const accessList: ListView<AccessListEntry> = {
  columns: ['address', 'added', 'last used', 'last used from', 'requests'],
  row: (e: AccessListEntry, now: Date) => [
    e.cidrBlock ?? e.ipAddress,
    age(e.created, now),
    age(e.lastUsed, now) ?? 'never',
    e.lastUsedAddress,
    e.count,
  ],
};

export const fullName = (u: Pick<User, 'firstName' | 'lastName'>) =>
  [u.firstName, u.lastName].filter(Boolean).join(' ');

/** "Priya Raman (priya.raman)": full name and username, or whichever is known. */
export const personName = (u: Pick<User, 'firstName' | 'lastName' | 'username'>) => {
  const full = fullName(u);
  return full && u.username ? `${full} (${u.username})` : full || u.username;
};

export const userPairs = (u: User): Array<[string, unknown]> => [
  ['Username', u.username],
  ['Name', fullName(u)],
  ['Email', u.emailAddress],
  ['Mobile', u.mobileNumber],
  ['Roles', (u.roles ?? []).map((r) => roleLabel(r))],
  ['Teams', u.teamIds],
];

/** What a role label needs to name where a role applies: project and organization names, where known. */
export interface RolePlaces {
  projects: ReadonlyMap<string, string>;
  orgs: ReadonlyMap<string, string>;
}

/** "GROUP_READ_ONLY @ project search-staging (5f…)", "ORG_MEMBER @ org Acme (49…)": whole, never cut. */
export function placedRole(
  r: { roleName?: string; orgId?: string; groupId?: string },
  at: RolePlaces,
): string {
  if (r.groupId) {
    const n = at.projects.get(r.groupId);
    return `${r.roleName} @ project ${n ? `${n} (${r.groupId})` : r.groupId}`;
  }
  if (r.orgId) {
    const n = at.orgs.get(r.orgId);
    return `${r.roleName} @ org ${n ? `${n} (${r.orgId})` : r.orgId}`;
  }
  return `${r.roleName} (global)`;
}

/**
 * One person as a block (for the inside of a data fence): who they are on one line, then one line per role,
 * so that no role is ever cut to fit a table cell.
 */
export function personBlock(u: User, at: RolePlaces): string {
  const who = [
    `**${cell(fullName(u) || u.username, 100)}**`,
    `username ${cell(u.username, 120)}`,
    ...(u.emailAddress && u.emailAddress !== u.username ? [`email ${cell(u.emailAddress, 120)}`] : []),
    `userId ${cell(u.id, 40)}`,
  ].join(' · ');
  const roles = u.roles ?? [];
  return [
    who,
    ...(roles.length
      ? roles.map((r) => `- ${cell(placedRole(r, at), 300)}`)
      : ['- no roles (an invitation may be pending)']),
  ].join('\n');
}
