// Users of the access area: how a user and an access list entry are drawn, the checks of a new user's fields,
// the first user's key pair, and who may see a user.

import { randomInt } from 'node:crypto';
import { ROLE_NAMES } from '../../vocabulary/index.js';
import type { AccessListEntryRec, UserRec } from '../records.js';
import { callerOf, hasGlobalRole, isMember } from '../roles.js';
import { type SimContext, SimError, type SimRequest } from '../types.js';
import { accessListEntry, hashPassword, newObjectId, timestamp } from '../values.js';
import { compact, link, REL_BASE, selfLinks } from './render.js';
import { badRequest, findById, invalidQuery } from './validate.js';

// ---------------------------------------------------------------------------------------------------------
// Rendering

export function renderUser(req: SimRequest, u: UserRec): Record<string, unknown> {
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

export function renderAccessListEntry(
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

export const LOOSE_EMAIL = /^[^@\s]+@[^@\s]*\.[^@\s]+$/;
const STRICT_EMAIL =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export function checkUsername(ctx: SimContext, username: string): void {
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

export function checkEmail(email: string): void {
  if (!LOOSE_EMAIL.test(email)) {
    throw badRequest('INVALID_EMAIL_ADDRESS', `The email address ${email} is not valid.`, [email]);
  }
}

/** At least 8 characters with a letter, a digit and a special character. */
export function checkPassword(password: string): void {
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

export function checkUnique(ctx: SimContext, username: string): void {
  if (ctx.store.data.users.some((u) => u.username.toLowerCase() === username.toLowerCase())) {
    throw new SimError(409, 'USER_ALREADY_EXISTS', `A user with username ${username} already exists.`, [
      username,
    ]);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Keys of the first user: 6 alphanumeric public, 31 alphanumeric-and-dash private (spec).

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const randomChars = (n: number): string =>
  Array.from({ length: n }, () => ALNUM[randomInt(ALNUM.length)]).join('');

export function firstKeyPair(): { publicKey: string; privateKey: string } {
  const p = randomChars(27);
  return {
    publicKey: randomChars(6),
    privateKey: `${p.slice(0, 8)}-${p.slice(8, 12)}-${p.slice(12, 16)}-${p.slice(16, 20)}-${p.slice(20)}`,
  };
}

export function accessListFromQuery(req: SimRequest, now: Date): AccessListEntryRec[] {
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

export function findUser(ctx: SimContext, userId: string): UserRec {
  return findById(userId, (id) => ctx.store.user(id), {
    invalid: 'INVALID_USER_ID',
    notFound: 'USER_NOT_FOUND',
    what: 'user',
  });
}

export function newUser(
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

/** A user is visible to themselves, to global roles, and to members of a project or organization they are in. */
export function visibleTo(req: SimRequest, ctx: SimContext, user: UserRec): boolean {
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
