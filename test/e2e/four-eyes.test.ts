// Trust, fourth round: four eyes on every channel, a link that only shows, revocation and scopes that take
// effect at once, pending caps nobody can dodge, and a readiness probe that costs the platform nothing. Each
// block reproduces one finding against the real server, clients of both eras and the simulator.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovalService } from '../../src/approval/index.js';
import { createIdentity, type Identity, type Person } from '../../src/identity/index.js';
import { silentLogger } from '../../src/log.js';
import { readiness } from '../../src/mcp/cli/readiness.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { raw } from '../helpers/http.js';
import { startTestHttp, startTestServer, type TestServer } from '../helpers/mcp.js';
import { client, page, post, signIn, teamServer } from '../helpers/team.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
});
afterAll(async () => {
  await sim?.close();
});

const keyArgs = (i: number) => ({ desc: `four-eyes key ${i}-${Math.random()}`, roles: ['GROUP_READ_ONLY'] });
const keysIn = (desc: string) => sim.store.data.apiKeys.filter((k) => k.desc === desc).length;

describe('finding 1: four eyes on every channel', () => {
  it("the server's instructions tell the model the asker cannot approve, only where approvers are set", async () => {
    const withApprovers = await startTestServer({ sim, config: { approvers: ['bob'] } });
    const without = await startTestServer({ sim });
    try {
      expect(withApprovers.client.getInstructions()).toContain(
        'need an approver other than the person who asked (DBOPS_APPROVERS)',
      );
      expect(without.client.getInstructions()).not.toContain('DBOPS_APPROVERS');
    } finally {
      await withApprovers.close();
      await without.close();
    }
  });

  for (const era of ['v1', 'pinned'] as const)
    it(`${era}: the asker's own client is never asked; the change waits for an approver`, async () => {
      // Disabling an alert configuration left out of DBOPS_FOUR_EYES: the asker's own consent.
      const s = await teamServer(sim, { config: { fourEyes: ['grant', 'key', 'deletion'] } });
      const alice = await client(era, s.http.url, () => s.people.alice.token);
      try {
        const args = keyArgs(1);
        const r = await alice.call('create_project_api_key', args);
        expect(alice.asked).toEqual([]);
        expect(r.structured?.outcome).toBe('approval_pending');
        expect(r.text).toContain('an approver other than the person who asked');
        expect(keysIn(args.desc)).toBe(0);
        // A change that needs only the asker's consent still asks her in her own client.
        const cfg = sim.store.data.alertConfigs.find((c) => c.groupId === sim.projectIds[0] && c.enabled)!;
        const off = await alice.call('set_alert_config_enabled', { alertConfigId: cfg.id, enabled: false });
        expect(alice.asked.length).toBe(1);
        expect(off.structured?.outcome).toBe('executed');
      } finally {
        await alice.close();
        await s.close();
      }
    });

  it('a confirmation token from the asker does not run a four-eyes change; the audit shows who decided', async () => {
    const s = await teamServer(sim, { config: { confirmVia: ['token'] } });
    const alice = await client('pinned', s.http.url, () => s.people.alice.token);
    try {
      const args = keyArgs(2);
      // Only tokens are allowed: an approver cannot be reached, so nothing is asked and nothing runs.
      const r = await alice.call('create_project_api_key', args);
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/mints an API key: one of the approvers \(DBOPS_APPROVERS\)/);
      expect(r.text).toContain('approval page, which is not enabled here');
      // A token minted for exactly these arguments (as a server without approvers would hand out) is refused.
      const { argsHash } = await import('../../src/policy/canonical.js');
      const withProject = { ...args, projectId: sim.projectIds[0] };
      const token = s.t.deps.signer.issue(
        'create_project_api_key',
        argsHash('create_project_api_key', withProject),
        'alice',
      );
      const again = await alice.call('create_project_api_key', {
        ...withProject,
        confirmationToken: token.token,
      });
      expect(again.isError).toBe(true);
      expect(again.text).toContain('cannot approve it, so nothing changed');
      expect(keysIn(args.desc)).toBe(0);
      const audit = readFileSync(s.t.config.auditLog, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((e) => e.tool === 'create_project_api_key');
      expect(audit.at(-1)).toMatchObject({
        outcome: 'rejected',
        requester: 'alice',
        error: 'decider four-eyes',
      });
    } finally {
      await alice.close();
      await s.close();
    }
  });

  it('where people are not told apart (one shared token), a four-eyes change is refused with the reason', async () => {
    const t = await startTestServer({ sim, config: { approvers: ['bob'] } });
    const http = await startTestHttp(t.deps, { token: 'one-shared-token-0123456789' });
    const c = await client('pinned', http.url, () => 'one-shared-token-0123456789');
    try {
      const args = keyArgs(3);
      const r = await c.call('create_project_api_key', args);
      expect(r.isError).toBe(true);
      expect(r.text).toContain('cannot tell people apart');
      expect(c.asked).toEqual([]);
      expect(keysIn(args.desc)).toBe(0);
    } finally {
      await c.close();
      await http.close();
      await t.close();
    }
  });
});

describe('finding 2: the link in the answer shows the request; deciding needs a sign-in', () => {
  it('a browser with only the link cannot approve, even posting the form of a signed-in page', async () => {
    const s = await teamServer(sim);
    // A client that cannot elicit: the page is the channel, whatever the change.
    const alice = await client('pinned', s.http.url, () => s.people.alice.token, 'no-elicit', false);
    try {
      // A deletion: four eyes, so the approval page is the channel though alice's client can elicit.
      const window = sim.store.data.maintenanceWindows.find(
        (w) => w.groupId === sim.projectIds[0] && Date.parse(w.endDate) > Date.now(),
      )!;
      const pending = await alice.call('delete_maintenance_window', { maintenanceWindowId: window.id });
      const url = String((pending.structured?.confirmation as { url?: string } | undefined)?.url);
      expect(url).toContain('?as=');
      const seen = await page(url);
      expect(seen.r.status).toBe(200);
      expect(seen.r.body).toContain('This link shows the request only');
      expect(seen.r.body).not.toContain('name="decision"');
      // The form a signed-in page would have: posted with the link alone, it decides nothing.
      const bobCookie = await signIn(s.http.origin, s.people.bob.token);
      const asBob = await page(url.split('?')[0] as string, bobCookie);
      const refused = await post(url, 'approve', asBob.csrf, [asBob.csrfCookie]);
      expect(refused.status).toBe(403);
      const id = String(
        (pending.structured?.confirmation as { approvalId?: string } | undefined)?.approvalId,
      );
      expect((await s.approvals.channel.get(id))?.state).toBe('pending');
      // Bob, signed in as himself, decides.
      const ok = await post(url.split('?')[0] as string, 'approve', asBob.csrf, [
        asBob.csrfCookie,
        bobCookie,
      ]);
      expect(ok.status).toBe(303);
      expect((await s.approvals.channel.get(id))?.state).toBe('approved');
    } finally {
      await alice.close();
      await s.close();
    }
  });
});

describe('finding 3: removing someone stops them at once', () => {
  it('an approver removed from the tokens file decides nothing more, whatever cookie they hold', async () => {
    const s = await teamServer(sim);
    const alice = await client('v1', s.http.url, () => s.people.alice.token, 'no-elicit', false);
    try {
      const pending = await alice.call('create_project_api_key', keyArgs(4));
      const id = String(
        (pending.structured?.confirmation as { approvalId?: string } | undefined)?.approvalId,
      );
      const url = `${s.http.origin}/approvals/${id}`;
      const bobCookie = await signIn(s.http.origin, s.people.bob.token);
      const before = await page(url, bobCookie);
      expect(before.r.body).toContain('name="decision" value="approve"');
      s.removeFromFile('bob');
      const after = await post(url, 'approve', before.csrf, [before.csrfCookie, bobCookie]);
      expect(after.status).not.toBe(303);
      expect((await s.approvals.channel.get(id))?.state).toBe('pending');
      expect((await page(url, bobCookie)).r.body).not.toContain('name="decision"');
    } finally {
      await alice.close();
      await s.close();
    }
  });
});

describe("finding 4: a token's scopes are read on every request", () => {
  it('a 2025 session opened with a write token cannot change through a later read-only token', async () => {
    // Two tokens of the same person: one with the write scope, one without (as an OAuth issuer would mint).
    const tokens: Record<string, Person> = {
      'alice-write-token-0123456789': { id: 'alice', via: 'oauth', canWrite: true },
      'alice-read-token-01234567890': { id: 'alice', via: 'oauth', canWrite: false },
    };
    const base = createIdentity({ oauthScopes: [] }, silentLogger);
    const identity: Identity = {
      ...base,
      mode: 'token-file',
      async verify(h) {
        const p = tokens[(h ?? '').replace(/^Bearer /, '')];
        if (!p) throw new Error('unknown token');
        return p;
      },
    };
    const s = await teamServer(sim, { identity, approvers: [] });
    let token = 'alice-write-token-0123456789';
    const alice = await client('v1', s.http.url, () => token);
    try {
      const alert = sim.store.data.alerts.find(
        (a) => a.groupId === sim.projectIds[0] && a.status === 'OPEN',
      )!;
      token = 'alice-read-token-01234567890';
      const r = await alice.call('acknowledge_alert', { alertId: alert.id, forHours: 1 });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('lacks the');
      expect(sim.store.data.alerts.find((a) => a.id === alert.id)?.acknowledgedUntil).toBe(
        alert.acknowledgedUntil,
      );
    } finally {
      await alice.close();
      await s.close();
    }
  });
});

describe('finding 6: /readyz costs the platform at most one request per 30 s', () => {
  it('a flood of anonymous probes leaves the tools their budget', async () => {
    const t = await startTestServer({ sim, config: { rateLimit: 30 } });
    const http = await startTestHttp(t.deps, {
      token: 'readyz-test-token-0123456789',
      ready: readiness({ deps: t.deps } as never),
    });
    try {
      const c = await client('pinned', http.url, () => 'readyz-test-token-0123456789');
      expect((await c.call('list_projects', {})).isError).toBe(false);
      const before = t.deps.api.stats.requests;
      const answers = await Promise.all(Array.from({ length: 60 }, () => raw(`${http.origin}/readyz`)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      // Anonymous: ready or not, nothing more.
      expect(JSON.parse(answers[0]!.body)).toEqual({ status: 'ready' });
      expect(t.deps.api.stats.requests - before).toBe(1);
      // The tools' budget (30 a minute) is untouched by the probes.
      for (let i = 0; i < 5; i++)
        expect((await c.call('list_hosts', { itemsPerPage: 1 + i })).isError).toBe(false);
      await c.close();
    } finally {
      await http.close();
      await t.close();
    }
  });
});

describe('finding 7: where people are not told apart, renaming the client buys no more of the queue', () => {
  it('sessionless callers are capped per address', async () => {
    const t: TestServer = await startTestServer({ sim, config: { confirmVia: ['approval-page'] } });
    const approvals = createApprovalService({ ttlMs: 600_000, audit: t.deps.audit, logger: t.deps.logger });
    const http = await startTestHttp(
      { ...t.deps, approvals: approvals.channel },
      { routes: approvals.routes },
    );
    approvals.useOrigin(http.origin);
    try {
      const outcomes: string[] = [];
      let last = '';
      for (let i = 0; i < 22; i++) {
        const c = await client('pinned', http.url, () => undefined, `renamed-${i}`);
        const r = await c.call('create_project_api_key', keyArgs(100 + i));
        outcomes.push(r.isError ? 'error' : String(r.structured?.outcome));
        last = r.text;
        await c.close();
      }
      expect(outcomes.filter((o) => o === 'approval_pending').length).toBe(20);
      expect(outcomes.slice(20)).toEqual(['error', 'error']);
      expect(last).toMatch(
        /20 approvals from this address \(.+\) are already waiting \(the cap per address\)/,
      );
    } finally {
      await http.close();
      await approvals.close();
      await t.close();
    }
  });
});
