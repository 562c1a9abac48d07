// The simulator's user and API key routes over loopback HTTP with digest auth: the first-user endpoint on an
// empty installation, creating users, updating roles (invitations, owner rules, last owners), access lists
// and their enforcement, and organization and project API keys.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureKey } from '../../src/simulator/records.js';
import {
  type DigestAnswer,
  digestFetch,
  type FetchOptions,
  rawFetch,
  type Simulator,
  startTestSimulator,
} from '../helpers/sim.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const now = () => NOW;
const as = (k: { publicKey: string; privateKey: string }): FetchOptions['keys'] => ({
  publicKey: k.publicKey,
  privateKey: k.privateKey,
});

function expectError(r: DigestAnswer, status: number, errorCode: string) {
  expect({ status: r.status, errorCode: r.json?.errorCode }).toEqual({ status, errorCode });
}

const person = (username: string, extra: Record<string, unknown> = {}) => ({
  username,
  password: 'Corr3ct-horse!',
  firstName: 'Ada',
  lastName: 'Byron',
  ...extra,
});

describe('first user (empty installation)', () => {
  const started: Simulator[] = [];
  const start = async (options: Parameters<typeof startTestSimulator>[0] = {}) => {
    const sim = await startTestSimulator({ dataset: 'empty', now, ...options });
    started.push(sim);
    return sim;
  };
  const firstUser = (sim: Simulator, body: unknown, query = '') =>
    rawFetch(`${sim.baseUrl}/unauth/users${query}`, 'POST', { body });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.close()));
  });

  it('creates the first user with a GLOBAL_OWNER key, without a challenge', async () => {
    const sim = await start();
    const r = await firstUser(sim, person('admin@example.com'));
    expect(r.status).toBe(201);
    expect(r.headers.get('www-authenticate')).toBeNull();
    const { programmaticApiKey: key, user } = r.json;
    expect(key).toMatchObject({
      desc: expect.any(String),
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      publicKey: expect.stringMatching(/^[a-z0-9]{6}$/),
      privateKey: expect.stringMatching(/^[a-z0-9-]{31}$/),
      roles: [{ roleName: 'GLOBAL_OWNER' }],
      links: [expect.objectContaining({ rel: 'self' })],
    });
    expect(user).toMatchObject({
      username: 'admin@example.com',
      emailAddress: 'admin@example.com',
      firstName: 'Ada',
      lastName: 'Byron',
      roles: [{ roleName: 'GLOBAL_OWNER' }],
      teamIds: [],
    });
    expect(r.text).not.toContain('Corr3ct-horse!');
    expect(JSON.stringify(sim.store.snapshot())).not.toContain('Corr3ct-horse!');

    // The key works, and the creation is on record with the new user as actor.
    const events = await digestFetch(sim, 'GET', '/globalEvents?eventType=USER_CREATED_AUDIT', {
      keys: as(key),
    });
    expect(events.status).toBe(200);
    expect(events.json.results[0]).toMatchObject({
      userId: user.id,
      username: user.username,
      targetUsername: user.username,
    });
  });

  it('gives later users neither GLOBAL_OWNER nor a key unless the role is asked for', async () => {
    const sim = await start();
    await firstUser(sim, person('admin@example.com'));
    const second = await firstUser(sim, person('second@example.com'));
    expect(second.status).toBe(201);
    expect(second.json.programmaticApiKey).toBeUndefined();
    expect(second.json.user.roles).toEqual([]);
    const third = await firstUser(
      sim,
      person('third@example.com', { roles: [{ roleName: 'GLOBAL_OWNER' }] }),
    );
    expect(third.json.user.roles).toEqual([{ roleName: 'GLOBAL_OWNER' }]);
    expect(third.json.programmaticApiKey).toBeUndefined();
    expectError(await firstUser(sim, person('second@example.com')), 409, 'USER_ALREADY_EXISTS');
  });

  it('validates the body', async () => {
    const sim = await start();
    expectError(await firstUser(sim, person('a@example.com', { password: 'short' })), 400, 'WEAK_PASSWORD');
    expectError(
      await firstUser(sim, person('a@example.com', { password: 'longbutnodigits!' })),
      400,
      'WEAK_PASSWORD',
    );
    expectError(
      await firstUser(sim, { username: 'a@example.com', password: 'Corr3ct-horse!' }),
      400,
      'MISSING_ATTRIBUTE',
    );
    expectError(await firstUser(sim, person('a@example.com', { nickname: 'x' })), 400, 'INVALID_ATTRIBUTE');
    expectError(
      await firstUser(sim, person('a@example.com', { emailAddress: 'nope' })),
      400,
      'INVALID_EMAIL_ADDRESS',
    );
    // A username that is not an email address needs emailAddress.
    expectError(await firstUser(sim, person('ada')), 400, 'MISSING_ATTRIBUTE');
    const ok = await firstUser(sim, person('ada', { emailAddress: 'ada@example.com' }));
    expect(ok.status).toBe(201);
    expect(ok.json.user).toMatchObject({ username: 'ada', emailAddress: 'ada@example.com' });
  });

  it('validates usernames per the email-validation setting', async () => {
    const loose = await start({ usernameValidation: 'loose' });
    expectError(
      await firstUser(loose, person('ada', { emailAddress: 'ada@example.com' })),
      400,
      'INVALID_USERNAME',
    );
    expect((await firstUser(loose, person('x@y.c'))).status).toBe(201);
    const strict = await start({ usernameValidation: 'strict' });
    expectError(await firstUser(strict, person('x@y.c')), 400, 'INVALID_USERNAME');
    expectError(
      await firstUser(strict, person('two@@example.com', { emailAddress: 'a@b.io' })),
      400,
      'INVALID_USERNAME',
    );
    expect((await firstUser(strict, person('ada.byron@example.com'))).status).toBe(201);
  });

  it('adds accessList addresses, which then guard the new key', async () => {
    const sim = await start();
    const r = await firstUser(
      sim,
      person('admin@example.com'),
      '?accessList=127.0.0.1&accessList=10.0.0.0/8',
    );
    expect(r.status).toBe(201);
    const key = r.json.programmaticApiKey;
    const list = await digestFetch(sim, 'GET', `/users/${r.json.user.id}/accessList`, { keys: as(key) });
    expect(list.status).toBe(200);
    expect(list.json.totalCount).toBe(2);
    const local = list.json.results.find((e: { ipAddress?: string }) => e.ipAddress === '127.0.0.1');
    expect(local).toMatchObject({ cidrBlock: '127.0.0.1/32', count: 1, lastUsedAddress: '127.0.0.1' });
    expect(list.json.results.find((e: { cidrBlock: string }) => e.cidrBlock === '10.0.0.0/8').count).toBe(0);

    const guarded = await start();
    const g = await firstUser(guarded, person('admin@example.com'), '?accessList=192.0.2.1');
    const denied = await digestFetch(guarded, 'GET', '/globalEvents', {
      keys: as(g.json.programmaticApiKey),
    });
    expectError(denied, 403, 'IP_ADDRESS_NOT_ON_ACCESS_LIST');
    expectError(
      await firstUser(guarded, person('b@example.com'), '?accessList=not-an-ip'),
      400,
      'INVALID_QUERY_PARAMETER',
    );
  });
});

describe('users and keys (demo dataset)', () => {
  let sim: Simulator;
  let bypass: Simulator;
  let payments: string;
  let search: string;
  let dev: string;
  beforeAll(async () => {
    [sim, bypass] = await Promise.all([
      startTestSimulator({ now }),
      startTestSimulator({ now, bypassInvite: true }),
    ]);
    [payments, search, , dev] = sim.projectIds as [string, string, string, string];
  });
  afterAll(async () => {
    await Promise.all([sim.close(), bypass.close()]);
  });
  const f = () => sim.store.fixtures!;
  const call = (method: string, path: string, options: FetchOptions = {}) =>
    digestFetch(sim, method, path, options);
  const userNamed = (name: string, s = sim) => s.store.data.users.find((u) => u.username === name)!;
  const rolesOf = (name: string, s = sim) => userNamed(name, s).roles.map((r) => ({ ...r }));

  describe('POST /users', () => {
    const full = (username: string, roles: unknown[]): Record<string, unknown> =>
      person(username, { emailAddress: username, mobileNumber: '+15555550123', roles });

    it('creates a user; project roles wait for the invitation, global roles apply', async () => {
      const r = await call('POST', '/users', {
        body: full('new.hire@example.com', [
          { groupId: payments, roleName: 'GROUP_READ_ONLY' },
          { roleName: 'GLOBAL_READ_ONLY' },
        ]),
      });
      expect(r.status).toBe(201);
      expect(r.json).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        username: 'new.hire@example.com',
        roles: [{ roleName: 'GLOBAL_READ_ONLY' }],
      });
      expect(r.json.password).toBeUndefined();
      expect(userNamed('new.hire@example.com').pendingRoles).toEqual([
        { groupId: payments, roleName: 'GROUP_READ_ONLY' },
      ]);
      const invited = await call('GET', `/groups/${payments}/events?eventType=INVITED_TO_GROUP`);
      expect(invited.json.results[0]).toMatchObject({
        targetUsername: 'new.hire@example.com',
        publicKey: sim.keys.publicKey,
      });
      const created = await call('GET', '/globalEvents?eventType=USER_CREATED_AUDIT');
      expect(created.json.results[0]).toMatchObject({ targetUsername: 'new.hire@example.com' });
    });

    it('applies project roles directly when invitations are bypassed', async () => {
      const r = await digestFetch(bypass, 'POST', '/users', {
        body: full('direct@example.com', [{ groupId: bypass.projectIds[0], roleName: 'GROUP_READ_ONLY' }]),
      });
      expect(r.status).toBe(201);
      expect(r.json.roles).toEqual([{ groupId: bypass.projectIds[0], roleName: 'GROUP_READ_ONLY' }]);
    });

    it('requires every field and valid values', async () => {
      const { mobileNumber: _, ...noMobile } = full('m@example.com', []);
      expectError(await call('POST', '/users', { body: noMobile }), 400, 'MISSING_ATTRIBUTE');
      expectError(
        await call('POST', '/users', { body: { ...full('m@example.com', []), emailAddress: 'x' } }),
        400,
        'INVALID_EMAIL_ADDRESS',
      );
      expectError(
        await call('POST', '/users', { body: full('ops-admin@example.com', []) }),
        409,
        'USER_ALREADY_EXISTS',
      );
      const roleError = async (role: Record<string, unknown>, code: string, status = 400) =>
        expectError(await call('POST', '/users', { body: full('r@example.com', [role]) }), status, code);
      await roleError({ roleName: 'GROUP_OWNER' }, 'ROLE_NEEDS_GROUP_ID');
      await roleError({ roleName: 'ORG_OWNER' }, 'ROLE_NEEDS_ORG_ID');
      await roleError({ roleName: 'GLOBAL_OWNER', groupId: payments }, 'ROLE_NEEDS_NO_GROUP_ID');
      await roleError({ roleName: 'GLOBAL_OWNER', orgId: sim.orgId }, 'ROLE_NEEDS_NO_ORG_ID');
      await roleError(
        { roleName: 'GROUP_OWNER', groupId: payments, orgId: sim.orgId },
        'ROLE_NEEDS_NO_ORG_ID',
      );
      await roleError({ roleName: 'ORG_OWNER', groupId: payments }, 'INVALID_ROLE_FOR_GROUP');
      await roleError({ roleName: 'KING' }, 'INVALID_ENUM_VALUE');
      await roleError({ roleName: 'GROUP_OWNER', groupId: 'f'.repeat(24) }, 'GROUP_NOT_FOUND', 404);
      await roleError({ roleName: 'ORG_MEMBER', orgId: 'e'.repeat(24) }, 'ORG_NOT_FOUND', 404);
      await roleError({ roleName: 'GROUP_OWNER', groupId: payments, team: 'x' }, 'INVALID_ATTRIBUTE');
    });

    it('lets project owners add users to their projects only', async () => {
      const owner = { keys: as(f().notInProject) }; // GROUP_OWNER of search-staging
      const ok = await call('POST', '/users', {
        ...owner,
        body: full('search.dev@example.com', [{ groupId: search, roleName: 'GROUP_READ_ONLY' }]),
      });
      expect(ok.status).toBe(201);
      const elsewhere = await call('POST', '/users', {
        ...owner,
        body: full('pay.dev@example.com', [{ groupId: payments, roleName: 'GROUP_READ_ONLY' }]),
      });
      expectError(elsewhere, 401, 'USER_UNAUTHORIZED');
      const global = await call('POST', '/users', {
        ...owner,
        body: full('g@example.com', [{ roleName: 'GLOBAL_READ_ONLY' }]),
      });
      expectError(global, 403, 'CANNOT_ADD_GLOBAL_ROLE');
      expectError(
        await call('POST', '/users', { keys: as(f().readOnly), body: full('ro@example.com', []) }),
        401,
        'USER_UNAUTHORIZED',
      );
    });
  });

  describe('PATCH /users/{id}', () => {
    it('adds a role in a project the user belongs to directly and invites into a new one', async () => {
      const marcus = userNamed('marcus.chen@example.com');
      const wanted = [
        ...rolesOf('marcus.chen@example.com'),
        { groupId: payments, roleName: 'GROUP_MONITORING_ADMIN' },
        { groupId: dev, roleName: 'GROUP_READ_ONLY' },
      ];
      const r = await call('PATCH', `/users/${marcus.id}`, { body: { roles: wanted } });
      expect(r.status).toBe(200);
      expect(r.json.roles).toContainEqual({ groupId: payments, roleName: 'GROUP_MONITORING_ADMIN' });
      expect(r.json.roles).not.toContainEqual({ groupId: dev, roleName: 'GROUP_READ_ONLY' });
      expect(marcus.pendingRoles).toContainEqual({ groupId: dev, roleName: 'GROUP_READ_ONLY' });
      // The invitation into search-staging that was pending and not asked for again is withdrawn.
      expect(marcus.pendingRoles).not.toContainEqual({ groupId: search, roleName: 'GROUP_READ_ONLY' });
      const changed = await call('GET', `/groups/${payments}/events?eventType=USER_ROLES_CHANGED_AUDIT`);
      expect(changed.json.results[0]).toMatchObject({
        targetUsername: marcus.username,
        publicKey: sim.keys.publicKey,
      });
      const invited = await call('GET', `/groups/${dev}/events?eventType=INVITED_TO_GROUP`);
      expect(invited.json.results[0]).toMatchObject({ targetUsername: marcus.username });
    });

    it('removes roles and applies new ones directly when invitations are bypassed', async () => {
      const marcus = userNamed('marcus.chen@example.com', bypass);
      const [payments2, , , dev2] = bypass.projectIds;
      const wanted = [
        ...rolesOf(marcus.username, bypass).filter((x) => x.groupId !== payments2),
        { groupId: dev2, roleName: 'GROUP_READ_ONLY' },
      ];
      const r = await digestFetch(bypass, 'PATCH', `/users/${marcus.id}`, { body: { roles: wanted } });
      expect(r.status).toBe(200);
      expect(r.json.roles).toEqual(wanted);
      expect(r.json.roles.some((x: { groupId?: string }) => x.groupId === payments2)).toBe(false);
    });

    it('keeps the last owners', async () => {
      const admin = userNamed('ops-admin@example.com');
      const withoutGlobal = rolesOf(admin.username).filter((x) => x.roleName !== 'GLOBAL_OWNER');
      expectError(
        await call('PATCH', `/users/${admin.id}`, { body: { roles: withoutGlobal } }),
        403,
        'CANNOT_DEMOTE_LAST_OWNER',
      );
      const withoutOrg = rolesOf(admin.username).filter((x) => x.roleName !== 'ORG_OWNER');
      expectError(
        await call('PATCH', `/users/${admin.id}`, { body: { roles: withoutOrg } }),
        403,
        'CANNOT_DEMOTE_LAST_ORG_OWNER',
      );
      const priya = userNamed('priya.raman@example.com');
      const withoutOwner = rolesOf(priya.username).filter((x) => x.roleName !== 'GROUP_OWNER');
      expectError(
        await call('PATCH', `/users/${priya.id}`, { body: { roles: withoutOwner } }),
        403,
        'CANNOT_DEMOTE_LAST_OWNER',
      );
      expect(priya.roles).toContainEqual({ groupId: payments, roleName: 'GROUP_OWNER' });
    });

    it('lets owners change only the scopes they own, and only for their members', async () => {
      const owner = { keys: as(f().notInProject) }; // GROUP_OWNER of search-staging, reader of platform-dev
      const sofia = userNamed('sofia.alvarez@example.com');
      const add = [...rolesOf(sofia.username), { groupId: search, roleName: 'GROUP_AUTOMATION_ADMIN' }];
      const ok = await call('PATCH', `/users/${sofia.id}`, { ...owner, body: { roles: add } });
      expect(ok.status).toBe(200);
      expect(ok.json.roles).toContainEqual({ groupId: search, roleName: 'GROUP_AUTOMATION_ADMIN' });
      const notOwned = [...add, { groupId: dev, roleName: 'GROUP_READ_ONLY' }];
      expectError(
        await call('PATCH', `/users/${sofia.id}`, { ...owner, body: { roles: notOwned } }),
        401,
        'USER_UNAUTHORIZED',
      );
      const priya = userNamed('priya.raman@example.com');
      const stranger = await call('PATCH', `/users/${priya.id}`, {
        ...owner,
        body: { roles: rolesOf(priya.username) },
      });
      expectError(stranger, 401, 'USER_UNAUTHORIZED');
    });

    it('lets a user update their own account but not raise it', async () => {
      const own = { keys: as(f().accessListAllowed) }; // lee's key, used from 127.0.0.1
      const lee = userNamed('lee.novak@example.com');
      const fewer = rolesOf(lee.username).filter((x) => x.groupId !== sim.projectIds[2]);
      const r = await call('PATCH', `/users/${lee.id}`, { ...own, body: { roles: fewer } });
      expect(r.status).toBe(200);
      expect(r.json.roles).toEqual(fewer);
      const raise = [...fewer, { groupId: payments, roleName: 'GROUP_OWNER' }];
      expectError(
        await call('PATCH', `/users/${lee.id}`, { ...own, body: { roles: raise } }),
        401,
        'USER_UNAUTHORIZED',
      );
      const global = [...fewer, { roleName: 'GLOBAL_OWNER' }];
      expectError(
        await call('PATCH', `/users/${lee.id}`, { ...own, body: { roles: global } }),
        403,
        'CANNOT_ADD_GLOBAL_ROLE',
      );
    });

    it('rejects unknown users and other profile fields', async () => {
      expectError(await call('PATCH', '/users/nobody', { body: { roles: [] } }), 404, 'INVALID_USER_ID');
      expectError(
        await call('PATCH', `/users/${'d'.repeat(24)}`, { body: { roles: [] } }),
        404,
        'USER_NOT_FOUND',
      );
      const lee = userNamed('lee.novak@example.com');
      expectError(
        await call('PATCH', `/users/${lee.id}`, { body: { roles: rolesOf(lee.username), firstName: 'L' } }),
        400,
        'INVALID_ATTRIBUTE',
      );
      expectError(await call('PATCH', `/users/${lee.id}`, { body: {} }), 400, 'MISSING_ATTRIBUTE');
    });
  });

  describe('access lists', () => {
    it('enforces the key owner’s list and records each allowed use', async () => {
      const denied = await call('GET', `/groups/${payments}/alertConfigs`, {
        keys: as(f().accessListDenied),
      });
      expectError(denied, 403, 'IP_ADDRESS_NOT_ON_ACCESS_LIST');
      const lee = userNamed('lee.novak@example.com');
      const entry = lee.accessList.find((e) => e.ipAddress === '127.0.0.1')!;
      const before = entry.count;
      expect(
        (await call('GET', `/groups/${payments}/alertConfigs`, { keys: as(f().accessListAllowed) })).status,
      ).toBe(200);
      expect(entry).toMatchObject({
        count: before + 1,
        lastUsed: '2026-03-01T12:00:00Z',
        lastUsedAddress: '127.0.0.1',
      });
    });

    it('shows a user their own list; a global owner any; others are denied', async () => {
      const lee = userNamed('lee.novak@example.com');
      const own = await call('GET', `/users/${lee.id}/accessList`, { keys: as(f().accessListAllowed) });
      expect(own.status).toBe(200);
      expect(own.json.totalCount).toBe(2);
      expect(own.json.results[0].links[0].href).toBe(`${sim.baseUrl}/users/${lee.id}/accessList/127.0.0.1`);
      const dana = f().accessListDenied.userId;
      const byOwner = await call('GET', `/users/${dana}/accessList`);
      expect(byOwner.json.results.map((e: { cidrBlock: string }) => e.cidrBlock)).toEqual([
        '10.20.0.0/16',
        '192.0.2.15/32',
      ]);
      expectError(
        await call('GET', `/users/${dana}/accessList`, { keys: as(f().accessListAllowed) }),
        401,
        'ACCESS_LIST_ACCESS_DENIED',
      );
      expectError(
        await call('GET', `/users/${lee.id}/accessList`, { keys: as(f().readOnly) }),
        401,
        'ACCESS_LIST_ACCESS_DENIED',
      );
      expectError(await call('GET', '/users/bad-id/accessList'), 404, 'INVALID_USER_ID');
      expectError(await call('GET', `/users/${'a'.repeat(24)}/accessList`), 404, 'USER_NOT_FOUND');
    });
  });

  describe('GET /users/{id} (beyond the spec)', () => {
    it('shows users to those who share a project or organization with them', async () => {
      const priya = userNamed('priya.raman@example.com');
      const r = await call('GET', `/users/${priya.id}`, { keys: as(f().readOnly) });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ id: priya.id, username: priya.username, teamIds: priya.teamIds });
      expect(r.json.links.map((l: { rel: string }) => l.rel)).toEqual([
        'self',
        'https://dbops.example/rels/accessList',
      ]);
      expect(r.json.passwordHash).toBeUndefined();
      const loner: FixtureKey = {
        id: 'f'.repeat(24),
        publicKey: 'lonerkey',
        privateKey: '00000000-1111-4222-a333-444444444444',
      };
      sim.store.data.apiKeys.push({
        ...loner,
        desc: 'dev reader',
        roles: [{ groupId: dev, roleName: 'GROUP_READ_ONLY' }],
        created: '',
      });
      expectError(await call('GET', `/users/${priya.id}`, { keys: as(loner) }), 401, 'USER_UNAUTHORIZED');
    });
  });

  describe('API keys', () => {
    it('creates an organization key that works at once and shows its private key this once', async () => {
      const r = await call('POST', `/orgs/${sim.orgId}/apiKeys`, {
        body: { desc: 'Reporting', roles: ['ORG_READ_ONLY'] },
      });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        desc: 'Reporting',
        publicKey: expect.stringMatching(/^[a-z]{8}$/),
        privateKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
        roles: [{ orgId: sim.orgId, roleName: 'ORG_READ_ONLY' }],
      });
      const projects = await call('GET', '/groups', { keys: as(r.json) });
      expect(projects.json.totalCount).toBe(sim.projectIds.length);
      const event = await call('GET', '/globalEvents?eventType=API_KEY_CREATED');
      expect(event.json.results[0]).toMatchObject({ orgId: sim.orgId, targetPublicKey: r.json.publicKey });
    });

    it('validates organization keys', async () => {
      const post = (body: unknown, options: FetchOptions = {}) =>
        call('POST', `/orgs/${sim.orgId}/apiKeys`, { body, ...options });
      expectError(await post({ desc: '', roles: ['ORG_MEMBER'] }), 400, 'INVALID_JSON_ATTRIBUTE');
      expectError(
        await post({ desc: 'x'.repeat(251), roles: ['ORG_MEMBER'] }),
        400,
        'INVALID_JSON_ATTRIBUTE',
      );
      expect((await post({ desc: 'x'.repeat(250), roles: ['ORG_MEMBER'] })).status).toBe(200);
      expectError(await post({ desc: 'k', roles: [] }), 400, 'INVALID_JSON_ATTRIBUTE');
      expectError(await post({ desc: 'k', roles: ['GROUP_OWNER'] }), 400, 'INVALID_ENUM_VALUE');
      expectError(await post({ roles: ['ORG_MEMBER'] }), 400, 'MISSING_ATTRIBUTE');
      expectError(
        await post({ desc: 'k', roles: ['ORG_MEMBER'] }, { keys: as(f().readOnly) }),
        401,
        'USER_UNAUTHORIZED',
      );
      expectError(
        await call('POST', `/orgs/${'9'.repeat(24)}/apiKeys`, { body: { desc: 'k', roles: ['ORG_MEMBER'] } }),
        404,
        'ORG_NOT_FOUND',
      );
      expectError(
        await call('POST', '/orgs/bad/apiKeys', { body: { desc: 'k', roles: ['ORG_MEMBER'] } }),
        404,
        'INVALID_ORG_ID',
      );
    });

    it('creates a project key with project roles plus organization membership', async () => {
      const r = await call('POST', `/groups/${payments}/apiKeys`, {
        body: { desc: 'Pager bridge', roles: ['GROUP_READ_ONLY', 'GROUP_MONITORING_ADMIN'] },
      });
      expect(r.status).toBe(200);
      expect(r.json.roles).toEqual([
        { groupId: payments, orgId: sim.orgId, roleName: 'GROUP_READ_ONLY' },
        { groupId: payments, orgId: sim.orgId, roleName: 'GROUP_MONITORING_ADMIN' },
        { orgId: sim.orgId, roleName: 'ORG_MEMBER' },
      ]);
      const alert = sim.store.data.alerts.find((a) => a.groupId === payments && a.status === 'OPEN')!;
      const ack = await call('PATCH', `/groups/${payments}/alerts/${alert.id}`, {
        keys: as(r.json),
        body: { acknowledgedUntil: '2026-03-02T00:00:00Z' },
      });
      expect(ack.status).toBe(200);
      expectError(
        await call('GET', `/groups/${search}/alertConfigs`, { keys: as(r.json) }),
        401,
        'NOT_IN_GROUP',
      );
      const added = await call('GET', `/groups/${payments}/events?eventType=API_KEY_ADDED_TO_GROUP`);
      expect(added.json.results[0]).toMatchObject({ targetPublicKey: r.json.publicKey, groupId: payments });

      const descOnly = await call('POST', `/groups/${payments}/apiKeys`, { body: { desc: 'Reader' } });
      expect(descOnly.json.roles[0]).toEqual({
        groupId: payments,
        orgId: sim.orgId,
        roleName: 'GROUP_READ_ONLY',
      });
      const rolesOnly = await call('POST', `/groups/${payments}/apiKeys`, {
        body: { roles: ['GROUP_OWNER'] },
      });
      expect(rolesOnly.json.desc).toEqual(expect.any(String));
    });

    it('validates project keys and who may create them', async () => {
      const post = (body: unknown, options: FetchOptions = {}) =>
        call('POST', `/groups/${payments}/apiKeys`, { body, ...options });
      expectError(await post({}), 400, 'MISSING_ATTRIBUTE');
      expectError(await post({ roles: [] }), 400, 'INVALID_JSON_ATTRIBUTE');
      expectError(await post({ roles: ['ORG_OWNER'] }), 400, 'INVALID_ROLE_FOR_GROUP');
      expectError(await post({ roles: ['NOPE'] }), 400, 'INVALID_ENUM_VALUE');
      expectError(await post({ desc: 'k' }, { keys: as(f().monitoringAdmin) }), 401, 'USER_UNAUTHORIZED');
      expectError(await post({ desc: 'k' }, { keys: as(f().notInProject) }), 401, 'NOT_IN_GROUP');
    });
  });
});
