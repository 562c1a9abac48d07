// Users and API keys end to end: secrets minted by the platform end up in 0600 files, never in the answer.
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { startTestServer, type TestServer, withDemoServer } from '../helpers/mcp.js';

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let t: TestServer;
withDemoServer((s, server) => {
  sim = s;
  t = server;
});

async function confirmed(server: TestServer, name: string, args: Record<string, unknown>) {
  const first = await server.call(name, args);
  expect(first.structured?.outcome, first.text).toBe('confirmation_required');
  const token = (first.structured!.confirmation as { confirmationToken: string }).confirmationToken;
  return { preview: first, result: await server.call(name, { ...args, confirmationToken: token }) };
}

type Kept = { publicKey: string; privateKey: string; privateKeyFile: string };

describe('API keys', () => {
  it('mints an organization key after confirmation; the private key is only in the 0600 file', async () => {
    const { preview, result } = await confirmed(t, 'create_org_api_key', {
      desc: 'Nightly report exporter',
      roles: ['ORG_READ_ONLY'],
    });
    // The organization by name: GET /orgs/{id} answers it.
    const org = sim.store.data.orgs.find((o) => o.id === sim.orgId)!;
    expect(preview.text).toContain(
      `Create an API key in organization \`${org.name}\` (${sim.orgId}) with roles ORG_READ_ONLY`,
    );
    expect(result.isError, result.text).toBe(false);
    const key = (result.structured!.result as { record: Kept }).record;
    const stored = sim.store.data.apiKeys.find((k) => k.publicKey === key.publicKey)!;
    expect(result.text + JSON.stringify(result.structured)).not.toContain(stored.privateKey);
    expect(key.privateKey).toBe(`******${stored.privateKey.slice(-4)}`);
    expect(readFileSync(key.privateKeyFile, 'utf8').trim()).toBe(stored.privateKey);
    expect(statSync(key.privateKeyFile).mode & 0o777).toBe(0o600);
    expect(result.text).toContain(key.privateKeyFile);
  });

  it('mints a project key with project roles', async () => {
    const { result } = await confirmed(t, 'create_project_api_key', { roles: ['GROUP_READ_ONLY'] });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toMatch(
      new RegExp(`GROUP_READ_ONLY @ project \`[^\`]+\` \\(${sim.projectIds[0]}\\)`),
    );
  });

  it('asks for desc or roles before anything else', async () => {
    const r = await t.call('create_project_api_key', {});
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Give desc, roles or both');
  });

  it('reveals the private key only when the operator chose so', async () => {
    const open = await startTestServer({ sim, config: { revealSecrets: true, confirm: 'never' } });
    try {
      const r = await open.call('create_org_api_key', { desc: 'Shown once', roles: ['ORG_MEMBER'] });
      const key = (r.structured!.result as { record: Kept }).record;
      const stored = sim.store.data.apiKeys.find((k) => k.publicKey === key.publicKey)!;
      expect(key.privateKey).toBe(stored.privateKey);
      expect(r.text).toContain('DBOPS_REVEAL_SECRETS=true');
    } finally {
      await open.close();
    }
  });
});

describe('users', () => {
  it('creates a user without echoing the password and names the roles waiting for an invitation', async () => {
    const password = 'Str0ng!pass-word';
    const { preview, result: r } = await confirmed(t, 'create_user', {
      username: 'new.person@example.com',
      password,
      emailAddress: 'new.person@example.com',
      mobileNumber: '+15555550199',
      firstName: 'New',
      lastName: 'Person',
      roles: [{ groupId: sim.projectIds[0], roleName: 'GROUP_READ_ONLY' }],
    });
    expect(r.isError, r.text).toBe(false);
    for (const shown of [preview, r])
      expect(shown.text + JSON.stringify(shown.structured)).not.toContain(password);
    expect(r.text).toContain(
      `Invited, applies once the user accepts: GROUP_READ_ONLY @ project \`${sim.store.data.projects[0]!.name}\` (${sim.projectIds[0]}).`,
    );
  });

  it('shows the platform refusing a weak password', async () => {
    const { result: r } = await confirmed(t, 'create_user', {
      username: 'weak@example.com',
      password: 'password',
      emailAddress: 'weak@example.com',
      mobileNumber: '+15555550198',
      firstName: 'Weak',
      lastName: 'Password',
      roles: [],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('WEAK_PASSWORD');
    expect(r.text).not.toContain('"password"');
  });

  it('creates a user without a password in the chat: a strong one goes to a 0600 file, the answer names the file only', async () => {
    const { preview, result } = await confirmed(t, 'create_user', {
      username: 'ines.moreau@example.com',
      emailAddress: 'ines.moreau@example.com',
      mobileNumber: '+15555550177',
      firstName: 'Ines',
      lastName: 'Moreau',
      roles: [],
    });
    expect(preview.text).toMatch(/generated and written to a 0600 file/);
    expect(result.isError, result.text).toBe(false);
    const file = /password is in (\S+) \(readable/.exec(result.text)?.[1] as string;
    expect(file).toBeTruthy();
    const generated = readFileSync(file, 'utf8').trim();
    expect(generated).toMatch(/^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)(?=.*[^A-Za-z0-9]).{24}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(result.text + JSON.stringify(result.structured)).not.toContain(generated);
    expect(sim.store.data.users.some((u) => u.username === 'ines.moreau@example.com')).toBe(true);
  });

  it('find_user finds Priya by part of her name; every role whole and named by project and organization', async () => {
    const priya = sim.store.data.users.find((u) => u.username === 'priya.raman@example.com')!;
    const org = sim.store.data.orgs.find((o) => o.id === sim.orgId)!;
    const r = await t.call('find_user', { query: 'priya' });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toMatch(/^# People matching "priya" — 1 found among the members of \d+ projects/);
    expect(r.text).toContain(priya.id);
    expect(r.text).toContain('**Priya Raman**');
    // Each role on its own line, never cut: the project by name and id, the organization by name.
    for (const role of priya.roles) {
      const project = sim.store.data.projects.find((p) => p.id === role.groupId);
      expect(r.text).toContain(
        project
          ? `- ${role.roleName} @ project ${project.name} (${project.id})`
          : `- ${role.roleName} @ org ${org.name} (${org.id})`,
      );
    }
    expect(r.text).not.toContain('…');
    expect(r.text).toMatch(/^Next: update_user_roles /m);
    // Part of an email or a last name finds people too; case does not matter.
    expect((await t.call('find_user', { query: 'RAMAN' })).text).toContain(priya.id);
    expect((await t.call('find_user', { query: 'priya.raman@' })).text).toContain(priya.id);
  });

  it('find_user: two people match, both listed and none picked; a project’s members; unknowns named', async () => {
    const two = await t.call('find_user', { query: 'example.com' });
    expect(two.isError, two.text).toBe(false);
    expect(two.text).toContain('**Priya Raman**');
    expect(two.text).toContain('**Marcus Chen**');
    expect(two.text).toMatch(/nothing is changed on a guess/);
    const staging = sim.store.data.projects.find((p) => p.name === 'search-staging')!;
    const members = await t.call('find_user', { projectId: staging.id });
    expect(members.isError, members.text).toBe(false);
    expect(members.text).toContain('# Members of project `search-staging`');
    expect(members.text).toContain('Sofia Alvarez');
    // Several of query, username and userId: which was meant is unclear, so none is guessed.
    expect((await t.call('find_user', { query: 'a', userId: staging.id })).text).toMatch(/not several/);
    // An exact username that does not exist is searched for as part of one, and the answer says what it sought.
    const part = await t.call('find_user', { username: 'priya' });
    expect(part.isError, part.text).toBe(false);
    expect(part.text).toContain('No user has exactly the username "priya"');
    expect(part.text).toContain('**Priya Raman**');
    const unknown = await t.call('find_user', { username: 'nobody@example.com' });
    expect(unknown.text).toContain('No one among the members of');
    expect(unknown.text).toContain('"nobody@example.com"');
    expect(unknown.text).not.toMatch(/byName/);
  });

  it('mode add: gives Priya read access to search-staging and keeps everything she had, saying so first', async () => {
    const priya = sim.store.data.users.find((u) => u.username === 'priya.raman@example.com')!;
    const before = priya.roles.map((r) => `${r.roleName}@${r.groupId ?? r.orgId ?? ''}`);
    const staging = sim.store.data.projects.find((p) => p.name === 'search-staging')!;
    const grant = { groupId: staging.id, roleName: 'GROUP_READ_ONLY' };
    const { preview, result } = await confirmed(t, 'update_user_roles', {
      userId: priya.id,
      mode: 'add',
      roles: [grant],
    });
    // Outside the data fence: what she gains, and that nothing is lost.
    const outside = preview.text.replace(/<data-[0-9a-f]{8}>[\s\S]*?<\/data-[0-9a-f]{8}>/g, '');
    expect(outside).toContain(`Gains: GROUP_READ_ONLY @ project \`search-staging\` (${staging.id})`);
    expect(outside).toContain('Loses: nothing');
    expect(result.isError, result.text).toBe(false);
    const after = sim.store.data.users
      .find((u) => u.id === priya.id)!
      .roles.map((r) => `${r.roleName}@${r.groupId ?? r.orgId ?? ''}`);
    // Everything she had is kept; the new role is hers or, where the platform invites first, pending.
    expect(after).toEqual(expect.arrayContaining(before));
    expect(result.text).toContain(staging.id);
  });

  it('update_user_roles takes a project name for groupId, resolved before the preview; unknown and ambiguous names refused first', async () => {
    const priya = sim.store.data.users.find((u) => u.username === 'priya.raman@example.com')!;
    const staging = sim.store.data.projects.find((p) => p.name === 'search-staging')!;
    const byName = await t.call('update_user_roles', {
      userId: priya.id,
      mode: 'add',
      roles: [{ roleName: 'GROUP_READ_ONLY', groupId: 'search-staging' }],
    });
    expect(byName.structured?.outcome, byName.text).toBe('confirmation_required');
    const outside = byName.text.replace(/<data-[0-9a-f]{8}>[\s\S]*?<\/data-[0-9a-f]{8}>/g, '');
    expect(outside).toContain(`Gains: GROUP_READ_ONLY @ project \`search-staging\` (${staging.id})`);
    // Unknown: refused before anyone is asked, naming what was given and what exists.
    const unknown = await t.call('update_user_roles', {
      userId: priya.id,
      mode: 'add',
      roles: [{ roleName: 'GROUP_READ_ONLY', groupId: 'search-stagin' }],
    });
    expect(unknown.isError).toBe(true);
    expect(unknown.structured?.outcome).not.toBe('confirmation_required');
    expect(unknown.text).toContain('No project named "search-stagin"');
    expect(unknown.text).toContain(`search-staging (${staging.id}`);
    // Two projects share the name: both listed, nothing guessed.
    const twin = { ...staging, id: 'aaaaaaaaaaaaaaaaaaaaaaaa', tags: [] };
    sim.store.data.projects.push(twin);
    try {
      const ambiguous = await t.call('update_user_roles', {
        userId: priya.id,
        mode: 'add',
        roles: [{ roleName: 'GROUP_READ_ONLY', groupId: 'search-staging' }],
      });
      expect(ambiguous.isError).toBe(true);
      expect(ambiguous.text).toContain('2 projects are named "search-staging"');
      expect(ambiguous.text).toContain(staging.id);
      expect(ambiguous.text).toContain(twin.id);
    } finally {
      sim.store.data.projects.splice(sim.store.data.projects.indexOf(twin), 1);
    }
  });

  it('mode remove: revokes only the given role and warns on its own line when it is the last one in a project or an owner role', async () => {
    const marcus = sim.store.data.users.find((u) => u.username === 'marcus.chen@example.com')!;
    const analytics = marcus.roles.find((r) => r.roleName === 'GROUP_MONITORING_ADMIN')!;
    const r = await t.call('update_user_roles', {
      userId: marcus.id,
      mode: 'remove',
      roles: [{ groupId: analytics.groupId, roleName: 'GROUP_MONITORING_ADMIN' }],
    });
    expect(r.structured?.outcome).toBe('confirmation_required');
    expect(r.text).toMatch(
      new RegExp(`Loses: GROUP_MONITORING_ADMIN @ project \`[^\`]+\` \\(${analytics.groupId}\\)`),
    );
    expect(r.text).toMatch(
      new RegExp(`^- Warning: .*last role in project \`[^\`]+\` \\(${analytics.groupId}\\)`, 'm'),
    );
    const org = await t.call('update_user_roles', {
      userId: marcus.id,
      mode: 'remove',
      roles: [{ orgId: sim.orgId, roleName: 'ORG_MEMBER' }],
    });
    expect(org.text).toMatch(/^- Warning: .*organization membership/m);
  });

  it('changes roles after a preview of what is added and removed', async () => {
    const priya = sim.store.data.users.find((u) => u.username === 'priya.raman@example.com')!;
    const removed = priya.roles.find((r) => r.roleName === 'GROUP_READ_ONLY')!;
    const keep = priya.roles.filter((r) => r !== removed);
    const roles = [...keep, { roleName: 'GLOBAL_READ_ONLY' }];
    const { preview, result } = await confirmed(t, 'update_user_roles', {
      userId: priya.id,
      mode: 'replace',
      roles,
    });
    expect(preview.text).toContain(`roles added: (none) → GLOBAL_READ_ONLY (global)`);
    expect(preview.text).toMatch(
      new RegExp(`roles removed: GROUP_READ_ONLY @ project \`[^\`]+\` \\(${removed.groupId}\\) → \\(none\\)`),
    );
    expect(result.isError, result.text).toBe(false);
    const after = sim.store.data.users.find((u) => u.id === priya.id)!.roles.map((r) => r.roleName);
    expect(after).toContain('GLOBAL_READ_ONLY');
    expect(after).not.toContain('GROUP_READ_ONLY');
  });

  it('answers an unknown user in the preview, before any change', async () => {
    const r = await t.call('update_user_roles', {
      userId: 'ffffffffffffffffffffffff',
      mode: 'replace',
      roles: [],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('USER_NOT_FOUND');
  });

  it("reads the calling key's own user's access list, and explains a refusal for another user", async () => {
    const key = sim.store.fixtures!.accessListAllowed;
    const own = await startTestServer({
      sim,
      config: { publicKey: key.publicKey, privateKey: key.privateKey },
    });
    try {
      const r = await own.call('get_user_access_list', { userId: key.userId });
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toMatch(/\| 127\.0\.0\.1(\/32)? \|/);
      const other = sim.store.fixtures!.accessListDenied.userId;
      const denied = await own.call('get_user_access_list', { userId: other });
      expect(denied.isError).toBe(true);
      expect(denied.text).toMatch(/ACCESS_LIST_ACCESS_DENIED|not authorized/);
    } finally {
      await own.close();
    }
  });

  it('creates further users through the first-user endpoint without a key', async () => {
    const { result: r } = await confirmed(t, 'create_first_user', {
      username: 'second.admin@example.com',
      password: 'An0ther!secret',
      firstName: 'Second',
      lastName: 'Admin',
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain('No API key was created');
  });
});

describe('first user of a fresh installation', () => {
  it('keeps the GLOBAL_OWNER key of the first user in a file', async () => {
    const empty = await startSimulator({ dataset: 'empty', port: 0 });
    const fresh = await startTestServer({
      sim: empty,
      config: { publicKey: 'unused', privateKey: 'unused', projectId: undefined, orgId: undefined },
    });
    try {
      const { result: r } = await confirmed(fresh, 'create_first_user', {
        username: 'root@example.com',
        password: 'F1rst!owner-pass',
        firstName: 'Root',
        lastName: 'Owner',
        accessList: ['127.0.0.1'],
      });
      expect(r.isError, r.text).toBe(false);
      const key = (r.structured!.result as { programmaticApiKey: Kept }).programmaticApiKey;
      const stored = empty.store.data.apiKeys.find((k) => k.publicKey === key.publicKey)!;
      expect(r.text + JSON.stringify(r.structured)).not.toContain(stored.privateKey);
      expect(r.text).not.toContain('F1rst!owner-pass');
      expect(readFileSync(key.privateKeyFile, 'utf8').trim()).toBe(stored.privateKey);
      expect(r.text).toContain('GLOBAL_OWNER (global)');
    } finally {
      await fresh.close();
      await empty.close();
    }
  });
});

describe('people without a default project', () => {
  // Found by the bench: with no DBOPS_PROJECT_ID set, a search by name was refused for want of a project it
  // does not need (projectId there means "list this project's members", one choice among four).
  it('finds a person by part of a name with no DBOPS_PROJECT_ID set', async () => {
    const bare = await startTestServer({ sim, config: { projectId: undefined } });
    try {
      const r = await bare.call('find_user', { query: 'priya' });
      const priya = sim.store.data.users.find((u) => u.username.includes('priya'))!;
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toContain(priya.username);
      const none = await bare.call('find_user', {});
      expect(none.isError).toBe(true);
      expect(none.text).toContain('projectId is required');
    } finally {
      await bare.close();
    }
  });
});

describe('secrets outside the answers', () => {
  it('keeps minted private keys and passwords out of the logs and the audit log', async () => {
    const password = 'An0ther!secret-pass';
    await confirmed(t, 'create_org_api_key', { desc: 'Log check', roles: ['ORG_MEMBER'] });
    await confirmed(t, 'create_user', {
      username: 'log.check@example.com',
      password,
      emailAddress: 'log.check@example.com',
      mobileNumber: '+15555550100',
      firstName: 'Log',
      lastName: 'Check',
      roles: [],
    });
    const audit = readFileSync(t.config.auditLog, 'utf8');
    const logs = t.logLines.join('');
    expect(audit).toContain('create_org_api_key');
    expect(logs.length).toBeGreaterThan(0);
    const secrets = [password, t.config.privateKey!, ...sim.store.data.apiKeys.map((k) => k.privateKey)];
    for (const secret of secrets) {
      expect(audit, 'audit log').not.toContain(secret);
      expect(logs, 'logs').not.toContain(secret);
    }
  });
});
