// The roles a person gives to the access tools, checked and resolved before any preview: scopes as the
// platform enforces them, project names turned into ids, and a mode (add, remove, replace) into the complete
// set to send.
import { ifSupported } from '../api/capabilities.js';
import type { Project, RoleAssignment, User } from '../api/client.js';
import { type RolesChange, type RolesMode, roleKey } from '../format/views/access.js';
import { cell } from '../untrusted.js';
import { ToolInputError } from './errors.js';
import type { ToolContext } from './index.js';

/** The scope rules the platform enforces (ROLE_NEEDS_GROUP_ID …), checked first so the message names the role. */
export function checkRoles(roles: RoleAssignment[]): void {
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

const shown = (p: Project) => `${cell(p.name, 60)} (${p.id}${p.orgId ? `, org ${p.orgId}` : ''})`;

/** The project a name means among those the key sees (exactly, then ignoring case); refused when not one. */
function projectNamed(projects: Project[], given: string): Project {
  let found = projects.filter((p) => p.name === given);
  if (found.length === 0) found = projects.filter((p) => p.name?.toLowerCase() === given.toLowerCase());
  if (found.length === 1) return found[0]!;
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
}

/**
 * Roles with every groupId a project id: a name is looked up among the projects the key sees (exactly, then
 * ignoring case). An unknown name, or one that two projects share, is refused with the candidates, before
 * any preview is shown or anyone is asked; nothing is changed on a guess.
 */
export async function withProjectIds(ctx: ToolContext, roles: RoleAssignment[]): Promise<RoleAssignment[]> {
  if (!roles.some((r) => r.groupId && !PROJECT_ID.test(r.groupId))) return roles;
  const projects = (await ctx.api.projects.list({ itemsPerPage: 500 }, ctx.req)).results;
  return roles.map((r) => {
    const given = r.groupId;
    if (!given || PROJECT_ID.test(given)) return r;
    return { ...r, groupId: projectNamed(projects, given).id };
  });
}

type RolesArgs = { userId: string; mode: RolesMode; roles: RoleAssignment[] };

/**
 * The complete set to send, from the mode: add and remove start from the roles the user has now, so nothing
 * the person did not mention changes. Without the current roles only replace can be done.
 */
export async function resolveRoles(ctx: ToolContext, given: RolesArgs): Promise<RolesChange> {
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
  return { userId: args.userId, mode: args.mode, user: u, before, next, asked: args.roles };
}
