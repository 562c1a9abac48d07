// The access area as a person sees it: a user (name, contact, roles, teams) and their access list; an API key
// (its private half masked, with its file) and a role.
import type { AccessListEntry, ApiKey, User } from '../../api/types.js';
import { cell } from '../../untrusted.js';
import type { ListView } from '../answers.js';
import { age } from '../markdown.js';
import { redact } from '../redact.js';

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

// role labels ("GROUP_OWNER @ project …").

export type KeptKey = ApiKey & {
  privateKeyFile?: string;
  /** The platform sent the private key masked: it was not saved, and it is not usable. */
  privateKeyMasked?: boolean;
  /** The older first-user answer: the key as one string, without public key or roles. */
  legacy?: boolean;
};

/** The kept key as shown: everything else redacted; privateKey is already what the keeper allows. */
export function shownKey(k: KeptKey): KeptKey {
  return {
    ...redact(k),
    privateKey: k.privateKey,
    ...(k.privateKeyFile ? { privateKeyFile: k.privateKeyFile } : {}),
    ...(k.privateKeyMasked ? { privateKeyMasked: true } : {}),
  };
}

/** Lines about where the private key went, outside the data fence: this is the server's own text. */
export function keyNote(k: KeptKey): string {
  if (!k.privateKey) return 'The platform returned no private key.';
  if (k.privateKeyMasked)
    return "The platform sent the private key already masked, so there is no usable secret to store and none was saved. Generate a new private key for this API key in the platform's user interface (its API key settings), or delete the key if nobody can use it.";
  if (k.privateKeyFile)
    return `The private key is stored in ${k.privateKeyFile} (readable by the server's user only) and shown masked here; the platform never shows it again.`;
  return 'The private key is shown in full (DBOPS_REVEAL_SECRETS=true): store it now, the platform never shows it again.';
}

type Role = { roleName?: string; orgId?: string; groupId?: string };

/** "GROUP_OWNER @ project `payments-prod` (09c5…)" when `project` knows the name, else the id alone. */
export const roleLabel = (r: Role, project: (id: string) => string = (id) => id) =>
  r.groupId
    ? `${r.roleName} @ project ${project(r.groupId)}`
    : r.orgId
      ? `${r.roleName} @ org ${r.orgId}`
      : `${r.roleName} (global)`;
