// The client's HTTP behaviour against the simulator's HTTP layer (real digest, faults, stats) with a small
// route table of its own, so these properties do not depend on the resource data: round trips per call,
// shared challenges, stale nonces, retries and their limits, abort and timeout, error answers.

import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type ApiClientConfig, createApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { createLogger } from '../../src/log.js';
import { defaultFaults } from '../../src/simulator/faults.js';
import { SimError, type SimRoute } from '../../src/simulator/types.js';
import { type Simulator, startTestSimulator } from '../helpers/sim.js';

let counter = 0;
const routes: SimRoute[] = [
  {
    method: 'GET',
    path: '/echo/:id',
    handle: (req) => ({
      status: 200,
      body: { id: req.params.id, eventType: req.query.getAll('eventType'), flag: req.query.get('flag') },
    }),
  },
  {
    method: 'GET',
    path: '/items',
    handle: () => ({ status: 200, list: Array.from({ length: 1234 }, (_, i) => ({ n: i })) }),
  },
  {
    method: 'PATCH',
    path: '/counter',
    mutates: true,
    handle: () => ({ status: 200, body: { count: ++counter } }),
  },
  {
    method: 'POST',
    path: '/counter',
    mutates: true,
    handle: () => ({ status: 201, body: { count: ++counter } }),
  },
  { method: 'DELETE', path: '/thing/:id', handle: () => ({ status: 204 }) },
  {
    method: 'GET',
    path: '/groups/:projectId/secret',
    handle: (req) => {
      throw new SimError(401, 'NOT_IN_GROUP', `User is not a member of group ${req.params.projectId}.`);
    },
  },
  {
    method: 'PATCH',
    path: '/groups/:projectId/alertConfigs/:alertConfigId',
    handle: () => {
      throw new SimError(401, 'USER_UNAUTHORIZED', 'Current user is not authorized to perform this action.');
    },
  },
];

let sim: Simulator;
const clients: ApiClient[] = [];
function client(over: Partial<ApiClientConfig> = {}): ApiClient {
  const c = createApiClient({ baseUrl: sim.origin, ...sim.keys, ...over });
  clients.push(c);
  return c;
}
const echo = (c: ApiClient, id = 'a', signal?: AbortSignal) =>
  c.request<{ id: string }>({ method: 'GET', path: `/echo/${id}` }, { signal });

beforeAll(async () => {
  sim = await startTestSimulator({ routes });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sim.close();
});
afterEach(() => {
  sim.setFaults(defaultFaults());
});

describe('round trips', () => {
  it('a warm client spends exactly one HTTP request per call', async () => {
    const c = client();
    await echo(c); // cold: challenge + signed request
    expect(c.stats).toMatchObject({ requests: 2, challenges: 1 });
    const before = sim.stats.snapshot();
    for (let i = 0; i < 25; i++) expect((await echo(c, `id${i}`)).id).toBe(`id${i}`);
    const after = sim.stats.snapshot();
    expect(after.requests - before.requests).toBe(25);
    expect(after.challenges - before.challenges).toBe(0);
    expect(after.authFailures - before.authFailures).toBe(0);
    expect(c.stats.requests).toBe(27);
  });

  it('the baseline (preemptive: false) answers a challenge on every call', async () => {
    const c = client({ preemptive: false });
    const before = sim.stats.snapshot();
    for (let i = 0; i < 5; i++) await echo(c);
    const after = sim.stats.snapshot();
    expect(after.requests - before.requests).toBe(10);
    expect(after.challenges - before.challenges).toBe(5);
  });

  it('concurrent cold requests share one challenge', async () => {
    const c = client();
    const before = sim.stats.snapshot();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => echo(c, `p${i}`)));
    expect(answers.map((a) => a.id)).toEqual(Array.from({ length: 10 }, (_, i) => `p${i}`));
    const after = sim.stats.snapshot();
    expect(after.challenges - before.challenges).toBe(1);
    expect(after.requests - before.requests).toBe(11);
  });

  it('concurrent warm requests all succeed even when the server sees them out of order', async () => {
    const c = client();
    await echo(c);
    sim.setFaults({ jitterMs: 5 }); // reorders arrivals, so nonce counts arrive out of order
    for (let round = 0; round < 5; round++) {
      const ids = Array.from({ length: 20 }, (_, i) => `c${round}-${i}`);
      expect((await Promise.all(ids.map((id) => echo(c, id)))).map((a) => a.id)).toEqual(ids);
    }
  });

  it('a stale nonce costs one extra request and no error', async () => {
    const c = client();
    await echo(c);
    sim.setFaults({ nonceMaxUses: 4 });
    const before = sim.stats.snapshot();
    const sent = c.stats.requests;
    for (let i = 0; i < 20; i++) await echo(c);
    const after = sim.stats.snapshot();
    const stale = after.staleNonces - before.staleNonces;
    expect(stale).toBeGreaterThanOrEqual(4);
    expect(after.requests - before.requests).toBe(20 + stale);
    expect(c.stats.requests - sent).toBe(20 + stale);
    expect(after.authFailures - before.authFailures).toBe(0);
  });

  it('an expired nonce is renewed the same way', async () => {
    const c = client();
    await echo(c);
    sim.setFaults({ nonceTtlMs: 200 });
    await new Promise((r) => setTimeout(r, 300));
    const before = sim.stats.snapshot();
    await echo(c);
    const after = sim.stats.snapshot();
    expect(after.staleNonces - before.staleNonces).toBe(1);
    expect(after.requests - before.requests).toBe(2);
  });

  it('wrong credentials fail after the challenge, with a message naming the settings and no secret', async () => {
    const c = client({ privateKey: 'wrong-private-key-value' });
    const e = await echo(c).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(401);
    expect((e as ApiError).message).toContain('DBOPS_PRIVATE_KEY');
    expect((e as ApiError).message).not.toContain('wrong-private-key-value');
    expect(c.stats.requests).toBeLessThanOrEqual(3);
  });
});

describe('authorization errors are not retried', () => {
  it('USER_UNAUTHORIZED names the action; NOT_IN_GROUP names the project', async () => {
    const c = client();
    await echo(c);
    const sent = c.stats.requests;
    const denied = await c
      .request({ method: 'PATCH', path: '/groups/p1/alertConfigs/c1', body: { enabled: false } })
      .catch((x: unknown) => x as ApiError);
    expect(denied).toMatchObject({ status: 401, errorCode: 'USER_UNAUTHORIZED' });
    expect((denied as ApiError).message).toContain('update alert configuration "c1" in project "p1"');
    const notMember = await c.request({ method: 'GET', path: '/groups/p9/secret' }).catch((x: unknown) => x);
    expect(notMember).toMatchObject({ status: 401, errorCode: 'NOT_IN_GROUP' });
    expect((notMember as ApiError).message).toContain('not a member of project "p9"');
    expect(c.stats.requests - sent).toBe(2);
    expect(c.stats.retries).toBe(0);
  });
});

describe('retries', () => {
  it('every GET succeeds under a 30% injected 503 rate', async () => {
    const c = client({ maxRetries: 10 });
    await echo(c);
    sim.setFaults({ errorRate: 0.3, errorStatuses: [503] });
    const before = sim.stats.snapshot();
    for (let i = 0; i < 50; i++) expect((await echo(c, `g${i}`)).id).toBe(`g${i}`);
    const after = sim.stats.snapshot();
    const injected = after.injectedErrors - before.injectedErrors;
    expect(injected).toBeGreaterThan(0);
    expect(after.requests - before.requests).toBe(50 + injected);
    expect(c.stats.retries).toBe(injected);
  });

  it('GETs survive connection resets and 502 proxy pages', async () => {
    const c = client({ maxRetries: 10 });
    await echo(c);
    sim.setFaults({ resetRate: 0.15, errorRate: 0.15, errorStatuses: [502] });
    // 60 calls: the chance that no fault strikes at all (so the retry count could not show) is about 1e-8.
    for (let i = 0; i < 60; i++) expect((await echo(c, `r${i}`)).id).toBe(`r${i}`);
    expect(c.stats.retries).toBeGreaterThan(0);
  });

  it('a PATCH that may have reached the server is never sent twice', async () => {
    const c = client({ maxRetries: 8 });
    await echo(c);
    sim.setFaults({ resetRate: 0.3, errorRate: 0.3, errorStatuses: [503, 502, 500] });
    const start = counter;
    let ok = 0;
    let failed = 0;
    for (let i = 0; i < 40; i++) {
      try {
        await c.request({ method: 'PATCH', path: '/counter', body: {} });
        ok++;
      } catch (e) {
        expect(e).toBeInstanceOf(ApiError);
        failed++;
      }
    }
    expect(failed).toBeGreaterThan(0);
    expect(counter - start).toBe(ok); // applied exactly once per success, never by a repeat
    expect(c.stats.retries).toBe(0);
    // Attempts = calls (+ nothing): no write was ever repeated.
    expect(c.stats.requests).toBe(2 + 40 + (c.stats.challenges - 1));
  });

  it('a POST is retried when the connection was refused (nothing was sent)', async () => {
    const port = await freePort();
    const c = client({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 2 });
    const e = await c.request({ method: 'POST', path: '/counter', body: {} }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).errorCode).toBe('ECONNREFUSED');
    expect((e as ApiError).message).toContain('DBOPS_BASE_URL');
    expect(c.stats.requests).toBe(3);
    expect(c.stats.retries).toBe(2);
  });

  it('honours Retry-After, and stops when the wait would pass the deadline', async () => {
    const c = client({ maxRetries: 1, timeoutMs: 10_000 });
    await echo(c);
    sim.setFaults({ errorRate: 1, errorStatuses: [429], retryAfterSeconds: 1 });
    let t0 = Date.now();
    const e = (await echo(c).catch((x: unknown) => x)) as ApiError;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(e).toMatchObject({ status: 429, errorCode: 'RATE_LIMITED', retryAfterSeconds: 1 });
    expect((e as ApiError).message).toContain('Retry after 1 s');

    const short = client({ maxRetries: 5, timeoutMs: 500 });
    sim.setFaults({ errorRate: 0 });
    await echo(short);
    sim.setFaults({ errorRate: 1, errorStatuses: [429], retryAfterSeconds: 2 });
    t0 = Date.now();
    await expect(echo(short)).rejects.toMatchObject({ status: 429 });
    expect(Date.now() - t0).toBeLessThan(1500); // did not sit out the 2 s
    expect(short.stats.retries).toBe(0);
  });

  it('gives up after maxRetries with the last error, a 502 page turned into a short message', async () => {
    const c = client({ maxRetries: 2 });
    await echo(c);
    sim.setFaults({ errorRate: 1, errorStatuses: [502] });
    const sent = c.stats.requests;
    const e = (await echo(c).catch((x: unknown) => x)) as ApiError;
    expect(c.stats.requests - sent).toBe(3);
    expect(e).toMatchObject({ status: 502 });
    expect((e as ApiError).message).toContain('502 Bad Gateway');
    expect((e as ApiError).message).not.toContain('<');
  });

  it('logs every retry at debug with its reason, never the Authorization header', async () => {
    const lines: string[] = [];
    const c = client({ maxRetries: 10, logger: createLogger('debug', (l) => lines.push(l)) });
    await echo(c);
    sim.setFaults({ errorRate: 0.3, errorStatuses: [503] });
    for (let i = 0; i < 20; i++) await echo(c);
    const retries = lines.filter((l) => l.includes('retrying API request'));
    expect(retries.length).toBeGreaterThan(0);
    expect(retries).toHaveLength(c.stats.retries);
    expect(retries.every((l) => l.includes('"reason":"HTTP 503"'))).toBe(true);
    expect(lines.join('\n')).not.toMatch(/Digest |response=|privateKey|authorization/i);
  });
});

describe('abort and timeout', () => {
  it("the caller's AbortSignal stops a slow request at once", async () => {
    const c = client();
    await echo(c);
    sim.setFaults({ latencyMs: 3000 });
    const ac = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac.abort(), 100);
    const e = (await echo(c, 'slow', ac.signal).catch((x: unknown) => x)) as Error;
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(e.name).toBe('AbortError');
    expect(c.stats.retries).toBe(0);
  });

  it('an already aborted signal sends nothing', async () => {
    const c = client();
    const ac = new AbortController();
    ac.abort();
    await expect(echo(c, 'x', ac.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(c.stats.requests).toBe(0);
  });

  it('timeoutMs bounds a call, with a message that says what to do', async () => {
    const c = client({ timeoutMs: 300 });
    await echo(c);
    sim.setFaults({ latencyMs: 3000 });
    const t0 = Date.now();
    const e = (await echo(c).catch((x: unknown) => x)) as ApiError;
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 0, errorCode: 'TIMEOUT' });
    expect(e.message).toContain('DBOPS_TIMEOUT_MS');
  });
});

describe('requests and answers', () => {
  it('sends arrays as repeated parameters and signs the query as part of the uri', async () => {
    const c = client();
    const r = await c.request<{ eventType: string[]; flag: string }>({
      method: 'GET',
      path: '/echo/q',
      query: { eventType: ['A B', 'C&D'], flag: true, skipped: undefined },
    });
    expect(r.eventType).toEqual(['A B', 'C&D']);
    expect(r.flag).toBe('true');
  });

  it('unwraps an envelope and returns undefined for 204', async () => {
    const c = client();
    expect(await c.request({ method: 'GET', path: '/echo/e', query: { envelope: true } })).toMatchObject({
      id: 'e',
    });
    expect(await c.request({ method: 'DELETE', path: '/thing/x' })).toBeUndefined();
  });

  it('accepts the base URL with the full prefix and a trailing slash', async () => {
    const c = client({ baseUrl: `${sim.baseUrl}/` });
    expect(c.baseUrl).toBe(sim.baseUrl);
    expect((await echo(c)).id).toBe('a');
  });

  it('reports an unknown path with a hint about the base URL', async () => {
    const c = client();
    const e = (await c.request({ method: 'GET', path: '/nope' }).catch((x: unknown) => x)) as ApiError;
    expect(e).toMatchObject({ status: 404, errorCode: 'RESOURCE_NOT_FOUND' });
    expect(e.message).toContain('DBOPS_BASE_URL');
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
