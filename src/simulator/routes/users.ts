// Users: the unauthenticated first-user endpoint, create a user, update a user's roles, read a user's
// access list, and beyond the spec: get one user.
//
// Invitations: a new organization or project role for a user who is not yet a member of that organization
// or project is recorded as pending (and left out of `roles`) unless the bypass-invite setting is on.
// Global roles always apply directly.

import { randomInt } from 'node:crypto';
import { ROLE_NAMES } from '../../vocabulary/index.js';
import type { AccessListEntryRec, RoleAssignment, UserRec } from '../records.js';
import { type Caller, type SimContext, SimError, type SimRequest, type SimRoute } from '../types.js';
import { accessListEntry, hashPassword, newObjectId, timestamp } from '../values.js';
import {
  callerOf,
  findOrg,
  findProject,
  GRANTS,
  grants,
  hasGlobalRole,
  isMember,
  requireProjectRole,
  scopeOf,
  unauthorized,
} from './access.js';
import { audit, compact, link, REL_BASE, selfLinks } from './render.js';
import {
  badRequest,
  findById,
  invalidAttribute,
  invalidEnum,
  invalidJsonAttribute,
  invalidQuery,
  isObjectId,
  missingAttribute,
  parseBody,
} from './validate.js';

// ---------------------------------------------------------------------------------------------------------
// Rendering

function renderUser(req: SimRequest, u: UserRec): Record<string, unknown> {
  return compact({
    id: u.id,
    username: u.username,
    emailAddress: u.emailAddress,
    firstName: u.firstName,
    lastName: u.lastName,
    mobileNumber: u.mobileNumber,
    roles: u.roles.map((r) => ({ ...r })),
    teamIds: [...u.teamIds],
    links: [link(req, `/users/${u.id}`), link(req, `/users/${u.id}/accessList`, `${REL_BASE}accessList`)],
  });
}

function renderAccessListEntry(
  req: SimRequest,
  userId: string,
  e: AccessListEntryRec,
): Record<string, unknown> {
  return compact({
    cidrBlock: e.cidrBlock,
    ipAddress: e.ipAddress,
    created: e.created,
    lastUsed: e.lastUsed,
    lastUsedAddress: e.lastUsedAddress,
    count: e.count,
    links: selfLinks(
      req,
      `/users/${userId}/accessList/${encodeURIComponent(e.ipAddress ?? e.cidrBlock ?? '')}`,
    ),
  });
}

// ---------------------------------------------------------------------------------------------------------
// Field validation

const LOOSE_EMAIL = /^[^@\s]+@[^@\s]*\.[^@\s]+$/;
const STRICT_EMAIL =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

function checkUsername(ctx: SimContext, username: string): void {
  const mode = ctx.options.usernameValidation;
  const ok =
    username.trim() !== '' &&
    (mode === 'false' || (mode === 'loose' ? /@.*\./.test(username) : STRICT_EMAIL.test(username)));
  if (!ok) {
    throw badRequest(
      'INVALID_USERNAME',
      mode === 'false'
        ? 'The username must not be empty.'
        : `The username ${username} is not a valid email address (${mode} validation).`,
      [username],
    );
  }
}

function checkEmail(email: string): void {
  if (!LOOSE_EMAIL.test(email)) {
    throw badRequest('INVALID_EMAIL_ADDRESS', `The email address ${email} is not valid.`, [email]);
  }
}

/** At least 8 characters with a letter, a digit and a special character. */
function checkPassword(password: string): void {
  if (
    password.length < 8 ||
    !/[A-Za-z]/.test(password) ||
    !/\d/.test(password) ||
    !/[^A-Za-z0-9]/.test(password)
  ) {
    throw badRequest(
      'WEAK_PASSWORD',
      'The password must be at least 8 characters long and contain a letter, a digit and a special character.',
    );
  }
}

function checkUnique(ctx: SimContext, username: string): void {
  if (ctx.store.data.users.some((u) => u.username.toLowerCase() === username.toLowerCase())) {
    throw new SimError(409, 'USER_ALREADY_EXISTS', `A user with username ${username} already exists.`, [
      username,
    ]);
  }
}

const sameRole = (a: RoleAssignment, b: RoleAssignment): boolean =>
  a.roleName === b.roleName && a.orgId === b.orgId && a.groupId === b.groupId;

/** Validates role assignment objects: names, the ids each scope needs or must not have, and that ids exist. */
function parseRoles(ctx: SimContext, input: Record<string, unknown>[]): RoleAssignment[] {
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

const isUserAdmin = (caller: Caller): boolean =>
  hasGlobalRole(caller.key.roles, ['GLOBAL_OWNER', 'GLOBAL_USER_ADMIN']);

/** Whether the caller administers the scope (organization or project) a role belongs to. */
function administers(ctx: SimContext, caller: Caller, role: RoleAssignment): boolean {
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
function checkCanAdd(ctx: SimContext, caller: Caller, role: RoleAssignment): void {
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

function checkCanRemove(ctx: SimContext, caller: Caller, role: RoleAssignment, ownAccount: boolean): void {
  if (ownAccount) return;
  if (scopeOf(role.roleName) === 'global' ? !isUserAdmin(caller) : !administers(ctx, caller, role)) {
    throw unauthorized();
  }
}

/** A user must not lose the last GLOBAL_OWNER, ORG_OWNER of an organization or GROUP_OWNER of a project. */
function checkLastOwners(ctx: SimContext, target: UserRec, removed: RoleAssignment[]): void {
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
function splitInvites(
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

function recordInvites(req: SimRequest, ctx: SimContext, user: UserRec, invited: RoleAssignment[]): void {
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

// ---------------------------------------------------------------------------------------------------------
// Keys of the first user: 6 alphanumeric public, 31 alphanumeric-and-dash private (spec).

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const randomChars = (n: number): string =>
  Array.from({ length: n }, () => ALNUM[randomInt(ALNUM.length)]).join('');

function firstKeyPair(): { publicKey: string; privateKey: string } {
  const p = randomChars(27);
  return {
    publicKey: randomChars(6),
    privateKey: `${p.slice(0, 8)}-${p.slice(8, 12)}-${p.slice(12, 16)}-${p.slice(16, 20)}-${p.slice(20)}`,
  };
}

function accessListFromQuery(req: SimRequest, now: Date): AccessListEntryRec[] {
  // `whitelist` is the parameter's former name; both are accepted.
  const values = [...req.query.getAll('accessList'), ...req.query.getAll('whitelist')];
  const entries: AccessListEntryRec[] = [];
  for (const value of values) {
    const entry = accessListEntry(value.trim(), now);
    if (entry === undefined) throw invalidQuery('accessList', value, 'expected an IP address or CIDR block');
    if (!entries.some((e) => e.cidrBlock === entry.cidrBlock)) entries.push(entry);
  }
  return entries;
}

function findUser(ctx: SimContext, userId: string): UserRec {
  return findById(userId, (id) => ctx.store.user(id), {
    invalid: 'INVALID_USER_ID',
    notFound: 'USER_NOT_FOUND',
    what: 'user',
  });
}

function newUser(
  ctx: SimContext,
  fields: {
    username: string;
    password: string;
    firstName: string;
    lastName: string;
    emailAddress?: string;
    mobileNumber?: string;
  },
): UserRec {
  const user: UserRec = compact({
    id: newObjectId(),
    username: fields.username,
    passwordHash: hashPassword(fields.password),
    emailAddress: fields.emailAddress,
    mobileNumber: fields.mobileNumber,
    firstName: fields.firstName,
    lastName: fields.lastName,
    roles: [],
    pendingRoles: [],
    teamIds: [],
    accessList: [],
    created: timestamp(ctx.now()),
  });
  return user;
}

// ---------------------------------------------------------------------------------------------------------

export const userRoutes: SimRoute[] = [
  {
    method: 'POST',
    path: '/unauth/users',
    auth: 'none',
    mutates: true,
    handle(req, ctx) {
      const body = parseBody(req.body, {
        username: { kind: 'string', required: true },
        password: { kind: 'string', required: true },
        emailAddress: { kind: 'string' },
        mobileNumber: { kind: 'string' },
        firstName: { kind: 'string', required: true },
        lastName: { kind: 'string', required: true },
        roles: { kind: 'objects' },
      });
      checkUsername(ctx, body.username);
      const emailAddress = body.emailAddress ?? (LOOSE_EMAIL.test(body.username) ? body.username : undefined);
      if (emailAddress === undefined) throw missingAttribute('emailAddress');
      checkEmail(emailAddress);
      checkPassword(body.password);
      const roles = parseRoles(ctx, body.roles ?? []);
      const accessList = accessListFromQuery(req, ctx.now());
      checkUnique(ctx, body.username);

      const first = ctx.store.data.users.length === 0;
      const user = newUser(ctx, { ...body, emailAddress });
      user.accessList = accessList;
      if (first && !roles.some((r) => r.roleName === 'GLOBAL_OWNER'))
        roles.unshift({ roleName: 'GLOBAL_OWNER' });
      const { direct, invited } = splitInvites(ctx, user, roles);
      user.roles = direct;
      user.pendingRoles = invited;
      ctx.store.data.users.push(user);
      audit(req, ctx, { eventTypeName: 'USER_CREATED_AUDIT', targetUsername: user.username }, user);

      const answer: Record<string, unknown> = { user: renderUser(req, user) };
      if (first) {
        const pair = firstKeyPair();
        const key = {
          id: newObjectId(),
          ...pair,
          desc: 'Programmatic API key of the first user',
          roles: [{ roleName: 'GLOBAL_OWNER' }],
          userId: user.id,
          created: timestamp(ctx.now()),
        };
        ctx.store.data.apiKeys.push(key);
        audit(req, ctx, { eventTypeName: 'API_KEY_CREATED', targetPublicKey: key.publicKey }, user);
        answer.programmaticApiKey = {
          desc: key.desc,
          id: key.id,
          links: selfLinks(req, `/users/${user.id}/apiKeys/${key.id}`),
          privateKey: key.privateKey,
          publicKey: key.publicKey,
          roles: key.roles.map((r) => ({ ...r })),
        };
      }
      return { status: 201, body: answer };
    },
  },
  {
    method: 'POST',
    path: '/users',
    mutates: true,
    handle(req, ctx) {
      const caller = callerOf(req);
      const canAdminister =
        isUserAdmin(caller) ||
        caller.key.roles.some((r) => ['ORG_OWNER', 'GROUP_OWNER', 'GROUP_USER_ADMIN'].includes(r.roleName));
      if (!canAdminister) throw unauthorized();
      const body = parseBody(req.body, {
        username: { kind: 'string', required: true },
        password: { kind: 'string', required: true },
        emailAddress: { kind: 'string', required: true },
        mobileNumber: { kind: 'string', required: true },
        firstName: { kind: 'string', required: true },
        lastName: { kind: 'string', required: true },
        roles: { kind: 'objects', required: true },
      });
      checkUsername(ctx, body.username);
      checkEmail(body.emailAddress);
      checkPassword(body.password);
      const roles = parseRoles(ctx, body.roles);
      for (const role of roles) checkCanAdd(ctx, caller, role);
      checkUnique(ctx, body.username);

      const user = newUser(ctx, body);
      const { direct, invited } = splitInvites(ctx, user, roles);
      user.roles = direct;
      user.pendingRoles = invited;
      ctx.store.data.users.push(user);
      audit(req, ctx, { eventTypeName: 'USER_CREATED_AUDIT', targetUsername: user.username });
      for (const role of direct) {
        if (role.groupId !== undefined) {
          audit(req, ctx, {
            eventTypeName: 'JOINED_GROUP',
            groupId: role.groupId,
            targetUsername: user.username,
          });
        } else if (role.orgId !== undefined) {
          audit(req, ctx, { eventTypeName: 'JOINED_ORG', orgId: role.orgId, targetUsername: user.username });
        }
      }
      recordInvites(req, ctx, user, invited);
      return { status: 201, body: renderUser(req, user) };
    },
  },
  {
    method: 'PATCH',
    path: '/users/:userId',
    mutates: true,
    handle(req, ctx) {
      const caller = callerOf(req);
      const target = findUser(ctx, req.params.userId ?? '');
      const ownAccount = caller.key.userId === target.id;
      const body = parseBody(req.body, { roles: { kind: 'objects', required: true } });
      const wanted = parseRoles(ctx, body.roles);

      // Owners of an organization or project may update its members; anyone may update their own account.
      const member = [...target.roles, ...target.pendingRoles].some((r) => administers(ctx, caller, r));
      if (!ownAccount && !isUserAdmin(caller) && !member) throw unauthorized();

      const removed = target.roles.filter((r) => !wanted.some((w) => sameRole(w, r)));
      const added = wanted.filter((w) => !target.roles.some((r) => sameRole(r, w)));
      const alreadyInvited = added.filter((w) => target.pendingRoles.some((p) => sameRole(p, w)));
      const newlyAdded = added.filter((w) => !alreadyInvited.includes(w));
      const droppedInvites = target.pendingRoles.filter((p) => !wanted.some((w) => sameRole(w, p)));
      for (const role of removed) checkCanRemove(ctx, caller, role, ownAccount);
      for (const role of droppedInvites) checkCanRemove(ctx, caller, role, ownAccount);
      for (const role of newlyAdded) checkCanAdd(ctx, caller, role);
      checkLastOwners(ctx, target, removed);

      const { direct, invited } = splitInvites(ctx, target, newlyAdded);
      target.roles = [...target.roles.filter((r) => !removed.includes(r)), ...direct];
      target.pendingRoles = [...target.pendingRoles.filter((p) => !droppedInvites.includes(p)), ...invited];

      if (removed.length > 0 || direct.length > 0) {
        const changedProjects = new Set(
          [...removed, ...direct].flatMap((r) => (r.groupId === undefined ? [] : [r.groupId])),
        );
        for (const groupId of changedProjects) {
          audit(req, ctx, {
            eventTypeName: 'USER_ROLES_CHANGED_AUDIT',
            groupId,
            targetUsername: target.username,
          });
        }
        audit(req, ctx, { eventTypeName: 'USER_ROLES_CHANGED_AUDIT', targetUsername: target.username });
      }
      recordInvites(req, ctx, target, invited);
      return { status: 200, body: renderUser(req, target) };
    },
  },
  {
    method: 'GET',
    path: '/users/:userId/accessList',
    handle(req, ctx) {
      const caller = callerOf(req);
      const userId = req.params.userId ?? '';
      if (!isObjectId(userId)) findUser(ctx, userId);
      if (caller.key.userId !== userId && !hasGlobalRole(caller.key.roles, ['GLOBAL_OWNER'])) {
        throw new SimError(
          401,
          'ACCESS_LIST_ACCESS_DENIED',
          'Only the current user can read their own access list.',
          [userId],
        );
      }
      const user = findUser(ctx, userId);
      return { status: 200, list: user.accessList.map((e) => renderAccessListEntry(req, user.id, e)) };
    },
  },
  {
    method: 'GET',
    path: '/users/:userId',
    beyondSpec: true,
    handle(req, ctx) {
      const user = findUser(ctx, req.params.userId ?? '');
      if (!visibleTo(req, ctx, user)) throw unauthorized();
      return { status: 200, body: renderUser(req, user) };
    },
  },
  {
    // The field's lookup by login name (beyond the spec).
    method: 'GET',
    path: '/users/byName/:userName',
    beyondSpec: true,
    handle(req, ctx) {
      const name = req.params.userName ?? '';
      const user = ctx.store.data.users.find((u) => u.username === name);
      if (!user) throw new SimError(404, 'USER_NOT_FOUND', `No user with username ${name} exists.`, [name]);
      if (!visibleTo(req, ctx, user)) throw unauthorized();
      return { status: 200, body: renderUser(req, user) };
    },
  },
  {
    // The members of a project (beyond the spec): users with a role in it, for any member of the project.
    method: 'GET',
    path: '/groups/:projectId/users',
    beyondSpec: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      const members = ctx.store.data.users.filter((u) => u.roles.some((r) => r.groupId === project.id));
      return { status: 200, list: members.map((u) => renderUser(req, u)) };
    },
  },
];

/** A user is visible to themselves, to global roles, and to members of a project or organization they are in. */
function visibleTo(req: SimRequest, ctx: SimContext, user: UserRec): boolean {
  const caller = callerOf(req);
  const roles = caller.key.roles;
  return (
    caller.key.userId === user.id ||
    hasGlobalRole(roles, ROLE_NAMES) ||
    user.roles.some((r) => {
      if (r.groupId !== undefined) {
        const project = ctx.store.project(r.groupId);
        return project !== undefined && isMember(roles, project);
      }
      return r.orgId !== undefined && roles.some((c) => c.orgId === r.orgId);
    })
  );
}
