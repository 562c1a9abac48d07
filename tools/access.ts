// The access toolset: people and keys — users, roles, access lists, API keys, the first user.
import { z } from 'zod';
import { findPeople } from '../src/feeds/people.js';
import { listAnswer } from '../src/format/answers.js';
import {
  accessList,
  createUserPreview,
  rolesPreview,
  rolesUpdatedAnswer,
  userCreatedAnswer,
} from '../src/format/views/access.js';
import {
  firstUserAnswer,
  firstUserPreview,
  orgKeyAnswer,
  orgKeyPreview,
  projectKeyAnswer,
  projectKeyPreview,
} from '../src/format/views/access-keys.js';
import { foundAnswer } from '../src/format/views/access-people.js';
import { generatePassword, keepKey } from '../src/policy/secrets.js';
import { idFrom, ids, page, text, upTo } from '../src/tool/ids.js';
import {
  defineTool,
  type FormatContext,
  listOutput,
  pageQuery,
  recordOutput,
  ToolInputError,
} from '../src/tool/index.js';
import { checkRoles, resolveRoles, withProjectIds } from '../src/tool/roles.js';
import { GLOBAL_ROLES, ORG_ROLES, PROJECT_ROLES } from '../src/vocabulary/index.js';

const name = (field: string, description: string) => text(field, 100).describe(description);

const username = name('username', 'Login name; some servers require an email');

const password = text('password', 256, 8).describe('At least 8 characters; never shown or logged');

// The same checks as z.ipv4()/z.ipv6(), without their long patterns in the JSON Schema.
const ip = z.union([z.ipv4(), z.ipv6()]);

const role = z.strictObject({
  roleName: z
    .enum([...ORG_ROLES, ...PROJECT_ROLES, ...GLOBAL_ROLES])
    .describe('ORG_* needs orgId, GROUP_* needs groupId, GLOBAL_* neither'),
  // The scope rule is said once, on roleName.
  orgId: idFrom('Organization id', 'Organization').optional(),
  groupId: text('groupId', 200).optional().describe('Project id or name'),
});

export const createFirstUser = defineTool({
  name: 'create_first_user',
  title: 'Create the first user',
  toolset: 'access',
  example: { username: 'root@example.com', password: 'F1rst!owner', firstName: 'Ro', lastName: 'Ot' },
  description:
    "Creates a fresh installation's first user and its GLOBAL_OWNER key, kept in a file (no API key needed). Use once at setup.",
  // Grants GLOBAL_OWNER on a fresh installation: a grant of access, whatever the verb.
  kind: 'destructive',
  checkWith: 'list_global_events',
  input: {
    username,
    password,
    firstName: name('firstName', 'First name'),
    lastName: name('lastName', 'Last name'),
    emailAddress: text('emailAddress', 320, 0).optional().describe('Not needed when username is an email'),
    accessList: upTo(
      z.string().refine((s) => ip.safeParse(s).success, 'accessList holds IPv4 or IPv6 addresses'),
      50,
      'accessList',
    )
      .optional()
      .describe('IPv4 or IPv6 addresses allowed to use the new API key'),
  },
  output: { user: z.looseObject({}), programmaticApiKey: z.looseObject({}).optional() },
  preview: async (_ctx, args) => firstUserPreview(args),
  run: async (ctx, args) => {
    const { accessList, ...body } = args;
    const r = await ctx.api.users.createFirst(body, { accessList }, ctx.req);
    // Older servers send the key as `apiKey` (a bare string) instead of `programmaticApiKey`.
    const legacy = r.apiKey;
    const key = r.programmaticApiKey ?? (typeof legacy === 'object' ? legacy : undefined);
    if (key) return { user: r.user, key: await keepKey(ctx.secrets, key) };
    if (typeof legacy === 'string' && legacy)
      return {
        user: r.user,
        key: await keepKey(ctx.secrets, { privateKey: legacy }, { label: `user-${r.user.id}-apiKey` }),
      };
    return { user: r.user, key: undefined };
  },
  format: (r, _args, f) => firstUserAnswer(r, f),
});

export const createUser = defineTool({
  name: 'create_user',
  title: 'Create a user',
  toolset: 'access',
  example: {
    username: 'new.person@example.com',
    password: 'Str0ng!pass-word',
    emailAddress: 'new.person@example.com',
    mobileNumber: '+15555550199',
    firstName: 'New',
    lastName: 'Person',
    roles: [{ groupId: '09c5e5335e3468205c5422b1', roleName: 'GROUP_READ_ONLY' }],
  },
  description:
    'Creates a user with organization or project roles (sent as invitations). Use to add someone; fresh installation: create_first_user.',
  // A new account is a grant of access (with roles or without), so it needs consent like a role change.
  kind: 'destructive',
  checkWith: 'list_global_events',
  input: {
    username,
    password: password.optional().describe('Leave out: a strong one is generated into a 0600 file'),
    emailAddress: text('emailAddress', 320, 3).describe('Email address'),
    mobileNumber: text('mobileNumber', 40).describe('Mobile number, e.g. "+1 555 0100"'),
    firstName: name('firstName', 'First name'),
    lastName: name('lastName', 'Last name'),
    roles: upTo(role, 100, 'roles').describe('Roles to give'),
  },
  output: recordOutput,
  check: (args) => checkRoles(args.roles),
  preview: async (ctx, args) => {
    const roles = await withProjectIds(ctx, args.roles);
    await ctx.names.learnRoles(roles, ctx.signal);
    return createUserPreview(args, roles, ctx.names.project, ctx.names.org);
  },
  run: async (ctx, given) => {
    const args = { ...given, roles: await withProjectIds(ctx, given.roles) };
    await ctx.names.learnRoles(args.roles, ctx.signal);
    if (args.password)
      return {
        user: await ctx.api.users.create({ ...args, password: args.password }, ctx.req),
        asked: args.roles,
      };
    // Written before the user exists: a user whose password nobody has is never created.
    const generated = generatePassword();
    const kept = await ctx.secrets.keep(`user-${args.username}-password`, generated, true);
    const user = await ctx.api.users.create({ ...args, password: generated }, ctx.req);
    return { user, passwordFile: kept.path, asked: args.roles };
  },
  format: (r, _args, f) => userCreatedAnswer(r, f),
});

export const updateUserRoles = defineTool({
  name: 'update_user_roles',
  title: "Change a user's roles",
  toolset: 'access',
  example: {
    userId: 'e4967f438ba426f40fb44933',
    mode: 'add',
    // A project's name is taken for groupId and resolved before the preview.
    roles: [{ groupId: 'payments-prod', roleName: 'GROUP_READ_ONLY' }],
  },
  description:
    "Grants (add), revokes (remove) or sets (replace) a user's roles; add and remove keep the others. Use for access.",
  kind: 'destructive',
  idempotent: true,
  checkWith: 'list_global_events',
  input: {
    userId: ids.user,
    mode: z.enum(['add', 'remove', 'replace']).describe('add, remove, replace'),
    roles: upTo(role, 100, 'roles').describe('Roles (see mode)'),
  },
  output: recordOutput,
  check: (args) => checkRoles(args.roles),
  preview: async (ctx, args) => {
    const change = await resolveRoles(ctx, args);
    await ctx.names.learnRoles([...(change.before ?? []), ...change.next], ctx.signal);
    return rolesPreview(change, ctx.names.project, ctx.names.org);
  },
  run: async (ctx, args) => {
    // Resolved again at the moment of the change: the set sent is what the preview described, applied to the
    // roles the user has now.
    const { next, asked } = await resolveRoles(ctx, args);
    const user = await ctx.api.users.updateRoles(args.userId, next, ctx.req);
    await ctx.names.learnRoles([...(user.roles ?? []), ...asked], ctx.signal);
    return { user, asked };
  },
  format: ({ user: u, asked }, args, f) => rolesUpdatedAnswer(u, asked, args.userId, f),
});

export const getUserAccessList = defineTool({
  name: 'get_user_access_list',
  title: "Get a user's IP access list",
  toolset: 'access',
  example: { userId: 'e4967f438ba426f40fb44933' },
  description:
    "IP ranges allowed for the calling key's own user. Use when calls fail with IP_ADDRESS_NOT_ON_ACCESS_LIST.",
  kind: 'read',
  input: { userId: ids.user, ...page },
  output: listOutput,
  run: async (ctx, args) =>
    (
      await Promise.all([
        ctx.api.users.accessList(args.userId, pageQuery(args), ctx.req),
        ctx.names.learnUser(args.userId, ctx.signal),
      ])
    )[0],
  format: (result, args, f: FormatContext) =>
    listAnswer(
      result,
      pageQuery(args),
      {
        title: `Access list of user ${f.names.user(args.userId)}`,
        ...accessList,
        empty: 'This user has no access list entries.',
      },
      f,
    ),
});

/** How many of query, username and userId a find_user call gives. */
const named = (args: { query?: unknown; username?: unknown; userId?: unknown }) =>
  [args.query, args.username, args.userId].filter((v) => v !== undefined).length;

export const findUser = defineTool({
  name: 'find_user',
  title: 'Find a user',
  toolset: 'access',
  example: { query: 'priya' },
  description:
    "Finds people by part of a name, username or email (query), by username or userId, or a project's members, with roles. Use before update_user_roles.",
  kind: 'read',
  input: {
    query: text('query', 100).optional().describe('Part of a name, username or email'),
    username: text('username', 320).optional().describe('Exact login name'),
    userId: ids.user.optional(),
    projectId: ids.project.optional(),
  },
  output: listOutput,
  // A project's members are listed only when no person is named: then DBOPS_PROJECT_ID may fill projectId.
  needsProject: (args) => named(args) === 0,
  check: (args) => {
    const given = named(args);
    if (given > 1) throw new ToolInputError('Give one of query, username, userId or projectId, not several.');
    if (given === 0 && args.projectId === undefined)
      throw new ToolInputError('Give one of query (part of a name), username, userId or projectId.');
  },
  run: (ctx, args) => findPeople(ctx, args),
  // Without a query, username or userId, the project's members are listed.
  format: (r, args, f) => foundAnswer(r, named(args) === 0 ? (args.projectId as string) : undefined, f),
});

const desc = text('desc', 250).describe('What it is for and who holds it');

export const createOrgApiKey = defineTool({
  name: 'create_org_api_key',
  title: 'Create an organization API key',
  toolset: 'access',
  example: { desc: 'CI key', roles: ['ORG_MEMBER'] },
  description:
    'Mints an organization API key with organization roles; its private key goes to a file. Use only when asked; one project: create_project_api_key.',
  kind: 'destructive',
  checkWith: 'list_global_events',
  input: {
    orgId: ids.org.optional(),
    desc,
    roles: upTo(z.enum(ORG_ROLES), 4, 'roles').min(1).describe('Roles of the key'),
  },
  output: recordOutput,
  preview: async (ctx, args) => {
    await ctx.names.learnOrgs([args.orgId], ctx.signal);
    return orgKeyPreview(args, ctx.names.org);
  },
  run: async (ctx, args) => {
    const key = await ctx.api.apiKeys.createForOrg(
      args.orgId,
      { desc: args.desc, roles: args.roles },
      ctx.req,
    );
    await ctx.names.learnOrgs([args.orgId], ctx.signal);
    return keepKey(ctx.secrets, key);
  },
  format: (key, args, f) => orgKeyAnswer(key, args.orgId, f),
});

export const createProjectApiKey = defineTool({
  name: 'create_project_api_key',
  title: 'Create a project API key',
  toolset: 'access',
  example: { desc: 'CI key', roles: ['GROUP_READ_ONLY'] },
  description:
    'Mints an API key for one project, with project roles; its private key goes to a file. Use only when asked for a project key.',
  kind: 'destructive',
  checkWith: 'list_project_events',
  input: {
    projectId: ids.project.optional(),
    desc: desc.optional(),
    roles: upTo(z.enum(PROJECT_ROLES), 9, 'roles')
      .min(1)
      .optional()
      .describe('Roles of the key; give desc, roles or both'),
  },
  output: recordOutput,
  check: checkProjectKey,
  preview: async (ctx, args) => projectKeyPreview(args, ctx.names.project),
  run: async (ctx, args) => {
    const body = { desc: args.desc, roles: args.roles };
    return keepKey(ctx.secrets, await ctx.api.apiKeys.createForProject(args.projectId, body, ctx.req));
  },
  format: (key, args, f) => projectKeyAnswer(key, args.projectId, f),
});

function checkProjectKey(args: { desc?: string; roles?: string[] }): void {
  if (args.desc === undefined && args.roles === undefined)
    throw new ToolInputError('Give desc, roles or both for the new project API key.');
}

/** This set's tools, in the order tools/list shows them. */
export const tools = [
  createFirstUser,
  createUser,
  updateUserRoles,
  getUserAccessList,
  findUser,
  createOrgApiKey,
  createProjectApiKey,
];
