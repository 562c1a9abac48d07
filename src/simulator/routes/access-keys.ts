// API keys: create an organization key, and create a key assigned to a project. The private key is
// returned in full only in these creation answers.

import { ORG_ROLES, PROJECT_ROLES } from '../../vocabulary/index.js';
import type { ApiKeyRec, RoleAssignment } from '../records.js';
import {
  callerOf,
  findOrg,
  requireOrgOwner,
  requireProjectRole,
  scopeOf,
  unauthorized,
  visibleProjects,
} from '../roles.js';
import type { SimContext, SimRequest, SimRoute } from '../types.js';
import { newObjectId, newPrivateKey, newPublicKey, timestamp } from '../values.js';
import { audit, selfLinks } from './render.js';
import { badRequest, invalidEnum, invalidJsonAttribute, parseBody } from './validate.js';

const DESC = { kind: 'string', min: 1, max: 250 } as const;

function renderKey(req: SimRequest, key: ApiKeyRec, path: string): Record<string, unknown> {
  return {
    id: key.id,
    desc: key.desc,
    publicKey: key.publicKey,
    privateKey: key.privateKey,
    roles: key.roles.map((r) => ({ ...r })),
    links: selfLinks(req, path),
  };
}

function createKey(ctx: SimContext, desc: string, roles: RoleAssignment[]): ApiKeyRec {
  const key: ApiKeyRec = {
    id: newObjectId(),
    publicKey: newPublicKey(),
    privateKey: newPrivateKey(),
    desc,
    roles,
    created: timestamp(ctx.now()),
  };
  ctx.store.data.apiKeys.push(key);
  return key;
}

function atLeastOneRole(roles: string[]): void {
  if (roles.length === 0) throw invalidJsonAttribute('roles', 'at least one role is required');
}

/** Keys of an organization: its own roles, or roles on one of its projects. */
const ofOrg = (ctx: SimContext, key: ApiKeyRec, orgId: string) =>
  key.roles.some(
    (r) =>
      r.orgId === orgId ||
      (r.groupId !== undefined &&
        ctx.store.data.projects.some((p) => p.id === r.groupId && p.orgId === orgId)),
  );

export const apiKeyRoutes: SimRoute[] = [
  {
    // Beyond the spec (the field has it): who the keys are, private keys masked as the field masks them.
    method: 'GET',
    path: '/orgs/:orgId/apiKeys',
    beyondSpec: true,
    handle(req, ctx) {
      const org = findOrg(ctx, req.params.orgId ?? '');
      const roles = callerOf(req).key.roles;
      const member =
        roles.some((r) => r.roleName.startsWith('GLOBAL_')) ||
        roles.some((r) => r.orgId === org.id) ||
        visibleProjects(req, ctx).some((p) => p.orgId === org.id);
      if (!member) throw unauthorized();
      return {
        status: 200,
        list: ctx.store.data.apiKeys
          .filter((k) => ofOrg(ctx, k, org.id))
          .map((k) => ({
            ...renderKey(req, k, `/orgs/${org.id}/apiKeys/${k.id}`),
            privateKey: `********-****-****-${k.privateKey.slice(-12)}`,
          })),
      };
    },
  },
  {
    method: 'POST',
    path: '/orgs/:orgId/apiKeys',
    mutates: true,
    handle(req, ctx) {
      const org = requireOrgOwner(req, ctx, req.params.orgId ?? '');
      const body = parseBody(req.body, {
        desc: { ...DESC, required: true },
        roles: { kind: 'strings', values: ORG_ROLES, required: true },
      });
      atLeastOneRole(body.roles);
      const roleNames = [...new Set(body.roles)];
      const key = createKey(
        ctx,
        body.desc,
        roleNames.map((roleName) => ({ orgId: org.id, roleName })),
      );
      audit(req, ctx, { eventTypeName: 'API_KEY_CREATED', orgId: org.id, targetPublicKey: key.publicKey });
      return { status: 200, body: renderKey(req, key, `/orgs/${org.id}/apiKeys/${key.id}`) };
    },
  },
  {
    method: 'POST',
    path: '/groups/:projectId/apiKeys',
    mutates: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'owner');
      const body = parseBody(req.body, { desc: DESC, roles: { kind: 'strings' } });
      if (body.desc === undefined && body.roles === undefined) {
        throw badRequest('MISSING_ATTRIBUTE', 'At least one of desc and roles must be specified.', [
          'desc',
          'roles',
        ]);
      }
      const roles = body.roles ?? ['GROUP_READ_ONLY'];
      atLeastOneRole(roles);
      for (const role of roles) {
        const scope = scopeOf(role);
        if (scope === undefined) throw invalidEnum('roles', role, PROJECT_ROLES);
        if (scope !== 'group') {
          throw badRequest('INVALID_ROLE_FOR_GROUP', `The role ${role} is not a project role.`, [role]);
        }
      }
      const key = createKey(ctx, body.desc ?? `API key for ${project.name}`, [
        ...[...new Set(roles)].map((roleName) => ({ groupId: project.id, orgId: project.orgId, roleName })),
        { orgId: project.orgId, roleName: 'ORG_MEMBER' },
      ]);
      audit(req, ctx, {
        eventTypeName: 'API_KEY_CREATED',
        orgId: project.orgId,
        targetPublicKey: key.publicKey,
      });
      audit(req, ctx, {
        eventTypeName: 'API_KEY_ADDED_TO_GROUP',
        groupId: project.id,
        targetPublicKey: key.publicKey,
      });
      return { status: 200, body: renderKey(req, key, `/orgs/${project.orgId}/apiKeys/${key.id}`) };
    },
  },
];
