// Role changes of the access area: which role assignments are valid, who may grant or remove which role,
// the last owners no change may remove, and invitations (a new organization or project role for a user who
// is not yet a member is pending until accepted, unless the bypass-invite setting is on).

import { ROLE_NAMES } from '../../vocabulary/index.js';
import type { RoleAssignment, UserRec } from '../records.js';
import { findOrg, findProject, GRANTS, grants, hasGlobalRole, scopeOf, unauthorized } from '../roles.js';
import { type Caller, type SimContext, SimError, type SimRequest } from '../types.js';
import { audit } from './render.js';
import {
  badRequest,
  invalidAttribute,
  invalidEnum,
  invalidJsonAttribute,
  missingAttribute,
} from './validate.js';

export const sameRole = (a: RoleAssignment, b: RoleAssignment): boolean =>
  a.roleName === b.roleName && a.orgId === b.orgId && a.groupId === b.groupId;

/** Validates role assignment objects: names, the ids each scope needs or must not have, and that ids exist. */
export function parseRoles(ctx: SimContext, input: Record<string, unknown>[]): RoleAssignment[] {
  const out: RoleAssignment[] = [];
  for (const raw of input) {
    for (const key of Object.keys(raw)) {
      if (!['orgId', 'groupId', 'roleName'].includes(key)) throw invalidAttribute(`roles.${key}`);
    }
    const { roleName, orgId, groupId } = raw;
    if (roleName === undefined || roleName === null) throw missingAttribute('roles.roleName');
    for (const [name, value] of Object.entries({ roleName, orgId, groupId })) {
      if (value !== undefined && value !== null && typeof value !== 'string') {
        throw invalidJsonAttribute(`roles.${name}`, 'expected a string');
      }
    }
    const name = roleName as string;
    const org = typeof orgId === 'string' ? orgId : undefined;
    const group = typeof groupId === 'string' ? groupId : undefined;
    const scope = scopeOf(name);
    if (scope === undefined) throw invalidEnum('roles.roleName', name, ROLE_NAMES);
    const fail = (code: string, detail: string): never => {
      throw badRequest(code, detail, [name]);
    };
    if (scope === 'global') {
      if (group !== undefined) fail('ROLE_NEEDS_NO_GROUP_ID', `The global role ${name} takes no groupId.`);
      if (org !== undefined) fail('ROLE_NEEDS_NO_ORG_ID', `The global role ${name} takes no orgId.`);
    }
    if (scope === 'org') {
      if (group !== undefined)
        fail('INVALID_ROLE_FOR_GROUP', `The organization role ${name} is not valid for a group.`);
      if (org === undefined) fail('ROLE_NEEDS_ORG_ID', `The organization role ${name} needs an orgId.`);
    }
    if (scope === 'group') {
      if (group === undefined) fail('ROLE_NEEDS_GROUP_ID', `The project role ${name} needs a groupId.`);
      if (org !== undefined) fail('ROLE_NEEDS_NO_ORG_ID', `The project role ${name} takes no orgId.`);
    }
    if (group !== undefined) findProject(ctx, group);
    if (org !== undefined) findOrg(ctx, org);
    const role: RoleAssignment = { roleName: name };
    if (org !== undefined) role.orgId = org;
    if (group !== undefined) role.groupId = group;
    if (!out.some((r) => sameRole(r, role))) out.push(role);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Who may grant or remove which role

export const isUserAdmin = (caller: Caller): boolean =>
  hasGlobalRole(caller.key.roles, ['GLOBAL_OWNER', 'GLOBAL_USER_ADMIN']);

/** Whether the caller administers the scope (organization or project) a role belongs to. */
export function administers(ctx: SimContext, caller: Caller, role: RoleAssignment): boolean {
  if (isUserAdmin(caller)) return true;
  const roles = caller.key.roles;
  if (role.groupId !== undefined) {
    const project = ctx.store.project(role.groupId);
    return project !== undefined && grants(roles, project, GRANTS.userAdmin);
  }
  if (role.orgId !== undefined) {
    return roles.some((r) => r.groupId === undefined && r.orgId === role.orgId && r.roleName === 'ORG_OWNER');
  }
  return false;
}

/** Adding a role: global roles need a global owner (or user admin below owner), else 403. */
export function checkCanAdd(ctx: SimContext, caller: Caller, role: RoleAssignment): void {
  if (scopeOf(role.roleName) === 'global') {
    const ok =
      hasGlobalRole(caller.key.roles, ['GLOBAL_OWNER']) ||
      (role.roleName !== 'GLOBAL_OWNER' && hasGlobalRole(caller.key.roles, ['GLOBAL_USER_ADMIN']));
    if (!ok) {
      throw new SimError(
        403,
        'CANNOT_ADD_GLOBAL_ROLE',
        `The current user cannot add the global role ${role.roleName}.`,
        [role.roleName],
      );
    }
    return;
  }
  if (!administers(ctx, caller, role)) throw unauthorized();
}

export function checkCanRemove(
  ctx: SimContext,
  caller: Caller,
  role: RoleAssignment,
  ownAccount: boolean,
): void {
  if (ownAccount) return;
  if (scopeOf(role.roleName) === 'global' ? !isUserAdmin(caller) : !administers(ctx, caller, role)) {
    throw unauthorized();
  }
}

/** A user must not lose the last GLOBAL_OWNER, ORG_OWNER of an organization or GROUP_OWNER of a project. */
export function checkLastOwners(ctx: SimContext, target: UserRec, removed: RoleAssignment[]): void {
  for (const role of removed) {
    if (!['GLOBAL_OWNER', 'ORG_OWNER', 'GROUP_OWNER'].includes(role.roleName)) continue;
    const others = ctx.store.data.users.some(
      (u) => u.id !== target.id && u.roles.some((r) => sameRole(r, role)),
    );
    if (others) continue;
    const code = role.roleName === 'ORG_OWNER' ? 'CANNOT_DEMOTE_LAST_ORG_OWNER' : 'CANNOT_DEMOTE_LAST_OWNER';
    throw new SimError(
      403,
      code,
      `The user ${target.username} is the last ${role.roleName}; it cannot be removed.`,
      [target.username],
    );
  }
}

const isActiveMemberOf = (u: UserRec, role: RoleAssignment): boolean =>
  u.roles.some((r) =>
    role.groupId !== undefined
      ? r.groupId === role.groupId
      : r.groupId === undefined && r.orgId === role.orgId,
  );

/** Splits added roles into those applied now and those waiting for an invitation to be accepted. */
export function splitInvites(
  ctx: SimContext,
  user: UserRec,
  added: RoleAssignment[],
): { direct: RoleAssignment[]; invited: RoleAssignment[] } {
  const direct: RoleAssignment[] = [];
  const invited: RoleAssignment[] = [];
  for (const role of added) {
    const invite =
      scopeOf(role.roleName) !== 'global' && !ctx.options.bypassInvite && !isActiveMemberOf(user, role);
    (invite ? invited : direct).push(role);
  }
  return { direct, invited };
}

export function recordInvites(
  req: SimRequest,
  ctx: SimContext,
  user: UserRec,
  invited: RoleAssignment[],
): void {
  for (const role of invited) {
    if (role.groupId !== undefined) {
      audit(req, ctx, {
        eventTypeName: 'INVITED_TO_GROUP',
        groupId: role.groupId,
        targetUsername: user.username,
      });
    } else {
      audit(req, ctx, { eventTypeName: 'INVITED_TO_ORG', orgId: role.orgId, targetUsername: user.username });
    }
  }
}
