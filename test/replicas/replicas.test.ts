// Many replicas, proven with real parts: a real redis-server, three server processes on loopback sharing it
// and DBOPS_TOKEN_SECRET, a plain round-robin proxy in front (no affinity), the simulator behind. Consent
// and single use must hold whichever replica a request lands on, when a replica is killed, and while the
// store restarts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintNamedToken } from '../../src/identity/tokens.js';
import { startSimulator } from '../../src/simulator/index.js';
import { type AnyClient, connect, disableArgs, flows, isEnabled, sleep, until } from '../helpers/eras.js';
import { decide, pageForm, raw } from '../helpers/http.js';
import { noRedis, startRedis, type TestRedis } from '../helpers/redis.js';
import { type ReplicaSet, startReplicas } from '../helpers/replicas.js';
import type { Simulator } from '../helpers/sim.js';
import { client as teamClient } from '../helpers/team.js';

let redis: TestRedis;
let sim: Simulator;
beforeAll(async () => {
  if (noRedis) return;
  redis = await startRedis({ persist: true });
  sim = await startSimulator({ dataset: 'demo', port: 0 });
});
afterAll(async () => {
  await sim?.close();
  await redis?.stop();
});

/** The replica that answered the last request matching `match`. */
const servedBy = (set: ReplicaSet, match: (h: ReplicaSet['hops'][number]) => boolean) =>
  [...set.hops].reverse().find(match)?.replica;
const toolCall = (tool: string) => (h: ReplicaSet['hops'][number]) =>
  h.rpc === 'tools/call' && h.tool === tool;

/** Three replicas and a 2026-07-28 client through the proxy, for the tests of one describe block. */
function useReplicas(env?: Record<string, string>) {
  const use = {} as { set: ReplicaSet; c: AnyClient };
  beforeAll(async () => {
    use.set = await startReplicas({ n: 3, redisUrl: redis.url, sim, ...(env ? { env } : {}) });
    use.c = await connect('pinned', { url: use.set.url });
  });
  afterAll(async () => {
    await use.c?.close();
    await use.set?.close();
  });
  return use;
}

describe.skipIf(noRedis)('three replicas behind a round-robin proxy, one Redis', () => {
  const use = useReplicas();

  it('a call started on one replica, approved on the page of another, executes exactly once through a third', async () => {
    const { set, c } = use;
    const args = await disableArgs(c);
    const before = set.audited('executed').length;
    set.next(0);
    const first = await c.call('set_alert_config_enabled', args);
    expect(first.structured?.outcome).toBe('approval_pending');
    const { approvalId, url } = (first.structured?.confirmation ?? {}) as { approvalId: string; url: string };
    expect(url.startsWith(`${set.origin}/approvals/`)).toBe(true); // the balancer's address, not a replica's
    const started = servedBy(set, toolCall('set_alert_config_enabled'));

    set.next(0); // the page from replica 0, the decision posted to replica 1
    expect((await decide(url)).status).toBe(303);
    const decided = servedBy(set, (h) => h.method === 'POST' && h.path.startsWith('/approvals/'));

    set.next(2);
    const done = await c.call('set_alert_config_enabled', { ...args, approvalId });
    expect(done.structured?.outcome).toBe('executed');
    const executed = servedBy(set, toolCall('set_alert_config_enabled'));
    expect(new Set([started, decided, executed]).size).toBe(3);

    // Resumed again through every replica at once: refused everywhere, the change ran once.
    const again = await Promise.all(
      [0, 1, 2].map(() => c.call('set_alert_config_enabled', { ...args, approvalId })),
    );
    for (const r of again) expect(r.text).toMatch(/already used/);
    expect(set.audited('executed').length - before).toBe(1);
    expect(await isEnabled(c, args.alertConfigId)).toBe(false);
    await c.call('set_alert_config_enabled', { ...args, enabled: true });
  });

  it('an approval resumed through three replicas at the same moment executes once', async () => {
    const { set, c } = use;
    const args = await disableArgs(c);
    const first = await c.call('set_alert_config_enabled', args);
    const { approvalId, url } = (first.structured?.confirmation ?? {}) as { approvalId: string; url: string };
    await decide(url);
    const before = set.audited('executed').length;
    const results = await Promise.all(
      [0, 1, 2].map(() => c.call('set_alert_config_enabled', { ...args, approvalId })),
    );
    expect(results.filter((r) => r.structured?.outcome === 'executed')).toHaveLength(1);
    expect(results.filter((r) => /already used/.test(r.text))).toHaveLength(2);
    expect(set.audited('executed').length - before).toBe(1);
    await c.call('set_alert_config_enabled', { ...args, enabled: true });
  });

  it('the pending cap counts the approvals of every replica', async () => {
    const { set, c } = use;
    // The approval list is one, whichever replica serves the page.
    const args = await disableArgs(c);
    const first = await c.call('set_alert_config_enabled', args);
    const { approvalId } = (first.structured?.confirmation ?? {}) as { approvalId: string };
    for (const i of [0, 1, 2]) {
      set.next(i);
      const list = await raw(`${set.origin}/approvals`, 'GET', { host: new URL(set.origin).host });
      expect(list.body).toContain(approvalId);
    }
  });
  // The client suites on the same three replicas: every era lists, calls, hears a feed change and goes
  // through each consent channel behind a proxy with no affinity.
  flows(
    'both eras through the round-robin proxy',
    (era, elicit) => connect(era, { url: use.set.url }, elicit),
    ['pinned', 'auto', 'v1'],
  );
});

describe.skipIf(noRedis)('a replica killed mid-flow', () => {
  it('loses no decision: created on a replica that dies, decided on one killed right after, executed on the last', async () => {
    const set = await startReplicas({ n: 3, redisUrl: redis.url, sim });
    const c = await connect('pinned', { url: set.url });
    try {
      const args = await disableArgs(c);
      set.next(0);
      const first = await c.call('set_alert_config_enabled', args);
      const { approvalId, url } = (first.structured?.confirmation ?? {}) as {
        approvalId: string;
        url: string;
      };
      expect(servedBy(set, toolCall('set_alert_config_enabled'))).toBe(0);
      await set.kill(0);

      set.next(1);
      const { cookie, csrf } = await pageForm(url);
      set.next(1);
      const posted = await raw(
        url,
        'POST',
        { 'content-type': 'application/x-www-form-urlencoded', origin: set.origin, cookie },
        new URLSearchParams({ csrf, decision: 'approve' }).toString(),
      );
      expect(posted.status).toBe(303);
      expect(servedBy(set, (h) => h.method === 'POST' && h.path.startsWith('/approvals/'))).toBe(1);
      await set.kill(1);

      const done = await c.call('set_alert_config_enabled', { ...args, approvalId });
      expect(done.structured?.outcome).toBe('executed');
      expect(servedBy(set, toolCall('set_alert_config_enabled'))).toBe(2);
      expect(await isEnabled(c, args.alertConfigId)).toBe(false);
      await c.call('set_alert_config_enabled', { ...args, enabled: true });
    } finally {
      await c.close();
      await set.close();
    }
  });
});

describe.skipIf(noRedis)('confirmation tokens across replicas', () => {
  const use = useReplicas({ DBOPS_CONFIRM_VIA: 'token' });

  const tokenOf = (r: { structured?: Record<string, unknown> }) =>
    (r.structured?.confirmation as { confirmationToken?: string } | undefined)?.confirmationToken ?? '';

  it('a token used on one replica is refused on the others', async () => {
    const { set, c } = use;
    const args = await disableArgs(c);
    set.next(0);
    const token = tokenOf(await c.call('set_alert_config_enabled', args));
    expect(token).not.toBe('');
    set.next(1);
    const used = await c.call('set_alert_config_enabled', { ...args, confirmationToken: token });
    expect(used.structured?.outcome).toBe('executed');
    for (const i of [2, 0, 1]) {
      set.next(i);
      const again = await c.call('set_alert_config_enabled', { ...args, confirmationToken: token });
      expect(again.isError).toBe(true);
      expect(again.text).toMatch(/already used/);
      expect(servedBy(set, toolCall('set_alert_config_enabled'))).toBe(i);
    }
    await c.call('set_alert_config_enabled', { ...args, enabled: true });
  });

  it('the same token sent to three replicas at once executes once', async () => {
    const { set, c } = use;
    const args = await disableArgs(c);
    const token = tokenOf(await c.call('set_alert_config_enabled', args));
    const before = set.audited('executed').length;
    const results = await Promise.all(
      [0, 1, 2].map(() => c.call('set_alert_config_enabled', { ...args, confirmationToken: token })),
    );
    expect(results.filter((r) => r.structured?.outcome === 'executed')).toHaveLength(1);
    expect(set.audited('executed').length - before).toBe(1);
    await c.call('set_alert_config_enabled', { ...args, enabled: true });
  });

  it('while Redis restarts: clear errors and no change; afterwards the token works once', async () => {
    const { set, c } = use;
    const args = await disableArgs(c);
    const token = tokenOf(await c.call('set_alert_config_enabled', args));
    const before = set.audited('executed').length;
    await redis.stop();
    try {
      for (const i of [0, 1, 2]) {
        set.next(i);
        const r = await c.call('set_alert_config_enabled', { ...args, confirmationToken: token });
        expect(r.isError).toBe(true);
        expect(r.text).toMatch(/shared state store \(DBOPS_STATE_URL\) is unreachable.*nothing changed/);
      }
      expect(set.audited('executed').length).toBe(before);
      expect(await isEnabled(c, args.alertConfigId)).toBe(true);
    } finally {
      await redis.start();
    }
    // Back with its data (append-only file): the token was never used, so it works — once.
    const done = await until(
      'the store to be reachable again',
      async () => {
        const r = await c.call('set_alert_config_enabled', { ...args, confirmationToken: token });
        if (!/unreachable/.test(r.text)) return r;
        await sleep(200);
        return undefined;
      },
      15_000,
    );
    expect(done.structured?.outcome).toBe('executed');
    expect(set.audited('executed').length - before).toBe(1);
    await c.call('set_alert_config_enabled', { ...args, enabled: true });
  });
});

describe.skipIf(noRedis)('the approval page while Redis restarts', () => {
  it('answers 503 and decides nothing; after the restart the decision and the execution go through once', async () => {
    const set = await startReplicas({ n: 3, redisUrl: redis.url, sim });
    const c = await connect('pinned', { url: set.url });
    try {
      const args = await disableArgs(c);
      const first = await c.call('set_alert_config_enabled', args);
      const { approvalId, url } = (first.structured?.confirmation ?? {}) as {
        approvalId: string;
        url: string;
      };
      await redis.stop();
      try {
        expect((await raw(url)).status).toBe(503);
        const r = await c.call('set_alert_config_enabled', { ...args, approvalId });
        expect(r.isError).toBe(true);
        expect(r.text).toMatch(/unreachable.*nothing changed/);
        const fresh = await c.call('set_alert_config_enabled', args);
        expect(fresh.isError).toBe(true);
        expect(fresh.text).toMatch(/unreachable/);
      } finally {
        await redis.start();
      }
      expect(await isEnabled(c, args.alertConfigId)).toBe(true);
      // Every replica reconnects on its own: wait until all three serve the page again.
      await until(
        'every replica to serve the page again',
        async () => {
          const codes = [];
          for (const i of [0, 1, 2]) {
            set.next(i);
            codes.push((await raw(url)).status);
          }
          return codes.every((s) => s === 200);
        },
        15_000,
      );
      const a = await decide(url);
      expect(a.status, a.body).toBe(303);
      const done = await c.call('set_alert_config_enabled', { ...args, approvalId });
      expect(done.structured?.outcome).toBe('executed');
      expect(set.audited('executed')).toHaveLength(1);
      await c.call('set_alert_config_enabled', { ...args, enabled: true });
    } finally {
      await c.close();
      await set.close();
    }
  });
});

describe.skipIf(noRedis)('four eyes by risk on three replicas (trust, fifth round)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dbops-replicas-people-'));
  const people = { alice: mintNamedToken('alice'), bob: mintNamedToken('bob') };
  const file = join(dir, 'tokens');
  writeFileSync(file, `${people.alice.line}\n${people.bob.line}\n`);
  const use = {} as { set: ReplicaSet };
  beforeAll(async () => {
    use.set = await startReplicas({
      n: 3,
      redisUrl: redis.url,
      sim,
      env: { DBOPS_HTTP_TOKENS_FILE: file, DBOPS_APPROVERS: 'bob' },
    });
  });
  afterAll(async () => {
    await use.set?.close();
  });

  it("alice alone cannot disable alerting on any replica; bob's approval on another executes once", async () => {
    const { set } = use;
    const alice = await teamClient('pinned', set.url, () => people.alice.token);
    try {
      const cfg = sim.store.data.alertConfigs.find((c) => c.groupId === sim.projectIds[0] && c.enabled)!;
      set.next(0);
      const asked = await alice.call('set_alert_config_enabled', { alertConfigId: cfg.id, enabled: false });
      expect(asked.structured?.outcome, asked.text).toBe('approval_pending');
      expect(asked.text).toContain('four-eyes rule: disable-alerting; DBOPS_FOUR_EYES');
      const { approvalId } = (asked.structured as { confirmation: { approvalId: string } }).confirmation;
      const post = (token: string) =>
        raw(
          `${set.origin}/approvals/${approvalId}`,
          'POST',
          { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          JSON.stringify({ decision: 'approve' }),
        );
      set.next(1);
      expect((await post(people.alice.token)).status).toBe(403);
      expect(cfg.enabled).toBe(true);
      set.next(2);
      expect((await post(people.bob.token)).status).toBe(200);
      set.next(0);
      const done = await alice.call('set_alert_config_enabled', {
        alertConfigId: cfg.id,
        enabled: false,
        projectId: sim.projectIds[0],
        approvalId,
      });
      expect(done.structured?.outcome, done.text).toBe('executed');
      expect(set.audited('executed').filter((e) => e.approvalId === approvalId)).toHaveLength(1);
      expect(sim.store.data.alertConfigs.find((c) => c.id === cfg.id)?.enabled).toBe(false);
    } finally {
      await alice.close();
    }
  });
});
