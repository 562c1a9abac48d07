// Users: creating the first and further users, changing a user's roles (shown as a diff first), and reading
// a user's IP access list. Passwords are inputs only: never echoed, logged (the audit log masks them) or shown.
import { z } from 'zod';
import { ifSupported } from '../src/api/capabilities.js';
import type { Page, RoleAssignment, User } from '../src/api/client.js';
import { listAnswer, recordAnswer } from '../src/format/answers.js';
import { fields } from '../src/format/markdown.js';
import { redact } from '../src/format/redact.js';
import { cell, named } from '../src/format/untrusted.js';
import { keyNote, roleLabel, shownKey } from '../src/format/views/keys.js';
import { accessList, personName, userList, userPairs } from '../src/format/views/users.js';
import { GLOBAL_ROLES, ORG_ROLES, PROJECT_ROLES } from '../src/platform/index.js';
import { generatePassword, keepKey } from '../src/policy/secrets.js';
import { idFrom, ids, page, text, upTo } from '../src/tool/ids.js';
import {
  defineTool,
  type FormatContext,
  listOutput,
  pageQuery,
  recordOutput,
  type ToolAnswer,
  type ToolContext,
  ToolInputError,
} from '../src/tool/index.js';

const name = (field: string, description: string) => text(field, 100).describe(description);
const username = name('username', 'Login name; some servers require an email');
const password = text('password', 256, 8).describe('At least 8 characters; never shown or logged');
// The same checks as z.ipv4()/z.ipv6(), without their long patterns in the JSON Schema.
const ip = z.union([z.ipv4(), z.ipv6()]);

const role = z.strictObject({
  roleName: z
    .enum([...ORG_ROLES, ...PROJECT_ROLES, ...GLOBAL_ROLES])
    .describe('ORG_* needs orgId, GROUP_* needs groupId, GLOBAL_* neither'),
  orgId: idFrom('Organization id', 'For ORG_* roles').optional(),
  groupId: idFrom('Project id', 'For GROUP_* roles').optional(),
});

/** The scope rules the platform enforces (ROLE_NEEDS_GROUP_ID …), checked first so the message names the role. */
function checkRoles(roles: RoleAssignment[]): void {
  for (const r of roles) {
    const scope = r.roleName.split('_')[0];
    if (scope === 'GLOBAL' && (r.orgId || r.groupId))
      throw new ToolInputError(`${r.roleName} is global: give it without orgId or groupId.`);
    if (scope === 'GROUP' && (!r.groupId || r.orgId))
      throw new ToolInputError(`${r.roleName} is a project role: give it with groupId (and no orgId).`);
    if (scope === 'ORG' && (!r.orgId || r.groupId))
      throw new ToolInputError(`${r.roleName} is an organization role: give it with orgId (and no groupId).`);
  }
}

const invitationNote =
  'New organization and project roles are sent to the user as an invitation first; they apply once accepted (unless the platform bypasses invitations for existing users). Global roles apply at once.';

export const createFirstUser = defineTool({
  name: 'create_first_user',
  title: 'Create the first user',
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
  preview: async (_ctx, args) => ({
    action: `Create user ${args.username} through the unauthenticated first-user endpoint`,
    target: { username: args.username },
    changes: [
      { field: 'name', to: `${args.firstName} ${args.lastName}` },
      ...(args.emailAddress ? [{ field: 'emailAddress', to: args.emailAddress }] : []),
      ...(args.accessList ? [{ field: 'accessList', to: args.accessList.join(', ') }] : []),
    ],
    notes: [
      "On a fresh installation this user and a new API key get GLOBAL_OWNER; the key's private half goes to a 0600 file, not the chat.",
      'Later users created this way get no key and no global role.',
    ],
  }),
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
  format: (r, _args, f) => {
    const user = redact(r.user);
    const key = r.key && shownKey(r.key);
    const lines = [
      `# User ${cell(user.id, 40)} created`,
      f.fence.notice,
      f.fence.wrap(fields(userPairs(user))),
    ];
    if (key?.legacy) {
      // Older servers send the key as one string: there is no public key or role to show.
      lines.push(
        '### API key',
        'The server sent the key in its older form: one string, without a public key or roles.',
        keyNote(key),
        `**Key**: ${cell(key.privateKey, 100)}`,
      );
    } else if (key) {
      lines.push(
        '### API key',
        f.fence.wrap(
          fields([
            ['Public key', key.publicKey],
            ['Roles', (key.roles ?? []).map((r) => roleLabel(r))],
          ]),
        ),
        keyNote(key),
        `**Private key**: ${cell(key.privateKey, 100)}`,
      );
    } else lines.push('No API key was created (only the very first user gets one).');
    return { text: lines.join('\n'), structured: { user, ...(key ? { programmaticApiKey: key } : {}) } };
  },
});

export const createUser = defineTool({
  name: 'create_user',
  title: 'Create a user',
  description:
    'Creates a user with organization or project roles (sent as invitations). Use to add someone; on a fresh installation use create_first_user.',
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
  preview: async (_ctx, args) => {
    return {
      action: `Create user ${args.username}`,
      target: { username: args.username },
      changes: [
        { field: 'name', to: `${args.firstName} ${args.lastName}` },
        { field: 'emailAddress', to: args.emailAddress },
        { field: 'roles', to: args.roles.map((r) => roleLabel(r)).join('; ') || '(none)' },
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
  },
  run: async (ctx, args) => {
    if (args.password)
      return { user: await ctx.api.users.create({ ...args, password: args.password }, ctx.req) };
    // Written before the user exists: a user whose password nobody has is never created.
    const generated = generatePassword();
    const kept = await ctx.secrets.keep(`user-${args.username}-password`, generated, true);
    const user = await ctx.api.users.create({ ...args, password: generated }, ctx.req);
    return { user, passwordFile: kept.path };
  },
  format: (r, args, f) => {
    const answer = withPending(
      recordAnswer(`User ${cell(r.user.id, 40)} created`, r.user, userPairs, f),
      args.roles,
      r.user,
    );
    if (r.passwordFile)
      answer.text += `\nThe generated password is in ${r.passwordFile} (readable by the server's user only); hand it to the person through a safe channel.`;
    return answer;
  },
});

/** Roles asked for but absent from the answer wait for the user to accept an invitation: say so. */
function withPending(answer: ToolAnswer, asked: RoleAssignment[], u: User): ToolAnswer {
  const has = (u.roles ?? []).map((r) => roleLabel(r));
  const pending = asked.map((r) => roleLabel(r)).filter((r) => !has.includes(r));
  if (pending.length) answer.text += `\nInvited, applies once the user accepts: ${pending.join('; ')}.`;
  return answer;
}

/** One role's identity: its name and where it applies. */
const roleKey = (r: RoleAssignment) => `${r.roleName}|${r.groupId ?? ''}|${r.orgId ?? ''}`;
const OWNER_ROLES = new Set(['GLOBAL_OWNER', 'ORG_OWNER', 'GROUP_OWNER']);

type RolesArgs = { userId: string; mode: 'add' | 'remove' | 'replace'; roles: RoleAssignment[] };

/**
 * The complete set to send, from the mode: add and remove start from the roles the user has now, so nothing
 * the person did not mention changes. Without the current roles only replace can be done.
 */
async function resolveRoles(ctx: ToolContext, args: RolesArgs) {
  const u: User | undefined = await ifSupported(ctx.api, 'user', () =>
    ctx.api.users.get(args.userId, ctx.req),
  );
  const before: RoleAssignment[] | undefined = u ? (u.roles ?? []) : undefined;
  if (!before && args.mode !== 'replace')
    throw new ToolInputError(
      `The current roles of user ${args.userId} cannot be read on this server, so mode ${args.mode} cannot keep the others; use mode replace with the complete new set.`,
    );
  const given = new Set(args.roles.map(roleKey));
  const next =
    args.mode === 'replace'
      ? args.roles
      : args.mode === 'add'
        ? [
            ...(before ?? []),
            ...args.roles.filter((r) => !(before ?? []).some((b) => roleKey(b) === roleKey(r))),
          ]
        : (before ?? []).filter((b) => !given.has(roleKey(b)));
  return { user: u, before, next };
}

/** What the person must see before a change of access, outside the data fence: gains, losses and risks. */
function accessNotes(
  before: RoleAssignment[],
  next: RoleAssignment[],
  mode: RolesArgs['mode'],
  asked: RoleAssignment[],
  project: (id: string) => string,
) {
  const label = (r: RoleAssignment) => roleLabel(r, project);
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

export const updateUserRoles = defineTool({
  name: 'update_user_roles',
  title: "Change a user's roles",
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
    const { user: u, before, next } = await resolveRoles(ctx, args);
    await ctx.names.learnProjects(
      [...(before ?? []), ...next].flatMap((r) => (r.groupId ? [r.groupId] : [])),
      ctx.signal,
    );
    const label = (r: RoleAssignment) => roleLabel(r, ctx.names.project);
    const { gained, lost, notes } = before
      ? accessNotes(before, next, args.mode, args.roles, ctx.names.project)
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
      action: `Change the roles of user ${named(u && personName(u), args.userId)} (mode ${args.mode})`,
      target: { userId: args.userId },
      current: u ? { username: u.username, roles: before?.map(label).join('; ') || '(none)' } : undefined,
      changes: [
        { field: 'roles added', to: gained.map(label).join('; ') || '(none)' },
        ...(before ? [{ field: 'roles removed', from: lost.map(label).join('; ') || '(none)' }] : []),
      ],
      notes,
    };
  },
  run: async (ctx, args) => {
    // Resolved again at the moment of the change: the set sent is what the preview described, applied to the
    // roles the user has now.
    const { next } = await resolveRoles(ctx, args);
    return ctx.api.users.updateRoles(args.userId, next, ctx.req);
  },
  format: (u, args, f) =>
    withPending(
      recordAnswer(`Roles of user ${named(personName(u), args.userId)} updated`, u, userPairs, f),
      args.roles,
      u,
    ),
});

export const getUserAccessList = defineTool({
  name: 'get_user_access_list',
  title: "Get a user's IP access list",
  description:
    "Lists the IP ranges allowed for the calling key's own user. Use when calls fail with IP_ADDRESS_NOT_ON_ACCESS_LIST.",
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

/** Project names the key can see, for role labels; none (ids are shown) when they cannot be read. */
async function projectNames(ctx: ToolContext): Promise<Map<string, string>> {
  try {
    const page = await ctx.api.projects.list({ itemsPerPage: 500 }, ctx.req);
    return new Map(page.results.flatMap((p) => (p.id && p.name ? [[p.id, p.name] as [string, string]] : [])));
  } catch {
    return new Map();
  }
}

export const findUser = defineTool({
  name: 'find_user',
  title: 'Find a user',
  description:
    "Finds a person by username or userId, or a project's members, with roles by project. Use before update_user_roles.",
  kind: 'read',
  input: {
    username: text('username', 320).optional().describe('Often an email'),
    userId: ids.user.optional(),
    projectId: ids.project.optional(),
  },
  output: listOutput,
  check: (args) => {
    // projectId may come from DBOPS_PROJECT_ID: a username or userId given takes precedence over it.
    if (args.username !== undefined && args.userId !== undefined)
      throw new ToolInputError('Give one of username, userId or projectId, not several.');
    if (args.username === undefined && args.userId === undefined && args.projectId === undefined)
      throw new ToolInputError('Give exactly one of username, userId or projectId.');
  },
  run: async (ctx, args) => {
    const names = projectNames(ctx);
    const people: Page<User> =
      args.username === undefined && args.userId === undefined
        ? await ctx.api.users.ofProject(args.projectId as string, { itemsPerPage: 500 }, ctx.req)
        : {
            results: [
              args.userId
                ? await ctx.api.users.get(args.userId, ctx.req)
                : await ctx.api.users.byName(args.username as string, ctx.req),
            ],
            totalCount: 1,
            links: [],
          };
    return { people, names: await names };
  },
  format: (r, args, f) =>
    listAnswer(
      r.people,
      { pageNum: 1, itemsPerPage: Math.max(r.people.results.length, 1) },
      {
        title:
          args.username === undefined && args.userId === undefined
            ? `Members of project ${f.names.project(args.projectId)}`
            : 'User',
        ...userList(r.names),
        next: 'update_user_roles with a userId and mode add or remove to change access',
        empty: 'No user found.',
      },
      f,
    ),
});

export const userTools = [createFirstUser, createUser, updateUserRoles, getUserAccessList, findUser];
