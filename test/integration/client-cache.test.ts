// Reads shared between calls, against the simulator over real HTTP and digest: identical GETs in flight share
// one platform request, answers are kept for DBOPS_CACHE_TTL_MS and dropped by our own writes, replicas share
// them through a real Redis (one replica fetching per key), and the request budget refuses at once, naming
// its setting, when it is spent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshReads, keyIdentity, readAges } from '../../src/api/cache.js';
import { type ApiClient, createApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { silentLogger } from '../../src/log.js';
import { startSimulator } from '../../src/simulator/index.js';
import { redisReads } from '../../src/state/reads.js';
import { connectRedis, type RedisState } from '../../src/state/redis.js';
import { noRedis, startRedis, type TestRedis } from '../helpers/redis.js';
import type { Simulator } from '../helpers/sim.js';

let sim: Simulator;
const clients: ApiClient[] = [];
beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sim?.close();
});

function client(o: Partial<Parameters<typeof createApiClient>[0]> = {}) {
  const c = createApiClient({ baseUrl: sim.baseUrl, ...sim.keys, logger: silentLogger, maxRetries: 1, ...o });
  clients.push(c);
  return c;
}
/** A client that has met its digest challenge already: every later GET is one request. */
async function warm(o: Partial<Parameters<typeof createApiClient>[0]> = {}) {
  const c = client(o);
  await c.projects.get(sim.projectIds[0]!);
  return c;
}
const route = (r: string) => sim.stats.byRoute[r] ?? 0;
const ALERTS = 'GET /groups/:projectId/alerts';

describe('reads in flight and kept', () => {
  it('ten identical GETs at once cost the platform one request, decoded once and frozen: no caller changes what another reads', async () => {
    const api = await warm(); // no TTL: nothing kept, requests in flight still shared
    const pid = sim.projectIds[0]!;
    sim.stats.reset();
    sim.setFaults({ latencyMs: 50 });
    try {
      const pages = await Promise.all(
        Array.from({ length: 10 }, () => api.alerts.list(pid, { status: 'OPEN' })),
      );
      expect(route(ALERTS)).toBe(1);
      expect(pages[0]!.results.length).toBeGreaterThan(0);
      // One decoding shared by all ten (a whole installation's warm answer decodes nothing again), which
      // nobody can change under the others.
      expect(pages[0]!.results[0]).toBe(pages[1]!.results[0]);
      expect(Object.isFrozen(pages[0]!.results)).toBe(true);
      expect(() => {
        (pages[0]!.results[0] as { status: string }).status = 'CLOSED';
      }).toThrow(TypeError);
      expect(() => (pages[0]!.results as unknown[]).push({})).toThrow(TypeError);
      expect(pages[1]!.results[0]!.status).toBe('OPEN');
      // Nothing kept: the next read goes to the platform again.
      await api.alerts.list(pid, { status: 'OPEN' });
      expect(route(ALERTS)).toBe(2);
    } finally {
      sim.setFaults({ latencyMs: 0 });
    }
  });

  it('one caller cancelling does not fail the others sharing its request', async () => {
    const api = client();
    const pid = sim.projectIds[0]!;
    sim.setFaults({ latencyMs: 100 });
    try {
      const ac = new AbortController();
      const first = api.alerts.list(pid, { status: 'TRACKING' }, { signal: ac.signal });
      const second = api.alerts.list(pid, { status: 'TRACKING' });
      setTimeout(() => ac.abort(), 20);
      await expect(first).rejects.toThrow(/abort/i);
      expect((await second).totalCount).toBeGreaterThanOrEqual(0);
    } finally {
      sim.setFaults({ latencyMs: 0 });
    }
  });

  it('keeps answers for the TTL, says how old they are, and fetches again after it', async () => {
    const api = await warm({ cacheTtlMs: 300 });
    const pid = sim.projectIds[0]!;
    sim.stats.reset();
    const first = await api.alerts.list(pid, { status: 'OPEN' });
    const ages: { oldestAt?: number } = {};
    const kept = await readAges.run(ages, () => api.alerts.list(pid, { status: 'OPEN' }));
    expect(route(ALERTS)).toBe(1);
    // The kept answer is decoded once, not per read.
    expect(kept.results[0]).toBe(first.results[0]);
    expect(ages.oldestAt).toBeLessThanOrEqual(Date.now());
    await new Promise((r) => setTimeout(r, 350));
    const fresh: { oldestAt?: number } = {};
    await readAges.run(fresh, () => api.alerts.list(pid, { status: 'OPEN' }));
    expect(route(ALERTS)).toBe(2);
    expect(fresh.oldestAt).toBeUndefined();
  });

  it('a kept read answers within a few microtasks, not one promise per layer, and still counts as a hit', async () => {
    const reads: string[] = [];
    const api = await warm({ cacheTtlMs: 60_000, onRead: (r) => reads.push(r) });
    const pid = sim.projectIds[0]!;
    const first = await api.alerts.list(pid, { status: 'OPEN' });
    reads.length = 0;
    // A warm answer across 500 projects makes ~5,000 such reads: each layer's await is paid per read.
    let kept: typeof first | undefined;
    const ages: { oldestAt?: number } = {};
    readAges
      .run(ages, () => api.alerts.list(pid, { status: 'OPEN' }))
      .then((p) => {
        kept = p;
      });
    for (let i = 0; i < 4; i++) await Promise.resolve();
    expect(kept?.results[0]).toBe(first.results[0]);
    expect(reads).toEqual(['hit']);
    expect(ages.oldestAt).toBeLessThanOrEqual(Date.now());
  });

  it('a refusal is kept like an answer: a project the key cannot read costs one request, not one per call', async () => {
    const api = await warm({ cacheTtlMs: 60_000 });
    const missing = 'f'.repeat(24);
    sim.stats.reset();
    for (let i = 0; i < 3; i++) {
      const e = await api.projects.get(missing).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).status).toBe(404);
    }
    expect(route('GET /groups/:projectId')).toBe(1);
    // A fresh read (what a change is made from) asks again.
    await freshReads(() => api.projects.get(missing)).catch(() => {});
    expect(route('GET /groups/:projectId')).toBe(2);
  });

  it('our own write to a project drops its kept reads: the next read shows the change', async () => {
    const api = client({ cacheTtlMs: 60_000 });
    const pid = sim.projectIds[0]!;
    const open = await api.alerts.list(pid, { status: 'OPEN' });
    const alert = open.results[0]!;
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await api.alerts.acknowledge(pid, alert.id, { acknowledgedUntil: until });
    const after = await api.alerts.list(pid, { status: 'OPEN' });
    expect(after.results.find((a) => a.id === alert.id)?.acknowledgedUntil).toBeDefined();
    await api.alerts.acknowledge(pid, alert.id, {});
  });

  it('fresh reads (what a change is previewed and made from) skip kept answers', async () => {
    const api = await warm({ cacheTtlMs: 60_000 });
    const pid = sim.projectIds[0]!;
    const config = (await api.alertConfigs.list(pid)).results[0]!;
    await api.alertConfigs.get(pid, config.id);
    const rec = sim.store.data.alertConfigs.find((c) => c.id === config.id)!;
    const was = rec.enabled;
    rec.enabled = !was; // changed behind this client's back
    try {
      expect((await api.alertConfigs.get(pid, config.id)).enabled).toBe(was);
      expect((await freshReads(() => api.alertConfigs.get(pid, config.id))).enabled).toBe(!was);
    } finally {
      rec.enabled = was;
    }
  });

  it('the key identity names neither secret nor key, and differs per key and per platform', () => {
    const a = keyIdentity(sim.keys.publicKey, sim.baseUrl);
    expect(a).not.toContain(sim.keys.publicKey);
    expect(a).not.toContain(sim.keys.privateKey);
    expect(keyIdentity('other', sim.baseUrl)).not.toBe(a);
    expect(keyIdentity(sim.keys.publicKey, 'https://elsewhere.example/api/public/v1.0')).not.toBe(a);
  });
});

describe('the request budget', () => {
  it('refuses at once, naming DBOPS_RATE_LIMIT and when it refills, without sending anything', async () => {
    const api = client({ rateLimit: 3 });
    const pid = sim.projectIds[0]!;
    sim.stats.reset();
    let err: unknown;
    for (let i = 0; i < 4 && !err; i++)
      await api.alertConfigs.list(pid, { pageNum: i + 1 }).catch((e: unknown) => {
        err = e;
      });
    expect(sim.stats.requests).toBe(3); // a challenge counts: the platform counts it too
    sim.stats.reset();
    err = await api.alerts.list(pid).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toMatch(/DBOPS_RATE_LIMIT=3 requests per minute/);
    expect((err as ApiError).message).toMatch(/refills in about \d+ s/);
    expect(sim.stats.requests).toBe(0);
  });

  it('caps requests in flight at DBOPS_MAX_CONCURRENT_REQUESTS', async () => {
    const api = client({ maxConcurrent: 2 });
    const pid = sim.projectIds[0]!;
    sim.setFaults({ latencyMs: 40 });
    let most = 0;
    const watch = setInterval(() => {
      most = Math.max(most, api.budget.inFlight);
    }, 5);
    try {
      await Promise.all(Array.from({ length: 8 }, (_, i) => api.alerts.list(pid, { pageNum: i + 1 })));
    } finally {
      clearInterval(watch);
      sim.setFaults({ latencyMs: 0 });
    }
    expect(most).toBe(2);
  });

  it('a 429 with Retry-After pauses every request of the client, then answers say the platform asked to slow down', async () => {
    const api = client({ maxRetries: 0 });
    const pid = sim.projectIds[0]!;
    sim.setFaults({ errorRate: 1, errorStatuses: [429], retryAfterSeconds: 30 });
    try {
      await expect(api.alerts.list(pid)).rejects.toThrow(ApiError);
    } finally {
      sim.setFaults({ errorRate: 0, errorStatuses: [500, 502, 503, 429], retryAfterSeconds: 1 });
    }
    sim.stats.reset();
    const err = (await api.hosts.list(pid).catch((e: unknown) => e)) as ApiError;
    expect(err.message).toMatch(/HTTP 429/);
    expect(err.message).toMatch(/refills in about (29|30) s/);
    expect(sim.stats.requests).toBe(0);
  });
});

describe.skipIf(noRedis)('reads shared between replicas through Redis', () => {
  let redis: TestRedis;
  const states: RedisState[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(states.map((s) => s.close()));
    await redis?.stop();
  });
  async function replica(publicKey = sim.keys.publicKey, privateKey = sim.keys.privateKey) {
    const state = await connectRedis(redis.url, silentLogger, `dbops-test-${redis.port}:`);
    states.push(state);
    const api = client({ cacheTtlMs: 60_000, publicKey, privateKey });
    api.cache.share(redisReads(state, silentLogger));
    await api.projects.get(sim.projectIds[0]!).catch(() => {});
    return api;
  }

  it('three replicas reading the same list at once cost the platform one request; the others read its answer', async () => {
    const [a, b, c] = [await replica(), await replica(), await replica()];
    const pid = sim.projectIds[0]!;
    sim.stats.reset();
    sim.setFaults({ latencyMs: 60 });
    try {
      const ages: Array<{ oldestAt?: number }> = [{}, {}, {}];
      const pages = await Promise.all(
        [a, b, c].map((api, i) => readAges.run(ages[i]!, () => api.alertConfigs.list(pid))),
      );
      expect(route('GET /groups/:projectId/alertConfigs')).toBe(1);
      expect(pages.map((p) => p.totalCount)).toEqual([
        pages[0]!.totalCount,
        pages[0]!.totalCount,
        pages[0]!.totalCount,
      ]);
      expect(ages.filter((x) => x.oldestAt !== undefined).length).toBe(2);
    } finally {
      sim.setFaults({ latencyMs: 0 });
    }
  });

  it("a write through one replica reaches the others' next read", async () => {
    const [a, b] = [await replica(), await replica()];
    const pid = sim.projectIds[0]!;
    const alert = (await a.alerts.list(pid, { status: 'OPEN' })).results[0]!;
    await b.alerts.list(pid, { status: 'OPEN' });
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await a.alerts.acknowledge(pid, alert.id, { acknowledgedUntil: until });
    const seen = await b.alerts.list(pid, { status: 'OPEN' });
    expect(seen.results.find((x) => x.id === alert.id)?.acknowledgedUntil).toBeDefined();
    await a.alerts.acknowledge(pid, alert.id, {});
  });

  it('another key never reads what this key fetched', async () => {
    const a = await replica();
    const other = await replica('not-this-key', 'wrong-secret-0000');
    const pid = sim.projectIds[0]!;
    await a.alertConfigs.list(pid);
    await expect(other.alertConfigs.list(pid)).rejects.toThrow(ApiError);
  });
});
