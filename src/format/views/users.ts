// How a user looks to a person: name, contact, roles, teams; and the user's access list.
import type { AccessListEntry, User } from '../../api/types.js';
import type { ListView } from '../answers.js';
import { age } from '../markdown.js';
import { namedRoles, roleLabel } from './keys.js';
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

/** People as a list: who they are and what they may do, roles named by project where the names are known. */
export const userList = (projectNames: ReadonlyMap<string, string>): ListView<User> => ({
  columns: ['userId', 'name', 'username', 'email', 'roles'],
  row: (u: User) => [
    u.id,
    fullName(u),
    u.username,
    u.emailAddress,
    (u.roles ?? []).map(namedRoles(projectNames)).join('; '),
  ],
});
