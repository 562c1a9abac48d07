// Role checks. A key's roles grant access at three levels: GLOBAL_* roles across every project, ORG_OWNER
// and ORG_READ_ONLY across the projects of their organization, GROUP_* roles in their project. A key
// that is none of these in a project is "not in the group" (401 NOT_IN_GROUP); a member that lacks the
// role the action needs is 401 USER_UNAUTHORIZED. The table of what each action needs is in index.ts.

import {
  GLOBAL_ROLES,
  type GlobalRole,
  ORG_ROLES,
  type OrgRole,
  PROJECT_ROLES,
  type ProjectRole,
  type RoleName,
} from '../vocabulary/index.js';
import type { OrgRec, ProjectRec, RoleAssignment } from './records.js';
import { findById } from './routes/validate.js';
import { type Caller, type SimContext, SimError, type SimRequest } from './types.js';

type RoleScope = 'org' | 'group' | 'global';

export function scopeOf(roleName: string): RoleScope | undefined {
  if ((GLOBAL_ROLES as readonly string[]).includes(roleName)) return 'global';
  if ((ORG_ROLES as readonly string[]).includes(roleName)) return 'org';
  if ((PROJECT_ROLES as readonly string[]).includes(roleName)) return 'group';
  return undefined;
}

/** What a project action needs, by level. */
interface Grant {
  group: readonly ProjectRole[];
  org: readonly OrgRole[];
  global: readonly GlobalRole[];
}

export const GRANTS = {
  /** Any role in the project. Every global role includes read access to all projects. */
  read: { group: PROJECT_ROLES, org: ['ORG_OWNER', 'ORG_READ_ONLY'], global: GLOBAL_ROLES },
  monitoring: {
    group: ['GROUP_OWNER', 'GROUP_MONITORING_ADMIN'],
    org: ['ORG_OWNER'],
    global: ['GLOBAL_OWNER', 'GLOBAL_MONITORING_ADMIN'],
  },
  owner: { group: ['GROUP_OWNER'], org: ['ORG_OWNER'], global: ['GLOBAL_OWNER'] },
  userAdmin: {
    group: ['GROUP_OWNER', 'GROUP_USER_ADMIN'],
    org: ['ORG_OWNER'],
    global: ['GLOBAL_OWNER', 'GLOBAL_USER_ADMIN'],
  },
} as const satisfies Record<string, Grant>;

type ProjectAction = keyof typeof GRANTS;

const UNAUTHORIZED_DETAIL = 'Current user is not authorized to perform this action.';

export function unauthorized(): SimError {
  return new SimError(401, 'USER_UNAUTHORIZED', UNAUTHORIZED_DETAIL);
}

/** The caller of a digest-authenticated route (the HTTP layer guarantees one). */
export function callerOf(req: SimRequest): Caller {
  if (req.caller === null) throw new SimError(401, undefined, 'You are not authorized for this resource.');
  return req.caller;
}

export function hasGlobalRole(roles: readonly RoleAssignment[], names: readonly RoleName[]): boolean {
  return roles.some(
    (r) =>
      r.groupId === undefined && r.orgId === undefined && (names as readonly string[]).includes(r.roleName),
  );
}

export function isMember(roles: readonly RoleAssignment[], project: ProjectRec): boolean {
  return (
    hasGlobalRole(roles, GLOBAL_ROLES) ||
    roles.some(
      (r) =>
        r.groupId === project.id ||
        (r.groupId === undefined &&
          r.orgId === project.orgId &&
          GRANTS.read.org.includes(r.roleName as 'ORG_OWNER')),
    )
  );
}

export function grants(roles: readonly RoleAssignment[], project: ProjectRec, grant: Grant): boolean {
  return roles.some((r) => {
    if (r.groupId !== undefined)
      return r.groupId === project.id && (grant.group as readonly string[]).includes(r.roleName);
    if (r.orgId !== undefined)
      return r.orgId === project.orgId && (grant.org as readonly string[]).includes(r.roleName);
    return (grant.global as readonly string[]).includes(r.roleName);
  });
}

export function findProject(ctx: SimContext, projectId: string): ProjectRec {
  return findById(projectId, (id) => ctx.store.project(id), {
    invalid: 'INVALID_GROUP_ID',
    notFound: 'GROUP_NOT_FOUND',
    what: 'group',
  });
}

export function findOrg(ctx: SimContext, orgId: string): OrgRec {
  return findById(orgId, (id) => ctx.store.org(id), {
    invalid: 'INVALID_ORG_ID',
    notFound: 'ORG_NOT_FOUND',
    what: 'organization',
  });
}

/** Resolves the project and checks the caller may perform `action` in it. */
export function requireProjectRole(
  req: SimRequest,
  ctx: SimContext,
  projectId: string,
  action: ProjectAction,
): ProjectRec {
  const project = findProject(ctx, projectId);
  const roles = callerOf(req).key.roles;
  if (!isMember(roles, project)) {
    throw new SimError(
      401,
      'NOT_IN_GROUP',
      'Current user is not in the group, or the group does not exist.',
      [projectId],
    );
  }
  if (!grants(roles, project, GRANTS[action])) throw unauthorized();
  return project;
}

/** The caller must hold one of the named global roles. */
export function requireGlobalRole(req: SimRequest, names: readonly GlobalRole[]): Caller {
  const caller = callerOf(req);
  if (!hasGlobalRole(caller.key.roles, names)) throw unauthorized();
  return caller;
}

/** The caller must be an owner of the organization (or a global owner). */
export function requireOrgOwner(req: SimRequest, ctx: SimContext, orgId: string): OrgRec {
  const org = findOrg(ctx, orgId);
  const roles = callerOf(req).key.roles;
  const owner =
    hasGlobalRole(roles, ['GLOBAL_OWNER']) ||
    roles.some((r) => r.groupId === undefined && r.orgId === org.id && r.roleName === 'ORG_OWNER');
  if (!owner) throw unauthorized();
  return org;
}

/** Any role at all (e.g. the matcher field names). */
export function requireAnyRole(req: SimRequest): Caller {
  const caller = callerOf(req);
  if (caller.key.roles.length === 0) throw unauthorized();
  return caller;
}

/** Projects the caller can read. */
export function visibleProjects(req: SimRequest, ctx: SimContext): ProjectRec[] {
  const roles = callerOf(req).key.roles;
  return ctx.store.data.projects.filter((p) => isMember(roles, p));
}
