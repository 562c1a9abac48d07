// People by part of a name, username or email, by username or id, or a project's members, each with the
// names of the projects and organizations their roles are in. A search reads the members of every project the
// key sees (a few projects at a time, within the time limit and the budget: everywhere.ts).
import { isMissingEndpoint } from '../api/capabilities.js';
import type { Project, User } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { fullName, personName } from '../format/views/access.js';
import type { Found } from '../format/views/access-people.js';
import type { ToolContext } from '../tool/index.js';
import { allProjects, everywhere } from './everywhere.js';

/** What find_user was given: one of query, username or userId, or else projectId. */
interface PeopleSought {
  query?: string | undefined;
  username?: string | undefined;
  userId?: string | undefined;
  projectId?: string | undefined;
}

/** The projects the key can see (for role labels and the search), every page; none when they cannot be read. */
async function visibleProjects(ctx: ToolContext): Promise<Project[]> {
  try {
    return await allProjects(ctx);
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

const matches = (u: User, q: string) =>
  [fullName(u), u.firstName, u.lastName, u.username, u.emailAddress].some((v) =>
    v?.toLowerCase().includes(q),
  );

/**
 * Everyone with a role in the projects the key sees whose name, username or email holds q: every project's
 * members read (a few projects at a time, within the time limit and the budget: feeds/everywhere.ts).
 */
async function search(ctx: ToolContext, projects: Project[], query: string) {
  const q = query.trim().toLowerCase();
  const e = await everywhere(
    ctx,
    'members',
    (p, signal) => ctx.api.users.ofProject(p.id, { itemsPerPage: 500 }, { signal }),
    projects,
  );
  const found = new Map<string, User>();
  for (const { value } of e.parts)
    for (const u of value.results) if (u.id && matches(u, q)) found.set(u.id, u);
  return {
    people: [...found.values()],
    searched: {
      read: e.parts.length,
      failed: e.missing.length,
      projects: projects.length,
      missing: e.missing,
      ...(e.partial ? { partial: e.partial } : {}),
    },
  };
}

/** The people found, with the names of the projects and organizations their roles are in. */
async function placed(
  ctx: ToolContext,
  projects: Project[],
  people: User[],
  sought: string,
  more: Pick<Found, 'searched' | 'notExactly'> = {},
): Promise<Found> {
  const orgIds = [...people.flatMap((u) => (u.roles ?? []).flatMap((r) => (r.orgId ? [r.orgId] : [])))];
  const orgs = await orgNames(ctx, orgIds);
  const known = new Map(projects.flatMap((p) => (p.name ? [[p.id, p.name] as [string, string]] : [])));
  return { people, places: { projects: known, orgs }, sought, ...more };
}

/** Searched by part of a name, username or email, the people sorted by name. */
async function searchedFor(
  ctx: ToolContext,
  projects: Project[],
  query: string,
  notExactly?: string,
): Promise<Found> {
  const s = await search(ctx, projects, query);
  const people = s.people.sort((a, b) => (personName(a) ?? '').localeCompare(personName(b) ?? ''));
  return placed(ctx, projects, people, `"${query}"`, {
    searched: s.searched,
    ...(notExactly !== undefined ? { notExactly } : {}),
  });
}

/** The people sought, placed: by id, by query, by exact username (else as part of a name), or a project's members. */
export async function findPeople(ctx: ToolContext, args: PeopleSought): Promise<Found> {
  const projects = await visibleProjects(ctx);
  if (args.userId !== undefined)
    return placed(ctx, projects, [await ctx.api.users.get(args.userId, ctx.req)], `userId "${args.userId}"`);
  if (args.query !== undefined) return searchedFor(ctx, projects, args.query);
  if (args.username !== undefined) {
    try {
      const u = await ctx.api.users.byName(args.username, ctx.req);
      return placed(ctx, projects, [u], `username "${args.username}"`);
    } catch (e) {
      // No exact username (or no such route): the same words as part of a name, username or email.
      if (!(e instanceof ApiError) || (e.status !== 404 && !isMissingEndpoint(e))) throw e;
      return searchedFor(ctx, projects, args.username, args.username);
    }
  }
  const projectId = args.projectId as string;
  const members = await ctx.api.users.ofProject(projectId, { itemsPerPage: 500 }, ctx.req);
  return placed(ctx, projects, members.results, `the members of project ${projectId}`);
}
