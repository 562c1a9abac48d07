// The access toolset: people and keys — users, roles, access lists, API keys, the first user.
import { z } from 'zod';
import { ifSupported, isMissingEndpoint } from '../src/api/capabilities.js';
import type { Project, RoleAssignment, User } from '../src/api/client.js';
import { ApiError } from '../src/api/errors.js';
import { listAnswer, recordAnswer } from '../src/format/answers.js';
import { fields, plural } from '../src/format/markdown.js';
import { redact } from '../src/format/redact.js';
import {
  accessList,
  fullName,
  type KeptKey,
  keyNote,
  personBlock,
  personName,
  placedRole,
  type RolePlaces,
  roleLabel,
  shownKey,
  userPairs,
} from '../src/format/views/access.js';
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
import { cell, named } from '../src/untrusted.js';
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
  orgId: idFrom('Organization id', 'For ORG_* roles').optional(),
  groupId: text('groupId', 200).optional().describe('Project id or name, for GROUP_* roles'),
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

/** A project id as the platform makes them; any other groupId is taken as a project's name. */
const PROJECT_ID = /^[0-9a-f]{24}$/i;

/**
 * Roles with every groupId a project id: a name is looked up among the projects the key sees (exactly, then
 * ignoring case). An unknown name, or one that two projects share, is refused with the candidates, before
 * any preview is shown or anyone is asked; nothing is changed on a guess.
 */
async function withProjectIds(ctx: ToolContext, roles: RoleAssignment[]): Promise<RoleAssignment[]> {
  if (!roles.some((r) => r.groupId && !PROJECT_ID.test(r.groupId))) return roles;
  const projects = (await ctx.api.projects.list({ itemsPerPage: 500 }, ctx.req)).results;
  const shown = (p: Project) => `${cell(p.name, 60)} (${p.id}${p.orgId ? `, org ${p.orgId}` : ''})`;
  return roles.map((r) => {
    const given = r.groupId;
    if (!given || PROJECT_ID.test(given)) return r;
    let found = projects.filter((p) => p.name === given);
    if (found.length === 0) found = projects.filter((p) => p.name?.toLowerCase() === given.toLowerCase());
    if (found.length === 1) return { ...r, groupId: found[0]!.id };
    if (found.length > 1)
      throw new ToolInputError(
        `${found.length} projects are named "${cell(given, 60)}": ${found.map(shown).join('; ')}. Give the groupId of the one meant; nothing was changed.`,
      );
    const near = projects.filter((p) => p.name?.toLowerCase().includes(given.toLowerCase()));
    throw new ToolInputError(
      `No project named "${cell(given, 60)}" is visible to this API key; nothing was asked or changed. ${
        near.length
          ? `Similar: ${near.slice(0, 5).map(shown).join('; ')}.`
          : `Projects: ${projects.slice(0, 10).map(shown).join('; ') || 'none'}.`
      }`,
    );
  });
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
  preview: async (ctx, args) => {
    const roles = await withProjectIds(ctx, args.roles);
    return {
      action: `Create user ${args.username}`,
      target: { username: args.username },
      changes: [
        { field: 'name', to: `${args.firstName} ${args.lastName}` },
        { field: 'emailAddress', to: args.emailAddress },
        { field: 'roles', to: roles.map((r) => roleLabel(r, ctx.names.project)).join('; ') || '(none)' },
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
  run: async (ctx, given) => {
    const args = { ...given, roles: await withProjectIds(ctx, given.roles) };
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
  format: (r, _args, f) => {
    const answer = withPending(
      recordAnswer(`User ${cell(r.user.id, 40)} created`, r.user, userPairs, f),
      r.asked,
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
async function resolveRoles(ctx: ToolContext, given: RolesArgs) {
  const args = { ...given, roles: await withProjectIds(ctx, given.roles) };
  const u: User | undefined = await ifSupported(ctx.api, 'user', () =>
    ctx.api.users.get(args.userId, ctx.req),
  );
  const before: RoleAssignment[] | undefined = u ? (u.roles ?? []) : undefined;
  if (!before && args.mode !== 'replace')
    throw new ToolInputError(
      `The current roles of user ${args.userId} cannot be read on this server, so mode ${args.mode} cannot keep the others; use mode replace with the complete new set.`,
    );
  const asked = new Set(args.roles.map(roleKey));
  const next =
    args.mode === 'replace'
      ? args.roles
      : args.mode === 'add'
        ? [
            ...(before ?? []),
            ...args.roles.filter((r) => !(before ?? []).some((b) => roleKey(b) === roleKey(r))),
          ]
        : (before ?? []).filter((b) => !asked.has(roleKey(b)));
  return { user: u, before, next, asked: args.roles };
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
    const { user: u, before, next, asked } = await resolveRoles(ctx, args);
    await ctx.names.learnProjects(
      [...(before ?? []), ...next].flatMap((r) => (r.groupId ? [r.groupId] : [])),
      ctx.signal,
    );
    const label = (r: RoleAssignment) => roleLabel(r, ctx.names.project);
    const { gained, lost, notes } = before
      ? accessNotes(before, next, args.mode, asked, ctx.names.project)
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
    const { next, asked } = await resolveRoles(ctx, args);
    return { user: await ctx.api.users.updateRoles(args.userId, next, ctx.req), asked };
  },
  format: ({ user: u, asked }, args, f) =>
    withPending(
      recordAnswer(`Roles of user ${named(personName(u), args.userId)} updated`, u, userPairs, f),
      asked,
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

/** The projects the key can see (for role labels and the search); none when they cannot be read. */
async function visibleProjects(ctx: ToolContext): Promise<Project[]> {
  try {
    return (await ctx.api.projects.list({ itemsPerPage: 500 }, ctx.req)).results;
  } catch {
    return [];
  }
}

/** Organization names where the platform answers GET /orgs/{id} (the field does); ids otherwise. */
async function orgNames(ctx: ToolContext, orgIds: Iterable<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await Promise.all(
    [...new Set(orgIds)].slice(0, 20).map(async (id) => {
      try {
        const o = await ctx.api.orgs.get(id, ctx.req);
        if (o.name) out.set(id, o.name);
      } catch {
        // Not offered, or not visible to this key: the id is shown.
      }
    }),
  );
  return out;
}

/** The projects a search reads the members of, at most; beyond it the answer says how many were not read. */
export const SEARCH_PROJECTS = 40;

const SEARCH_CONCURRENCY = 4;

const matches = (u: User, q: string) =>
  [fullName(u), u.firstName, u.lastName, u.username, u.emailAddress].some((v) =>
    v?.toLowerCase().includes(q),
  );

/** Everyone with a role in the projects the key sees (read a few projects at a time) whose name, username or email holds q. */
async function search(ctx: ToolContext, projects: Project[], query: string) {
  const q = query.trim().toLowerCase();
  const read = projects.slice(0, SEARCH_PROJECTS);
  const found = new Map<string, User>();
  let failed = 0;
  for (let i = 0; i < read.length; i += SEARCH_CONCURRENCY) {
    const settled = await Promise.allSettled(
      read
        .slice(i, i + SEARCH_CONCURRENCY)
        .map((p) => ctx.api.users.ofProject(p.id, { itemsPerPage: 500 }, ctx.req)),
    );
    for (const s of settled) {
      if (s.status === 'rejected') failed++;
      else for (const u of s.value.results) if (u.id && matches(u, q)) found.set(u.id, u);
    }
  }
  return {
    people: [...found.values()],
    searched: read.length - failed,
    failed,
    skipped: projects.length - read.length,
  };
}

type Found = {
  people: User[];
  places: RolePlaces;
  /** What was searched for, in words, for the headline and the "not found" answer. */
  sought: string;
  scope?: string;
  notes: string[];
};

export const findUser = defineTool({
  name: 'find_user',
  title: 'Find a user',
  description:
    "Finds people by part of a name, username or email (query), by username or userId, or a project's members, with roles by project. Use before update_user_roles.",
  kind: 'read',
  input: {
    query: text('query', 100).optional().describe('Part of a name, username or email'),
    username: text('username', 320).optional().describe('Exact login name'),
    userId: ids.user.optional(),
    projectId: ids.project.optional(),
  },
  output: listOutput,
  check: (args) => {
    // projectId may come from DBOPS_PROJECT_ID: a query, username or userId given takes precedence over it.
    const given = [args.query, args.username, args.userId].filter((v) => v !== undefined).length;
    if (given > 1) throw new ToolInputError('Give one of query, username, userId or projectId, not several.');
    if (given === 0 && args.projectId === undefined)
      throw new ToolInputError('Give one of query (part of a name), username, userId or projectId.');
  },
  run: async (ctx, args): Promise<Found> => {
    const projects = await visibleProjects(ctx);
    const result = async (people: User[], sought: string, notes: string[] = [], scope?: string) => {
      const orgIds = [...people.flatMap((u) => (u.roles ?? []).flatMap((r) => (r.orgId ? [r.orgId] : [])))];
      const orgs = await orgNames(ctx, orgIds);
      const known = new Map(projects.flatMap((p) => (p.name ? [[p.id, p.name] as [string, string]] : [])));
      return { people, places: { projects: known, orgs }, sought, notes, ...(scope ? { scope } : {}) };
    };
    if (args.userId !== undefined)
      return result([await ctx.api.users.get(args.userId, ctx.req)], `userId "${args.userId}"`);
    const searched = async (query: string, sought: string, first: string[] = []) => {
      const s = await search(ctx, projects, query);
      const notes = [...first];
      if (s.failed) notes.push(`The members of ${plural(s.failed, 'project')} could not be read.`);
      if (s.skipped)
        notes.push(
          `Only the first ${SEARCH_PROJECTS} of ${projects.length} projects were searched (the request budget); give projectId to list one project's members.`,
        );
      return result(
        s.people.sort((a, b) => (personName(a) ?? '').localeCompare(personName(b) ?? '')),
        sought,
        notes,
        `the members of ${plural(s.searched, 'project')}`,
      );
    };
    if (args.query !== undefined) return searched(args.query, `"${args.query}"`);
    if (args.username !== undefined) {
      try {
        return result([await ctx.api.users.byName(args.username, ctx.req)], `username "${args.username}"`);
      } catch (e) {
        // No exact username (or no such route): the same words as part of a name, username or email.
        if (!(e instanceof ApiError) || (e.status !== 404 && !isMissingEndpoint(e))) throw e;
        return searched(args.username, `"${args.username}"`, [
          `No user has exactly the username "${cell(args.username, 120)}"; searched for it as part of a name, username or email.`,
        ]);
      }
    }
    const projectId = args.projectId as string;
    const members = await ctx.api.users.ofProject(projectId, { itemsPerPage: 500 }, ctx.req);
    return result(members.results, `the members of project ${projectId}`);
  },
  format: (r, args, f) => {
    const isMembers = args.query === undefined && args.username === undefined && args.userId === undefined;
    const n = r.people.length;
    const title = isMembers
      ? `# Members of project ${f.names.project(args.projectId as string)} — ${n}`
      : `# People matching ${cell(r.sought, 120)} — ${n} found${r.scope ? ` among ${r.scope}` : ''}`;
    const results = redact(r.people).map((u) => ({
      ...u,
      roleNames: (u.roles ?? []).map((x) => placedRole(x, r.places)),
    }));
    const lines = [title, ...r.notes];
    if (n === 0)
      lines.push(
        isMembers
          ? 'This project has no members the key can see.'
          : `No one${r.scope ? ` among ${r.scope}` : ''} has a name, username or email holding ${cell(r.sought, 120)}. Try a shorter part of the name, or list_projects and find_user with a projectId to list a project's members.`,
      );
    else {
      lines.push(
        f.fence.notice,
        f.fence.wrap(
          redact(r.people)
            .map((u) => personBlock(u, r.places))
            .join('\n\n'),
        ),
      );
      lines.push(
        n > 1 && !isMembers
          ? 'Next: pick the person by name with whoever asked, then update_user_roles with their userId; nothing is changed on a guess.'
          : 'Next: update_user_roles with the userId, mode add or remove, and roles whose groupId is a project id or name.',
      );
    }
    return {
      text: lines.join('\n'),
      structured: { totalCount: n, pageNum: 1, itemsPerPage: Math.max(n, 1), results },
    };
  },
});

function keyAnswer(title: string, key: KeptKey, f: FormatContext): ToolAnswer {
  const k = shownKey(key);
  const body = fields([
    ['Description', k.desc],
    ['API key id', k.id],
    ['Public key', k.publicKey],
    ['Roles', (k.roles ?? []).map((r) => roleLabel(r, f.names.project))],
  ]);
  return {
    text: [
      `# ${title}`,
      f.fence.notice,
      f.fence.wrap(body),
      keyNote(k),
      `**Private key**: ${cell(k.privateKey, 100)}`,
    ].join('\n'),
    structured: { record: k },
  };
}

const desc = text('desc', 250).describe('What it is for and who holds it');

const mintNote =
  'Its private key is written to a 0600 file on the server and shown masked, never in this chat.';

export const createOrgApiKey = defineTool({
  name: 'create_org_api_key',
  title: 'Create an organization API key',
  description:
    'Mints an organization API key with organization roles; its private key goes to a file. Use only when asked; for one project use create_project_api_key.',
  kind: 'destructive',
  checkWith: 'list_global_events',
  input: {
    orgId: ids.org.optional(),
    desc,
    roles: upTo(z.enum(ORG_ROLES), 4, 'roles').min(1).describe('Roles of the key'),
  },
  output: recordOutput,
  preview: async (_ctx, args) => {
    const orgId = args.orgId;
    return {
      action: `Create an API key in organization ${orgId} with roles ${args.roles.join(', ')}`,
      target: { org: orgId },
      changes: [
        { field: 'desc', to: args.desc },
        { field: 'roles', to: args.roles.join(', ') },
      ],
      notes: [mintNote, 'Anyone holding the key acts with these roles until it is deleted.'],
    };
  },
  run: async (ctx, args) =>
    keepKey(
      ctx.secrets,
      await ctx.api.apiKeys.createForOrg(args.orgId, { desc: args.desc, roles: args.roles }, ctx.req),
    ),
  format: (key, args, f) => keyAnswer(`API key created in organization ${args.orgId}`, key, f),
});

export const createProjectApiKey = defineTool({
  name: 'create_project_api_key',
  title: 'Create a project API key',
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
  preview: async (ctx, args) => {
    const projectId = args.projectId;
    return {
      action: `Create an API key for project ${ctx.names.project(projectId)}${args.roles ? ` with roles ${args.roles.join(', ')}` : ''}`,
      target: { project: projectId },
      changes: [
        ...(args.desc ? [{ field: 'desc', to: args.desc }] : []),
        ...(args.roles ? [{ field: 'roles', to: args.roles.join(', ') }] : []),
      ],
      notes: [mintNote, "The key also becomes a member of the project's organization."],
    };
  },
  run: async (ctx, args) => {
    const body = { desc: args.desc, roles: args.roles };
    return keepKey(ctx.secrets, await ctx.api.apiKeys.createForProject(args.projectId, body, ctx.req));
  },
  format: (key, args, f) =>
    keyAnswer(`API key created for project ${f.names.project(args.projectId)}`, key, f),
});

function checkProjectKey(args: { desc?: string; roles?: string[] }): void {
  if (args.desc === undefined && args.roles === undefined)
    throw new ToolInputError('Give desc, roles or both for the new project API key.');
}
