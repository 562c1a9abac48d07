// One incident, many askers: sessions triaging the same project at the same time cost the platform about one
// triage, on one process (reads kept and shared in flight) and across three replicas sharing a real Redis.
// Counted by the simulator's own request statistics; small numbers here, the bench runs the full 50.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import type { RunningHttp } from '../../src/mcp/http/index.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type AnyClient, connect } from '../helpers/eras.js';
import { startTestHttp } from '../helpers/mcp.js';
import { noRedis, startRedis, type TestRedis } from '../helpers/redis.js';
import { startReplicas } from '../helpers/replicas.js';
import { buildDeps } from './deps.js';

const SESSIONS = 10;

let sim: Simulator;
/** Platform requests of one triage, by a warm server without a cache. */
let oneTriage = 0;
const closers: Array<() => Promise<unknown>> = [];

async function serve(cacheTtlMs: number, rateLimit?: number): Promise<RunningHttp> {
  const deps = buildDeps(sim);
  const api = createApiClient({
    baseUrl: sim.baseUrl,
    ...sim.keys,
    logger: deps.logger,
    cacheTtlMs,
    rateLimit,
  });
  await api.projects.get(sim.projectIds[0]!); // the digest challenge, once
  const http = await startTestHttp({ ...deps, api });
  closers.push(
    () => http.close(),
    () => api.close(),
    () => deps.close(),
  );
  return http;
}

async function clients(url: string, n: number): Promise<AnyClient[]> {
  const cs = await Promise.all(Array.from({ length: n }, () => connect('pinned', { url })));
  closers.push(...cs.map((c) => () => c.close()));
  return cs;
}

beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
  const http = await serve(0);
  const [c] = await clients(http.url, 1);
  sim.stats.reset();
  const r = await c!.call('triage_project', {});
  expect(r.isError).toBe(false);
  oneTriage = sim.stats.requests;
  expect(oneTriage).toBeGreaterThan(3);
});
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  await sim?.close();
});

describe('sessions triaging one project at once', () => {
  it(`${SESSIONS} sessions on one process cost at most 1.2× one triage, and the answers say how old their data is`, async () => {
    const http = await serve(5_000);
    const cs = await clients(http.url, SESSIONS);
    sim.stats.reset();
    sim.setFaults({ latencyMs: 5 });
    let answers: Awaited<ReturnType<AnyClient['call']>>[];
    try {
      answers = await Promise.all(cs.map((c) => c.call('triage_project', {})));
    } finally {
      sim.setFaults({ latencyMs: 0 });
    }
    for (const a of answers) expect(a.isError).toBe(false);
    expect(sim.stats.requests).toBeLessThanOrEqual(1.2 * oneTriage);
    // A second round inside the TTL costs nothing and says so.
    sim.stats.reset();
    const again = await cs[0]!.call('triage_project', {});
    expect(sim.stats.requests).toBe(0);
    expect(again.text).toMatch(/\(data from \d+ s ago \(cached\)/);
    expect(typeof again.structured?.dataAgeSeconds).toBe('number');
  });

  it('a warm triage is one round: what changes rarely is still kept when the alert lists are fetched again', async () => {
    const http = await serve(150); // global alert configurations: 12 × 150 ms
    const [c] = await clients(http.url, 1);
    await c!.call('triage_project', {});
    await new Promise((r) => setTimeout(r, 250));
    sim.stats.reset();
    const again = await c!.call('triage_project', {});
    expect(again.isError).toBe(false);
    const routes = sim.stats.byRoute;
    expect(routes['GET /globalAlertConfigs'] ?? 0).toBe(0);
    // The reads that hang on it went out again, at once, with the others.
    expect(Object.keys(routes).some((r) => r.startsWith('GET /globalAlertConfigs/'))).toBe(true);
    expect(routes['GET /groups/:projectId/alerts'] ?? 0).toBeGreaterThan(0);
  });

  it('with the request budget spent, triage says so, naming the setting, and sends nothing more', async () => {
    const http = await serve(0, 3); // the warm-up spends 2 (challenge and answer)
    const [c] = await clients(http.url, 1);
    sim.stats.reset();
    const r = await c!.call('triage_project', {});
    expect(r.text).toMatch(
      /request budget for the platform is spent \(DBOPS_RATE_LIMIT=3 requests per minute\)/,
    );
    expect(r.text).toMatch(/refills in about \d+ s/);
    expect(sim.stats.requests).toBeLessThanOrEqual(1);
  });

  it('with the budget spent halfway through, triage answers with what it read and says why the rest is missing, once', async () => {
    const http = await serve(0, 6); // the warm-up spends 2: four reads go out, the rest find the budget spent
    const [c] = await clients(http.url, 1);
    sim.stats.reset();
    const r = await c!.call('triage_project', {});
    expect(r.isError).toBe(false);
    expect(sim.stats.requests).toBe(4);
    expect(r.text.match(/DBOPS_RATE_LIMIT=6 requests per minute/g)?.length).toBe(1);
    expect(r.text).toContain('not read: the request budget is spent (above)');
  });

  it('a change is previewed from the platform, not from a kept answer', async () => {
    const http = await serve(60_000);
    const [c] = await clients(http.url, 1);
    const pid = sim.projectIds[0]!;
    const rec = sim.store.data.alertConfigs.find((x) => x.groupId === pid && x.enabled !== false)!;
    await c!.call('get_alert_config', { alertConfigId: rec.id });
    rec.enabled = false; // someone else disabled it meanwhile
    try {
      sim.stats.reset();
      const r = await c!.call('set_alert_config_enabled', { alertConfigId: rec.id, enabled: false });
      expect(sim.stats.byRoute['GET /groups/:projectId/alertConfigs/:alertConfigId']).toBe(1);
      expect(JSON.stringify(r.structured)).toContain('"from":false');
    } finally {
      rec.enabled = true;
    }
  });

  it.skipIf(noRedis)(
    `${SESSIONS} sessions across three replicas sharing Redis cost at most 1.5× one triage`,
    { timeout: 60_000 },
    async () => {
      const redis: TestRedis = await startRedis();
      closers.push(() => redis.stop());
      const set = await startReplicas({ n: 3, redisUrl: redis.url, sim });
      closers.push(() => set.close());
      const cs = await clients(set.url, SESSIONS);
      // Each replica meets its digest challenge once, outside the count.
      for (let i = 0; i < 3; i++) {
        set.next(i);
        await cs[0]!.call('list_projects', {});
      }
      sim.stats.reset();
      sim.setFaults({ latencyMs: 5 });
      try {
        const answers = await Promise.all(cs.map((c) => c.call('triage_project', {})));
        for (const a of answers) expect(a.isError).toBe(false);
      } finally {
        sim.setFaults({ latencyMs: 0 });
      }
      const served = new Set(set.hops.filter((h) => h.tool === 'triage_project').map((h) => h.replica));
      expect(served.size).toBe(3);
      expect(sim.stats.requests).toBeLessThanOrEqual(1.5 * oneTriage);
    },
  );
});
