import { callerOf, hasGlobalRole, requireProjectRole, unauthorized } from '../roles.js';
import { SimError, type SimRoute } from '../types.js';
import { newObjectId, timestamp } from '../values.js';
import {
  administers,
  checkCanAdd,
  checkCanRemove,
  checkLastOwners,
  isUserAdmin,
  parseRoles,
  recordInvites,
  sameRole,
  splitInvites,
} from './access-grants.js';
import { apiKeyRoutes } from './access-keys.js';
import {
  accessListFromQuery,
  checkEmail,
  checkPassword,
  checkUnique,
  checkUsername,
  findUser,
  firstKeyPair,
  LOOSE_EMAIL,
  newUser,
  renderAccessListEntry,
  renderUser,
  visibleTo,
} from './access-users.js';
import { audit, selfLinks } from './render.js';
import { isObjectId, missingAttribute, parseBody } from './validate.js';

const userRoutes: SimRoute[] = [
  {
    method: 'POST',
    path: '/unauth/users',
    auth: 'none',
    mutates: true,
    handle(req, ctx) {
      const body = parseBody(req.body, {
        username: { kind: 'string', required: true },
        password: { kind: 'string', required: true },
        emailAddress: { kind: 'string' },
        mobileNumber: { kind: 'string' },
        firstName: { kind: 'string', required: true },
        lastName: { kind: 'string', required: true },
        roles: { kind: 'objects' },
      });
      checkUsername(ctx, body.username);
      const emailAddress = body.emailAddress ?? (LOOSE_EMAIL.test(body.username) ? body.username : undefined);
      if (emailAddress === undefined) throw missingAttribute('emailAddress');
      checkEmail(emailAddress);
      checkPassword(body.password);
      const roles = parseRoles(ctx, body.roles ?? []);
      const accessList = accessListFromQuery(req, ctx.now());
      checkUnique(ctx, body.username);

      const first = ctx.store.data.users.length === 0;
      const user = newUser(ctx, { ...body, emailAddress });
      user.accessList = accessList;
      if (first && !roles.some((r) => r.roleName === 'GLOBAL_OWNER'))
        roles.unshift({ roleName: 'GLOBAL_OWNER' });
      const { direct, invited } = splitInvites(ctx, user, roles);
      user.roles = direct;
      user.pendingRoles = invited;
      ctx.store.data.users.push(user);
      audit(req, ctx, { eventTypeName: 'USER_CREATED_AUDIT', targetUsername: user.username }, user);

      const answer: Record<string, unknown> = { user: renderUser(req, user) };
      if (first) {
        const pair = firstKeyPair();
        const key = {
          id: newObjectId(),
          ...pair,
          desc: 'Programmatic API key of the first user',
          roles: [{ roleName: 'GLOBAL_OWNER' }],
          userId: user.id,
          created: timestamp(ctx.now()),
        };
        ctx.store.data.apiKeys.push(key);
        audit(req, ctx, { eventTypeName: 'API_KEY_CREATED', targetPublicKey: key.publicKey }, user);
        answer.programmaticApiKey = {
          desc: key.desc,
          id: key.id,
          links: selfLinks(req, `/users/${user.id}/apiKeys/${key.id}`),
          privateKey: key.privateKey,
          publicKey: key.publicKey,
          roles: key.roles.map((r) => ({ ...r })),
        };
      }
      return { status: 201, body: answer };
    },
  },
  {
    method: 'POST',
    path: '/users',
    mutates: true,
    handle(req, ctx) {
      const caller = callerOf(req);
      const canAdminister =
        isUserAdmin(caller) ||
        caller.key.roles.some((r) => ['ORG_OWNER', 'GROUP_OWNER', 'GROUP_USER_ADMIN'].includes(r.roleName));
      if (!canAdminister) throw unauthorized();
      const body = parseBody(req.body, {
        username: { kind: 'string', required: true },
        password: { kind: 'string', required: true },
        emailAddress: { kind: 'string', required: true },
        mobileNumber: { kind: 'string', required: true },
        firstName: { kind: 'string', required: true },
        lastName: { kind: 'string', required: true },
        roles: { kind: 'objects', required: true },
      });
      checkUsername(ctx, body.username);
      checkEmail(body.emailAddress);
      checkPassword(body.password);
      const roles = parseRoles(ctx, body.roles);
      for (const role of roles) checkCanAdd(ctx, caller, role);
      checkUnique(ctx, body.username);

      const user = newUser(ctx, body);
      const { direct, invited } = splitInvites(ctx, user, roles);
      user.roles = direct;
      user.pendingRoles = invited;
      ctx.store.data.users.push(user);
      audit(req, ctx, { eventTypeName: 'USER_CREATED_AUDIT', targetUsername: user.username });
      for (const role of direct) {
        if (role.groupId !== undefined) {
          audit(req, ctx, {
            eventTypeName: 'JOINED_GROUP',
            groupId: role.groupId,
            targetUsername: user.username,
          });
        } else if (role.orgId !== undefined) {
          audit(req, ctx, { eventTypeName: 'JOINED_ORG', orgId: role.orgId, targetUsername: user.username });
        }
      }
      recordInvites(req, ctx, user, invited);
      return { status: 201, body: renderUser(req, user) };
    },
  },
  {
    method: 'PATCH',
    path: '/users/:userId',
    mutates: true,
    handle(req, ctx) {
      const caller = callerOf(req);
      const target = findUser(ctx, req.params.userId ?? '');
      const ownAccount = caller.key.userId === target.id;
      const body = parseBody(req.body, { roles: { kind: 'objects', required: true } });
      const wanted = parseRoles(ctx, body.roles);

      // Owners of an organization or project may update its members; anyone may update their own account.
      const member = [...target.roles, ...target.pendingRoles].some((r) => administers(ctx, caller, r));
      if (!ownAccount && !isUserAdmin(caller) && !member) throw unauthorized();

      const removed = target.roles.filter((r) => !wanted.some((w) => sameRole(w, r)));
      const added = wanted.filter((w) => !target.roles.some((r) => sameRole(r, w)));
      const alreadyInvited = added.filter((w) => target.pendingRoles.some((p) => sameRole(p, w)));
      const newlyAdded = added.filter((w) => !alreadyInvited.includes(w));
      const droppedInvites = target.pendingRoles.filter((p) => !wanted.some((w) => sameRole(w, p)));
      for (const role of removed) checkCanRemove(ctx, caller, role, ownAccount);
      for (const role of droppedInvites) checkCanRemove(ctx, caller, role, ownAccount);
      for (const role of newlyAdded) checkCanAdd(ctx, caller, role);
      checkLastOwners(ctx, target, removed);

      const { direct, invited } = splitInvites(ctx, target, newlyAdded);
      target.roles = [...target.roles.filter((r) => !removed.includes(r)), ...direct];
      target.pendingRoles = [...target.pendingRoles.filter((p) => !droppedInvites.includes(p)), ...invited];

      if (removed.length > 0 || direct.length > 0) {
        const changedProjects = new Set(
          [...removed, ...direct].flatMap((r) => (r.groupId === undefined ? [] : [r.groupId])),
        );
        for (const groupId of changedProjects) {
          audit(req, ctx, {
            eventTypeName: 'USER_ROLES_CHANGED_AUDIT',
            groupId,
            targetUsername: target.username,
          });
        }
        audit(req, ctx, { eventTypeName: 'USER_ROLES_CHANGED_AUDIT', targetUsername: target.username });
      }
      recordInvites(req, ctx, target, invited);
      return { status: 200, body: renderUser(req, target) };
    },
  },
  {
    method: 'GET',
    path: '/users/:userId/accessList',
    handle(req, ctx) {
      const caller = callerOf(req);
      const userId = req.params.userId ?? '';
      if (!isObjectId(userId)) findUser(ctx, userId);
      if (caller.key.userId !== userId && !hasGlobalRole(caller.key.roles, ['GLOBAL_OWNER'])) {
        throw new SimError(
          401,
          'ACCESS_LIST_ACCESS_DENIED',
          'Only the current user can read their own access list.',
          [userId],
        );
      }
      const user = findUser(ctx, userId);
      return { status: 200, list: user.accessList.map((e) => renderAccessListEntry(req, user.id, e)) };
    },
  },
  {
    method: 'GET',
    path: '/users/:userId',
    beyondSpec: true,
    handle(req, ctx) {
      const user = findUser(ctx, req.params.userId ?? '');
      if (!visibleTo(req, ctx, user)) throw unauthorized();
      return { status: 200, body: renderUser(req, user) };
    },
  },
  {
    // The field's lookup by login name (beyond the spec).
    method: 'GET',
    path: '/users/byName/:userName',
    beyondSpec: true,
    handle(req, ctx) {
      const name = req.params.userName ?? '';
      const user = ctx.store.data.users.find((u) => u.username === name);
      if (!user) throw new SimError(404, 'USER_NOT_FOUND', `No user with username ${name} exists.`, [name]);
      if (!visibleTo(req, ctx, user)) throw unauthorized();
      return { status: 200, body: renderUser(req, user) };
    },
  },
  {
    // The members of a project (beyond the spec): users with a role in it, for any member of the project.
    method: 'GET',
    path: '/groups/:projectId/users',
    beyondSpec: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      const members = ctx.store.data.users.filter((u) => u.roles.some((r) => r.groupId === project.id));
      return { status: 200, list: members.map((u) => renderUser(req, u)) };
    },
  },
];

/** API keys, then users, in that order of the route table. */
export const accessRoutes: SimRoute[] = [...apiKeyRoutes, ...userRoutes];
