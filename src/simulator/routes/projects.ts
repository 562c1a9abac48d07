// Projects (groups), beyond the spec: the projects the key can see, and one project.

import { ROLE_NAMES } from '../../vocabulary/index.js';
import type { ProjectRec } from '../records.js';
import {
  callerOf,
  findOrg,
  hasGlobalRole,
  requireProjectRole,
  unauthorized,
  visibleProjects,
} from '../roles.js';
import type { SimContext, SimRequest, SimRoute } from '../types.js';
import { SimError } from '../types.js';
import { selfLinks } from './render.js';

function renderProject(req: SimRequest, ctx: SimContext, p: ProjectRec): Record<string, unknown> {
  const hosts = ctx.store.ofProject('hosts', p.id);
  const count = (...types: string[]): number => hosts.filter((h) => types.includes(h.typeName)).length;
  const replicaSets = new Set(
    hosts.flatMap((h) => (h.replicaSetName === undefined ? [] : [h.replicaSetName])),
  );
  return {
    id: p.id,
    name: p.name,
    orgId: p.orgId,
    created: p.created,
    tags: [...p.tags],
    activeAgentCount: ctx.store.ofProject('agents', p.id).filter((a) => a.stateName === 'ACTIVE').length,
    hostCounts: {
      arbiter: count('REPLICA_ARBITER'),
      config: count('SHARD_CONFIG'),
      primary: count('REPLICA_PRIMARY', 'SHARD_PRIMARY'),
      secondary: count('REPLICA_SECONDARY', 'SHARD_SECONDARY'),
      mongos: count('SHARD_MONGOS'),
      master: 0,
      slave: 0,
    },
    replicaSetCount: replicaSets.size,
    shardCount: count('SHARD_PRIMARY'),
    links: selfLinks(req, `/groups/${p.id}`),
  };
}

export const projectRoutes: SimRoute[] = [
  {
    // The field answers GET /orgs/{id} (beyond the spec): the organization's name, for anyone who can see it
    // (a global role, a role in the organization, or a role in one of its projects).
    method: 'GET',
    path: '/orgs/:orgId',
    beyondSpec: true,
    handle(req, ctx) {
      const org = findOrg(ctx, req.params.orgId ?? '');
      const roles = callerOf(req).key.roles;
      const sees =
        hasGlobalRole(roles, ROLE_NAMES) ||
        roles.some((r) => r.orgId === org.id) ||
        visibleProjects(req, ctx).some((p) => p.orgId === org.id);
      if (!sees) throw unauthorized();
      return { status: 200, body: { id: org.id, name: org.name, links: selfLinks(req, `/orgs/${org.id}`) } };
    },
  },
  {
    method: 'GET',
    path: '/groups',
    beyondSpec: true,
    handle(req, ctx) {
      return { status: 200, list: visibleProjects(req, ctx).map((p) => renderProject(req, ctx, p)) };
    },
  },
  {
    method: 'GET',
    path: '/groups/:projectId',
    beyondSpec: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      return { status: 200, body: renderProject(req, ctx, project) };
    },
  },
  {
    // The field's look-up by name: exact, and only among the projects the key can see.
    method: 'GET',
    path: '/groups/byName/:projectName',
    beyondSpec: true,
    handle(req, ctx) {
      const name = req.params.projectName ?? '';
      const project = visibleProjects(req, ctx).find((p) => p.name === name);
      if (!project)
        throw new SimError(404, 'GROUP_NAME_NOT_FOUND', `No group with name "${name}" exists.`, [name]);
      return { status: 200, body: renderProject(req, ctx, project) };
    },
  },
];
