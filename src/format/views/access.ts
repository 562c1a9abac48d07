// The access area as a person sees it: a user (name, contact, roles, teams) and their access list, a role,
// the previews and answers of creating a user and changing roles. Keys are in access-keys.ts, people found
// in access-people.ts.
import type { AccessListEntry, RoleAssignment, User } from '../../api/types.js';
import { cell, named } from '../../untrusted.js';
import {
  type FormatContext,
  type ListView,
  type NameBook,
  recordAnswer,
  type ToolAnswer,
} from '../answers.js';
import type { Preview } from '../consent.js';
import { stamp, utc } from '../markdown.js';

export const accessList: ListView<AccessListEntry> = {
  columns: ['address', utc('added'), utc('last used'), 'last used from', 'requests'],
  row: (e: AccessListEntry, now: Date) => [
    e.cidrBlock ?? e.ipAddress,
    stamp(e.created, now),
    stamp(e.lastUsed, now) ?? 'never',
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

export const userPairs = (u: User, names?: NameBook): Array<[string, unknown]> => [
  ['Username', u.username],
  ['Name', fullName(u)],
  ['Email', u.emailAddress],
  ['Mobile', u.mobileNumber],
  ['Roles', (u.roles ?? []).map((r) => roleLabel(r, names?.project, names?.org))],
  ['Teams', u.teamIds],
];

type Role = { roleName?: string; orgId?: string; groupId?: string };

const asIs = (id: string) => id;

/** "GROUP_OWNER @ project `payments-prod` (09c5…)" when `project` (`org`) knows the name, else the id alone. */
export const roleLabel = (
  r: Role,
  project: (id: string) => string = asIs,
  org: (id: string) => string = asIs,
) =>
  r.groupId
    ? `${r.roleName} @ project ${project(r.groupId)}`
    : r.orgId
      ? `${r.roleName} @ org ${org(r.orgId)}`
      : `${r.roleName} (global)`;

/** One role's identity: its name and where it applies. */
export const roleKey = (r: Role) => `${r.roleName}|${r.groupId ?? ''}|${r.orgId ?? ''}`;

const OWNER_ROLES = new Set(['GLOBAL_OWNER', 'ORG_OWNER', 'GROUP_OWNER']);

const invitationNote =
  'New organization and project roles are sent to the user as an invitation first; they apply once accepted (unless the platform bypasses invitations for existing users). Global roles apply at once.';

export function createUserPreview(
  args: { username: string; firstName: string; lastName: string; emailAddress: string; password?: string },
  roles: RoleAssignment[],
  project: (id: string) => string,
  org?: (id: string) => string,
): Preview {
  return {
    action: `Create user ${args.username}`,
    target: { username: args.username },
    changes: [
      { field: 'name', to: `${args.firstName} ${args.lastName}` },
      { field: 'emailAddress', to: args.emailAddress },
      { field: 'roles', to: roles.map((r) => roleLabel(r, project, org)).join('; ') || '(none)' },
    ],
    notes: [
      invitationNote,
      ...(args.password
        ? []
        : [
            'A strong password is generated and written to a 0600 file on the server, never shown in this chat.',
          ]),
    ],
  };
}

/** Roles asked for but absent from the answer wait for the user to accept an invitation: say so. */
function withPending(answer: ToolAnswer, asked: RoleAssignment[], u: User, names: NameBook): ToolAnswer {
  const has = new Set((u.roles ?? []).map(roleKey));
  const pending = asked
    .filter((r) => !has.has(roleKey(r)))
    .map((r) => roleLabel(r, names.project, names.org));
  if (pending.length) answer.text += `\nInvited, applies once the user accepts: ${pending.join('; ')}.`;
  return answer;
}

export function userCreatedAnswer(
  r: { user: User; asked: RoleAssignment[]; passwordFile?: string },
  f: FormatContext,
): ToolAnswer {
  const answer = withPending(
    recordAnswer(`User ${cell(r.user.id, 40)} created`, r.user, (u) => userPairs(u, f.names), f),
    r.asked,
    r.user,
    f.names,
  );
  if (r.passwordFile)
    answer.text += `\nThe generated password is in ${r.passwordFile} (readable by the server's user only); hand it to the person through a safe channel.`;
  return answer;
}

export type RolesMode = 'add' | 'remove' | 'replace';

/** What the person must see before a change of access, outside the data fence: gains, losses and risks. */
function accessNotes(
  before: RoleAssignment[],
  next: RoleAssignment[],
  mode: RolesMode,
  asked: RoleAssignment[],
  project: (id: string) => string,
  org?: (id: string) => string,
) {
  const label = (r: RoleAssignment) => roleLabel(r, project, org);
  const had = new Set(before.map(roleKey));
  const will = new Set(next.map(roleKey));
  const gained = next.filter((r) => !had.has(roleKey(r)));
  const lost = before.filter((r) => !will.has(roleKey(r)));
  const notes = [
    `Gains: ${gained.map(label).join('; ') || 'nothing'}`,
    `Loses: ${lost.map(label).join('; ') || 'nothing'}`,
  ];
  if (mode === 'remove')
    for (const r of asked.filter((a) => !had.has(roleKey(a))))
      notes.push(`Not held, so not removed: ${label(r)}`);
  if (lost.some((r) => r.roleName === 'ORG_MEMBER' || (r.orgId && !next.some((n) => n.orgId === r.orgId))))
    notes.push('Warning: this removes organization membership; the user loses access to the organization.');
  for (const groupId of new Set(lost.flatMap((r) => (r.groupId ? [r.groupId] : []))))
    if (!next.some((n) => n.groupId === groupId))
      notes.push(`Warning: this removes the user's last role in project ${project(groupId)}.`);
  for (const r of lost.filter((x) => OWNER_ROLES.has(String(x.roleName))))
    notes.push(`Warning: this removes an owner role (${label(r)}).`);
  return { gained, lost, notes };
}

/** A change of roles as resolved: the user (when readable), the roles before and after, and those asked. */
export interface RolesChange {
  userId: string;
  mode: RolesMode;
  user?: User;
  before?: RoleAssignment[];
  next: RoleAssignment[];
  asked: RoleAssignment[];
}

export function rolesPreview(
  c: RolesChange,
  project: (id: string) => string,
  org?: (id: string) => string,
): Preview {
  const { user: u, before, next } = c;
  const label = (r: RoleAssignment) => roleLabel(r, project, org);
  const { gained, lost, notes } = before
    ? accessNotes(before, next, c.mode, c.asked, project, org)
    : {
        gained: next,
        lost: [] as RoleAssignment[],
        notes: [
          `Gains: ${next.map(label).join('; ') || 'nothing'}`,
          'The current roles could not be read on this server: every role not listed will be removed.',
        ],
      };
  if (gained.some((r) => !roleLabel(r).endsWith('(global)'))) notes.push(invitationNote);
  if (before && gained.length === 0 && lost.length === 0)
    notes.push('The roles are already these: nothing changes.');
  return {
    // Names are platform text: sanitized, bounded and code-quoted here, in full only inside the data block.
    action: `Change the roles of user ${named(u && personName(u), c.userId)} (mode ${c.mode})`,
    target: { userId: c.userId },
    current: u ? { username: u.username, roles: before?.length ? before.map(label) : '(none)' } : undefined,
    changes: [
      { field: 'roles added', to: gained.map(label).join('; ') || '(none)' },
      ...(before ? [{ field: 'roles removed', from: lost.map(label).join('; ') || '(none)' }] : []),
    ],
    notes,
  };
}

export const rolesUpdatedAnswer = (u: User, asked: RoleAssignment[], userId: string, f: FormatContext) =>
  withPending(
    recordAnswer(`Roles of user ${named(personName(u), userId)} updated`, u, (x) => userPairs(x, f.names), f),
    asked,
    u,
    f.names,
  );
