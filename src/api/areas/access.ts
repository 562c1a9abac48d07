// The access area: organizations, API keys and users.

import type { Page, PageQuery } from '../paging.js';
import { apiPath } from '../path.js';
import {
  type AccessListEntry,
  AccessListEntrySchema,
  type ApiKey,
  ApiKeySchema,
  type FirstUser,
  FirstUserSchema,
  type Org,
  OrgSchema,
  type RoleAssignment,
  type User,
  UserSchema,
} from '../schemas.js';
import type { AreaContext, CallOptions } from './context.js';

export function orgsArea(ctx: AreaContext) {
  return {
    /** Beyond the spec (the field has it): one organization, for its name. */
    async get(orgId: string, o?: CallOptions): Promise<Org> {
      return ctx.call(OrgSchema, 'Org', { method: 'GET', path: apiPath`/orgs/${orgId}` }, o);
    },
  };
}

export function apiKeysArea(ctx: AreaContext) {
  return {
    /** Beyond the spec (the field has it): the organization's keys, private keys masked by the platform. */
    async listForOrg(orgId: string, page?: PageQuery, o?: CallOptions): Promise<Page<ApiKey>> {
      return ctx.list(ApiKeySchema, 'ApiKey', apiPath`/orgs/${orgId}/apiKeys`, page, o);
    },
    /** The answer holds the unredacted private key: handle it as a secret. */
    async createForOrg(
      orgId: string,
      body: { desc: string; roles: string[] },
      o?: CallOptions,
    ): Promise<ApiKey> {
      return ctx.call(
        ApiKeySchema,
        'ApiKey',
        { method: 'POST', path: apiPath`/orgs/${orgId}/apiKeys`, body },
        o,
      );
    },
    async createForProject(
      projectId: string,
      body: { desc?: string; roles?: string[] },
      o?: CallOptions,
    ): Promise<ApiKey> {
      const path = apiPath`/groups/${projectId}/apiKeys`;
      return ctx.call(ApiKeySchema, 'ApiKey', { method: 'POST', path, body }, o);
    },
  };
}

export interface NewFirstUser {
  username: string;
  password: string;
  firstName: string;
  lastName: string;
  emailAddress?: string;
}

export interface NewUser {
  username: string;
  password: string;
  emailAddress: string;
  mobileNumber: string;
  firstName: string;
  lastName: string;
  roles: RoleAssignment[];
}

export function usersArea(ctx: AreaContext) {
  return {
    /** Needs no API key; the first call also mints a GLOBAL_OWNER key (a secret) in the answer. */
    async createFirst(
      body: NewFirstUser,
      q: { accessList?: string[] } = {},
      o?: CallOptions,
    ): Promise<FirstUser> {
      const req = {
        method: 'POST' as const,
        path: '/unauth/users',
        query: { accessList: q.accessList },
        body,
      };
      return ctx.call(FirstUserSchema, 'FirstUser', { ...req, auth: false }, o);
    },
    async create(body: NewUser, o?: CallOptions): Promise<User> {
      return ctx.call(UserSchema, 'User', { method: 'POST', path: '/users', body }, o);
    },
    async get(userId: string, o?: CallOptions): Promise<User> {
      return ctx.call(UserSchema, 'User', { method: 'GET', path: apiPath`/users/${userId}` }, o);
    },
    /** By login name (the field's route, beyond the spec). */
    async byName(userName: string, o?: CallOptions): Promise<User> {
      return ctx.call(UserSchema, 'User', { method: 'GET', path: apiPath`/users/byName/${userName}` }, o);
    },
    /** The members of a project (the field's route, beyond the spec). */
    async ofProject(projectId: string, page?: PageQuery, o?: CallOptions): Promise<Page<User>> {
      return ctx.list(UserSchema, 'User', apiPath`/groups/${projectId}/users`, page, o);
    },
    async updateRoles(userId: string, roles: RoleAssignment[], o?: CallOptions): Promise<User> {
      return ctx.call(
        UserSchema,
        'User',
        { method: 'PATCH', path: apiPath`/users/${userId}`, body: { roles } },
        o,
      );
    },
    async accessList(userId: string, page?: PageQuery, o?: CallOptions): Promise<Page<AccessListEntry>> {
      return ctx.list(
        AccessListEntrySchema,
        'AccessListEntry',
        apiPath`/users/${userId}/accessList`,
        page,
        o,
      );
    },
  };
}
