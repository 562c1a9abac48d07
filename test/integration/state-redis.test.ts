// The shared state store against a real redis-server: single use and approval decisions hold across
// "replicas" (separate connections and stores in this process), caps count every replica's records, and a
// store that went away or lost its data refuses instead of letting a change through.

import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalStore, createApprovalStore } from '../../src/approval/store.js';
import { silentLogger } from '../../src/log.js';
import { redisBus } from '../../src/mcp/listen.js';
import { createAuditLog } from '../../src/policy/audit.js';
import { createDecisionPoint } from '../../src/policy/decide.js';
import { createSigner } from '../../src/policy/signer.js';
import { redisRecords } from '../../src/state/approvals.js';
import { redisInstallation } from '../../src/state/installation.js';
import { type Ledger, redisLedger, StateError } from '../../src/state/ledger.js';
import { connectRedis, type RedisState } from '../../src/state/redis.js';
import { noRedis, startRedis, type TestRedis } from '../helpers/redis.js';

/** This machine's user alone: no identity configured, every request theirs. */
const ALONE = { person: 'local', approver: false, alone: true };

const SECRET = 'shared-secret-of-the-replicas-0123456789';

async function until(check: () => boolean, ms = 5_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.skipIf(noRedis)('shared state in Redis', () => {
  let redis: TestRedis;
  const conns: RedisState[] = [];
  const connect = async () => {
    const c = await connectRedis(redis.url, silentLogger, `t${conns.length}:`);
    conns.push(c);
    return c;
  };

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const c of conns) await c.close();
    await redis?.stop();
  });

  /** N replicas' worth of stores on one Redis (one key prefix), each with its own connection. */
  async function replicas(
    n: number,
    prefix: string,
    opts: { perOwner?: number; ttlMs?: number; approvers?: string[] } = {},
  ) {
    const dir = mkdtempSync(join(tmpdir(), 'dbops-state-'));
    const out: Array<{ store: ApprovalStore; ledger: Ledger; installation: string }> = [];
    for (let i = 0; i < n; i++) {
      const c = await connectRedis(redis.url, silentLogger, prefix);
      conns.push(c);
      const ledger = await redisLedger(c);
      out.push({
        ledger,
        installation: await redisInstallation(c),
        store: createApprovalStore({
          ttlMs: opts.ttlMs ?? 600_000,
          audit: createAuditLog(join(dir, `audit-${i}.log`), silentLogger),
          origin: () => 'http://127.0.0.1:9',
          ledger,
          records: redisRecords(c),
          maxPendingPerOwner: opts.perOwner,
          decisions: createDecisionPoint({ approvers: opts.approvers ?? [], tellsPeopleApart: true }),
          tickMs: 20,
        }),
      });
    }
    return out;
  }

  const request = (owner?: string) => ({
    tool: 'delete_maintenance_window',
    title: 'Delete a maintenance window',
    hash: 'h1',
    args: { maintenanceWindowId: 'w1' },
    preview: { action: 'Delete window w1', target: { maintenanceWindowId: 'w1' } },
    ...(owner
      ? { requester: { person: owner, client: 'test 1', session: owner, key: `session:${owner}` } }
      : {}),
  });

  it('a token redeemed through one replica is refused by the others, also when they race', async () => {
    const [a, b, c] = await replicas(3, 'tok:');
    const signers = [a, b, c].map((r) => createSigner(SECRET, undefined, r!.ledger, r!.installation));
    const { token } = signers[0]!.issue('delete_maintenance_window', 'h1');
    // A server with the same secret on another store (another installation id) refuses it first.
    const [other] = await replicas(1, 'tok-other:');
    expect(other!.installation).not.toBe(a!.installation);
    const elsewhere = createSigner(SECRET, undefined, other!.ledger, other!.installation);
    expect(await elsewhere.redeem(token, 'delete_maintenance_window', 'h1')).toBe('invalid');
    const results = await Promise.all(signers.map((s) => s.redeem(token, 'delete_maintenance_window', 'h1')));
    expect(results.sort()).toEqual(['ok', 'used', 'used']);
    expect(await signers[2]!.redeem(token, 'delete_maintenance_window', 'h1')).toBe('used');
  });

  it('an approval created on one replica is decided on a second and executes once through a third', async () => {
    const [a, b, c] = await replicas(3, 'appr:');
    const pending = await a!.store.create(request());
    const onB = await b!.store.get(pending.approvalId);
    expect(onB?.state).toBe('pending');
    expect((await b!.store.pending(ALONE)).map((x) => x.id)).toEqual([pending.approvalId]);
    expect(await b!.store.decide(pending.approvalId, 'approve', onB!.secret, ALONE)).toBe('approved');
    // A second click elsewhere cannot change the decision.
    expect(await a!.store.decide(pending.approvalId, 'decline', onB!.secret, ALONE)).toBe('approved');
    const takes = await Promise.all(
      [a, b, c].map((r) =>
        r!.store.take(pending.approvalId, 'delete_maintenance_window', 'h1').then((t) => t.state),
      ),
    );
    expect(takes.sort()).toEqual(['approved', 'used', 'used']);
    expect((await c!.store.take(pending.approvalId, 'other_tool', 'h1')).state).toBe('mismatch');
    expect((await a!.store.pending(ALONE)).length).toBe(0);
  });

  it('four eyes across replicas: the asker cannot approve on another replica; an approver can, once', async () => {
    const [a, b] = await replicas(2, 'four:', { approvers: ['bob'] });
    const pending = await a!.store.create(request('alice'));
    expect(pending.otherApprover).toEqual(['deletion']);
    const rec = await b!.store.get(pending.approvalId);
    const alice = { person: 'alice', approver: false };
    const bob = { person: 'bob', address: 'bob', approver: true };
    expect(await b!.store.decide(pending.approvalId, 'approve', rec!.secret, alice)).toBe('four-eyes');
    expect((await a!.store.get(pending.approvalId))?.state).toBe('pending');
    expect(await b!.store.decide(pending.approvalId, 'approve', rec!.secret, bob)).toBe('approved');
    const taken = await a!.store.take(pending.approvalId, 'delete_maintenance_window', 'h1', 'session:alice');
    expect(taken).toMatchObject({ state: 'approved', approver: 'bob' });
  });

  it('a decision on another replica ends a wait on this one', async () => {
    const [a, b] = await replicas(2, 'wait:');
    const pending = await a!.store.create(request());
    const waited = a!.store.wait!(pending.approvalId, 5_000, new AbortController().signal, () => {});
    const rec = await b!.store.get(pending.approvalId);
    await b!.store.decide(pending.approvalId, 'decline', rec!.secret, ALONE);
    expect(await waited).toBe('declined');
  });

  it('pending caps count every replica: per owner and in total', async () => {
    const [a, b] = await replicas(2, 'cap:', { perOwner: 2 });
    await a!.store.create(request('session-1'));
    await b!.store.create(request('session-1'));
    await expect(a!.store.create(request('session-1'))).rejects.toThrow(/2 approvals from this session/);
    await expect(b!.store.create(request('session-2'))).resolves.toBeDefined();
    // Per person across sessions and replicas: 50, whichever session asks.
    const byPerson = (i: number) => ({
      ...request(),
      requester: { person: 'priya', client: 'test 1', session: `s${i}`, key: `session:s${i}` },
    });
    for (let i = 0; i < 50; i++) await (i % 2 ? a : b)!.store.create(byPerson(i));
    await expect(a!.store.create(byPerson(50))).rejects.toThrow(
      /50 approvals asked for by priya .*cap per person/,
    );
    // The total cap (200): fill it from both replicas, then a third owner is refused everywhere.
    for (let i = 0; i < 147; i++) await (i % 2 ? a : b)!.store.create(request(`owner-${i}`));
    await expect(a!.store.create(request('late'))).rejects.toThrow(/200 approvals are already waiting/);
    await expect(b!.store.create(request())).rejects.toThrow(/200 approvals are already waiting/);
  });

  it('approvals expire once, whichever replica notices', async () => {
    const [a, b] = await replicas(2, 'exp:', { ttlMs: 10_000 });
    const pending = await a!.store.create(request());
    const rec = await b!.store.get(pending.approvalId);
    await b!.store.decide(pending.approvalId, 'approve', rec!.secret, ALONE);
    const late = createApprovalStore({
      ttlMs: 10_000,
      audit: createAuditLog(join(mkdtempSync(join(tmpdir(), 'dbops-state-')), 'a.log'), silentLogger),
      origin: () => 'http://127.0.0.1:9',
      records: redisRecords(conns.at(-1)!),
      now: () => new Date(Date.now() + 11_000),
    });
    expect((await late.take(pending.approvalId, 'delete_maintenance_window', 'h1')).state).toBe('expired');
    expect((await a!.store.take(pending.approvalId, 'delete_maintenance_window', 'h1')).state).toBe(
      'expired',
    );
  });

  it('a store that is down answers with a clear error (no offline queue), and works again once it is back', async () => {
    const own = await startRedis();
    try {
      const c = await connectRedis(own.url, silentLogger, 'down:');
      conns.push(c);
      const ledger = await redisLedger(c);
      const signer = createSigner(SECRET, undefined, ledger);
      await own.stop();
      const { token } = signer.issue('delete_maintenance_window', 'h1');
      const err = await signer.redeem(token, 'delete_maintenance_window', 'h1').catch((e) => e);
      expect(err).toBeInstanceOf(StateError);
      expect(String(err.message)).toMatch(
        /shared state store \(DBOPS_STATE_URL\) is unreachable.*nothing changed/,
      );
      // Back without its data: the token minted before the loss cannot be proven unused, so it is refused.
      await own.start();
      await expect
        .poll(() => ledger.claim('probe', Date.now() + 60_000).catch(() => 'down'), { timeout: 10_000 })
        .not.toBe('down');
      await expect(signer.redeem(token, 'delete_maintenance_window', 'h1')).rejects.toThrow(
        /lost its records after this was issued.*nothing changed/,
      );
      const fresh = signer.issue('delete_maintenance_window', 'h1');
      expect(await signer.redeem(fresh.token, 'delete_maintenance_window', 'h1')).toBe('ok');
    } finally {
      await own.stop();
    }
  });

  it('after the store restarts empty, a token issued once the replica is back works (the loss is marked at reconnect)', async () => {
    const own = await startRedis();
    try {
      const c = await connectRedis(own.url, silentLogger, 'back:');
      conns.push(c);
      const signer = createSigner(SECRET, undefined, await redisLedger(c));
      await own.restart();
      // Back: a command that claims nothing answers again.
      await expect.poll(() => c.eval('return 1', [], []).catch(() => 'down'), { timeout: 10_000 }).toBe(1);
      const { token } = signer.issue('delete_maintenance_window', 'h1');
      expect(await signer.redeem(token, 'delete_maintenance_window', 'h1')).toBe('ok');
    } finally {
      await own.stop();
    }
  });

  it('subscription events cross replicas once: the same feed change seen by two pollers is announced once', async () => {
    const [a, b] = [
      await connectRedis(redis.url, silentLogger, 'bus:'),
      await connectRedis(redis.url, silentLogger, 'bus:'),
    ];
    conns.push(a, b);
    const busA = await redisBus(a, silentLogger);
    const busB = await redisBus(b, silentLogger);
    const heardOnB: string[] = [];
    busB.subscribe((e) => heardOnB.push(e.kind === 'resource_updated' ? e.uri : e.kind));
    busA.feedChanged('dbops://projects/p/alerts', 'fingerprint-1');
    busB.feedChanged('dbops://projects/p/alerts', 'fingerprint-1'); // B's own poller saw the same change
    busA.publish({ kind: 'tools_list_changed' });
    await until(() => heardOnB.length >= 2);
    busA.feedChanged('dbops://projects/p/alerts', 'fingerprint-2');
    await until(() => heardOnB.length >= 3);
    expect(heardOnB).toEqual([
      'dbops://projects/p/alerts',
      'tools_list_changed',
      'dbops://projects/p/alerts',
    ]);
    await busA.close();
    await busB.close();
  });

  it('keys of different deployments (prefixes) do not meet', async () => {
    const x = await connect();
    const y = await connect();
    const lx = await redisLedger(x);
    const ly = await redisLedger(y);
    expect(await lx.claim('k', Date.now() + 60_000)).toBe(true);
    expect(await ly.claim('k', Date.now() + 60_000)).toBe(true);
    expect(await lx.claim('k', Date.now() + 60_000)).toBe(false);
  });
});

describe.skipIf(noRedis)('a store that refuses the credentials', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis({ password: 'the-right-password' });
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('ends the connection at once, saying so, instead of retrying for ever', async () => {
    const wrong = redis.url.replace('the-right-password', 'a-wrong-password');
    const started = Date.now();
    await expect(connectRedis(wrong, silentLogger)).rejects.toThrow(
      /refused the credentials in DBOPS_STATE_URL/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    const right = await connectRedis(redis.url, silentLogger);
    await right.close();
  });

  it('`serve` exits non-zero with the reason', () => {
    const cli = new URL('../../dist/src/cli.js', import.meta.url).pathname;
    const dir = mkdtempSync(join(tmpdir(), 'dbops-redis-serve-'));
    const r = spawnSync(process.execPath, [cli, 'serve', '--transport', 'http', '--port', '0'], {
      encoding: 'utf8',
      timeout: 20_000,
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        XDG_STATE_HOME: join(dir, 'state'),
        XDG_CONFIG_HOME: join(dir, 'config'),
        DBOPS_STATE_URL: redis.url.replace('the-right-password', 'a-wrong-password'),
        DBOPS_TOKEN_SECRET: 'shared-secret-of-the-replicas-0123456789',
      },
    });
    expect(r.status).not.toBe(0);
    expect(r.status).not.toBeNull();
    expect(r.stderr).toContain('DBOPS_STATE_URL');
    expect(r.stderr).toContain('refused the credentials');
    expect(r.stderr).not.toContain('a-wrong-password');
  });
});
