// The simulator's HTTP layer over loopback with digest auth, against a small store and route table of the
// test's own: the HTTP behaviour must not depend on the data layer.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import type { KeyRecord } from '../../src/simulator/records.js';
import type { Store } from '../../src/simulator/store.js';
import { SimError, type SimRoute } from '../../src/simulator/types.js';
import {
  type DigestAnswer,
  digestFetch,
  parseChallenge,
  rawFetch,
  type Simulator,
  signDigest,
  startTestSimulator,
} from '../helpers/sim.js';

const PROJECT = '5f0000000000000000000001';
const KEYS = { publicKey: 'abcdefgh', privateKey: '11111111-2222-3333-4444-555555555555' };
const BLOCKED = { publicKey: 'blockedk', privateKey: '99999999-2222-3333-4444-555555555555' };

interface FakeData {
  configs: { id: string; enabled: boolean }[];
  windows: string[];
  users: string[];
}

/** Just enough store for the HTTP layer: keys, an access list, a snapshot. */
function fakeStore() {
  const key = (k: typeof KEYS, id: string): KeyRecord => ({
    id,
    ...k,
    desc: 'test key',
    roles: [{ roleName: 'GLOBAL_OWNER' }],
  });
  const keys = new Map([
    [KEYS.publicKey, key(KEYS, 'k1')],
    [BLOCKED.publicKey, key(BLOCKED, 'k2')],
  ]);
  const data: FakeData = {
    configs: Array.from({ length: 250 }, (_, i) => ({
      id: `cfg${String(i).padStart(3, '0')}`,
      enabled: true,
    })),
    windows: ['w1', 'w2'],
    users: [],
  };
  return {
    data,
    accessChecks: 0,
    findApiKey: (pk: string) => keys.get(pk),
    checkAccessList(k: KeyRecord, _addr: string, _now: Date) {
      this.accessChecks++;
      return k.publicKey !== BLOCKED.publicKey;
    },
    snapshot: () => structuredClone(data),
    // The server rebuilds a store's per-project views after every change; this one has none.
    changed() {},
    demo: { ...KEYS, orgId: '5e0000000000000000000001', projectIds: [PROJECT] },
  };
}
type FakeStore = ReturnType<typeof fakeStore>;

const fake = (ctx: { store: unknown }) => ctx.store as FakeStore;

const routes: SimRoute[] = [
  {
    method: 'GET',
    path: '/groups/:projectId/alertConfigs',
    paged: true,
    handle: (_req, ctx) => ({ status: 200, list: fake(ctx).data.configs }),
  },
  {
    method: 'GET',
    path: '/groups/:projectId/alertConfigs/:alertConfigId',
    handle(req, ctx) {
      const c = fake(ctx).data.configs.find((x) => x.id === req.params['alertConfigId']);
      if (!c)
        throw new SimError(404, 'ALERT_CONFIG_NOT_FOUND', 'No alert configuration with that ID exists.');
      return { status: 200, body: c };
    },
  },
  {
    method: 'PATCH',
    path: '/groups/:projectId/alertConfigs/:alertConfigId',
    mutates: true,
    handle(req, ctx) {
      const c = fake(ctx).data.configs.find((x) => x.id === req.params['alertConfigId']);
      if (!c)
        throw new SimError(404, 'ALERT_CONFIG_NOT_FOUND', 'No alert configuration with that ID exists.');
      c.enabled = (req.body as { enabled: boolean }).enabled;
      return { status: 200, body: c };
    },
  },
  {
    method: 'PUT',
    path: '/groups/:projectId/integrations/:integrationType',
    mutates: true,
    handle: (req) => ({
      status: 200,
      list: [{ type: req.params['integrationType'], ...(req.body as object) }],
    }),
  },
  {
    method: 'DELETE',
    path: '/groups/:projectId/maintenanceWindows/:maintenanceWindowId',
    mutates: true,
    handle(req, ctx) {
      const d = fake(ctx).data;
      d.windows = d.windows.filter((w) => w !== req.params['maintenanceWindowId']);
      return { status: 204 };
    },
  },
  {
    method: 'POST',
    path: '/users',
    mutates: true,
    handle(req, ctx) {
      const name = (req.body as { username: string }).username;
      fake(ctx).data.users.push(name);
      return { status: 201, body: { username: name } };
    },
  },
  {
    method: 'POST',
    path: '/unauth/users',
    auth: 'none',
    mutates: true,
    handle: (req) => ({ status: 201, body: { user: req.body, caller: req.caller } }),
  },
  {
    method: 'GET',
    path: '/groups/:projectId/echo/:rest',
    handle: (req, ctx) => ({
      status: 200,
      body: {
        params: req.params,
        path: req.path,
        query: req.query.toString(),
        caller: req.caller?.key.publicKey,
        remoteAddress: req.remoteAddress,
        baseUrl: req.baseUrl,
        now: req.now.toISOString(),
        options: ctx.options,
      },
    }),
  },
  {
    method: 'GET',
    path: '/groups/:projectId/echo/literal',
    handle: () => ({ status: 200, body: { literal: true } }),
  },
  {
    method: 'GET',
    path: '/unpaged',
    paged: false,
    handle: () => ({ status: 200, list: [1, 2, 3] }),
  },
  {
    method: 'GET',
    path: '/boom',
    handle: () => {
      throw new TypeError('route bug');
    },
  },
];

const logLines: string[] = [];
let sim: Simulator;
let store: FakeStore;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sim-http-'));
  store = fakeStore();
  sim = await startTestSimulator({
    store: store as unknown as Store,
    routes,
    dataFile: join(dir, 'data.json'),
    maxBodyBytes: 64 * 1024,
    now: () => new Date('2026-03-04T05:06:07Z'),
    bypassInvite: true,
    logger: createLogger('error', (l) => logLines.push(l)),
  });
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  sim.setFaults({
    latencyMs: 0,
    jitterMs: 0,
    errorRate: 0,
    resetRate: 0,
    nonceMaxUses: 0,
    nonceTtlMs: 300_000,
  });
  sim.setFaults({ errorStatuses: [500, 502, 503, 429] });
});

const url = (p: string) => sim.baseUrl + p;

/** Unsigned request → challenge values. */
async function challengeFor(path: string, method = 'GET') {
  const r = await rawFetch(url(path), method);
  expect(r.status).toBe(401);
  return parseChallenge(r.headers.get('www-authenticate') ?? '');
}

/** A request signed against a given challenge with chosen nc. */
function signed(path: string, challenge: Record<string, string>, nc: string, method = 'GET', body?: unknown) {
  const u = new URL(url(path));
  const authorization = signDigest({ method, uri: u.pathname + u.search, keys: KEYS, challenge, nc });
  return rawFetch(u.href, method, { body, headers: { Authorization: authorization } });
}

const CHALLENGE =
  /^Digest realm="MMS Public API", domain="", nonce="([A-Za-z0-9+/]+={0,2})", algorithm=MD5, qop="auth", stale=false$/;

function expectError(r: DigestAnswer, status: number, errorCode: string | undefined) {
  expect(r.status).toBe(status);
  expect(r.json).toMatchObject({ error: status, detail: expect.any(String), reason: expect.any(String) });
  if (errorCode === undefined) expect(r.json).not.toHaveProperty('errorCode');
  else expect(r.json.errorCode).toBe(errorCode);
}

describe('digest challenge', () => {
  it('has the real server format, body and headers', async () => {
    const r = await rawFetch(url(`/groups/${PROJECT}/alertConfigs`), 'GET');
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(CHALLENGE);
    expect(r.headers.get('content-type')).toBe('application/json;charset=ISO-8859-1');
    expect(r.headers.get('strict-transport-security')).toBe('max-age=300');
    expect(r.text).toBe(
      '{"reason":"Unauthorized","error":401,"detail":"You are not authorized for this resource."}',
    );
  });

  it('issues nonces in base64 with +, / and = over many challenges, each different', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 40; i++) nonces.add((await challengeFor('/boom')).nonce ?? '');
    expect(nonces.size).toBe(40);
    const all = [...nonces].join('');
    expect(all).toMatch(/[+/]/);
    expect(all).toMatch(/=/);
  });

  it.each([
    ['GET', undefined],
    ['DELETE', undefined],
    ['POST', '{"not json'],
    ['PATCH', '{"not json'],
    ['PUT', '{"not json'],
  ])('comes before any validation for %s', async (method, body) => {
    // Bad query, malformed body, unknown id: the answer is still the challenge.
    const r = await rawFetch(url(`/groups/${PROJECT}/alertConfigs/nope?itemsPerPage=abc`), method, { body });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(CHALLENGE);
  });

  it('is also the first answer for unknown paths and wrong methods', async () => {
    expect((await rawFetch(url('/no/such/thing'), 'GET')).status).toBe(401);
    expect((await rawFetch(url('/boom'), 'DELETE')).status).toBe(401);
  });

  it('is skipped by POST /unauth/users', async () => {
    const before = sim.stats.challenges;
    const r = await rawFetch(url('/unauth/users'), 'POST', { body: { username: 'first' } });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({ user: { username: 'first' }, caller: null });
    expect(sim.stats.challenges).toBe(before);
  });
});

describe('digest verification', () => {
  it('accepts the signed request and hands the caller to the route', async () => {
    const r = await digestFetch(sim, 'GET', `/groups/${PROJECT}/echo/a%20b%2Fc?x=1&x=2`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      params: { projectId: PROJECT, rest: 'a b/c' },
      path: `/groups/${PROJECT}/echo/a%20b%2Fc`,
      query: 'x=1&x=2',
      caller: KEYS.publicKey,
      remoteAddress: '127.0.0.1',
      baseUrl: sim.baseUrl,
      now: '2026-03-04T05:06:07.000Z',
      options: { usernameValidation: 'false', bypassInvite: true, dialect: 'spec' },
    });
  });

  it('prefers a literal segment over a parameter', async () => {
    const r = await digestFetch(sim, 'GET', `/groups/${PROJECT}/echo/literal`);
    expect(r.json).toEqual({ literal: true });
  });

  it('answers a wrong password or unknown key with a new challenge (stale=false), counted as failure', async () => {
    const failures = sim.stats.authFailures;
    const wrong = await digestFetch(sim, 'GET', '/boom', { keys: { ...KEYS, privateKey: 'wrong' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(CHALLENGE);
    expect(wrong.text).toContain('You are not authorized for this resource.');
    const unknown = await digestFetch(sim, 'GET', '/boom', {
      keys: { publicKey: 'zzzzzzzz', privateKey: 'x' },
    });
    expect(unknown.status).toBe(401);
    expect(sim.stats.authFailures).toBe(failures + 2);
  });

  it('accepts nc=1 and nc=00000001, refuses 0 and 00000000', async () => {
    const path = `/groups/${PROJECT}/alertConfigs/cfg001`;
    expect((await signed(path, await challengeFor(path), '1')).status).toBe(200);
    expect((await signed(path, await challengeFor(path), '00000001')).status).toBe(200);
    expect((await signed(path, await challengeFor(path), '0')).status).toBe(401);
    expect((await signed(path, await challengeFor(path), '00000000')).status).toBe(401);
  });

  it('refuses a replayed nc on the same nonce; accepts counts that arrive out of order, as concurrent requests do', async () => {
    const path = `/groups/${PROJECT}/alertConfigs/cfg002`;
    const c = await challengeFor(path);
    expect((await signed(path, c, '00000001')).status).toBe(200);
    const replay = await signed(path, c, '00000001');
    expect(replay.status).toBe(401);
    expect(replay.headers.get('www-authenticate')).toMatch(CHALLENGE);
    expect((await signed(path, c, '00000003')).status).toBe(200);
    expect((await signed(path, c, '2')).status).toBe(200);
    expect((await signed(path, c, '2')).status).toBe(401);
    expect((await signed(path, c, '4')).status).toBe(200);
    expect((await signed(path, c, '200')).status).toBe(200);
    expect((await signed(path, c, '5')).status).toBe(401); // too far behind the highest count to be tracked
  });

  it('tolerates parameter order, quoted algorithm and unquoted values', async () => {
    const path = '/groups/x/alertConfigs/cfg003';
    const c = await challengeFor(path);
    const u = new URL(url(path));
    const header = signDigest({ method: 'GET', uri: u.pathname, keys: KEYS, challenge: c, nc: '1' });
    const parts = header.replace(/^Digest /, '').split(', ');
    const reordered = `Digest ${parts
      .reverse()
      .map((p) => p.replace('algorithm=MD5', 'algorithm="MD5"').replace('qop=auth', 'qop="auth"'))
      .map((p) => (p.startsWith('username=') ? `username=${KEYS.publicKey}` : p))
      .join(',')}`;
    const r = await rawFetch(u.href, 'GET', { headers: { Authorization: reordered } });
    expect(r.status).toBe(200);
  });

  it('refuses a uri that is not the request target, or a wrong realm', async () => {
    const path = '/groups/x/alertConfigs/cfg004';
    const c = await challengeFor(path);
    const other = signDigest({ method: 'GET', uri: `${sim.baseUrl}/boom`, keys: KEYS, challenge: c });
    expect((await rawFetch(url(path), 'GET', { headers: { Authorization: other } })).status).toBe(401);
    const u = new URL(url(path));
    const realm = signDigest({ method: 'GET', uri: u.pathname, keys: KEYS, challenge: c, realm: 'Other' });
    expect((await rawFetch(u.href, 'GET', { headers: { Authorization: realm } })).status).toBe(401);
  });

  it('signs path and query: a query changed after signing is refused', async () => {
    const path = '/groups/x/alertConfigs?pageNum=1';
    const c = await challengeFor(path);
    const u = new URL(url(path));
    const auth = signDigest({ method: 'GET', uri: u.pathname + u.search, keys: KEYS, challenge: c });
    expect((await rawFetch(`${u.href}0`, 'GET', { headers: { Authorization: auth } })).status).toBe(401);
  });

  it('answers an expired nonce with stale=true', async () => {
    sim.setFaults({ nonceTtlMs: 50 });
    const path = '/groups/x/alertConfigs/cfg005';
    const c = await challengeFor(path);
    await new Promise((r) => setTimeout(r, 120));
    const stale = await signed(path, c, '1');
    expect(stale.status).toBe(401);
    expect(stale.headers.get('www-authenticate')).toMatch(/stale=true$/);
    // Wrong password on an expired nonce is not stale: the credentials are the problem.
    const u = new URL(url(path));
    const bad = signDigest({
      method: 'GET',
      uri: u.pathname,
      keys: { ...KEYS, privateKey: 'no' },
      challenge: c,
    });
    const r = await rawFetch(u.href, 'GET', { headers: { Authorization: bad } });
    expect(r.headers.get('www-authenticate')).toMatch(/stale=false$/);
  });

  it('answers a nonce past its use limit with stale=true', async () => {
    sim.setFaults({ nonceMaxUses: 2 });
    const path = '/groups/x/alertConfigs/cfg006';
    const c = await challengeFor(path);
    expect((await signed(path, c, '1')).status).toBe(200);
    expect((await signed(path, c, '2')).status).toBe(200);
    const stale = await signed(path, c, '3');
    expect(stale.status).toBe(401);
    expect(stale.headers.get('www-authenticate')).toMatch(/stale=true$/);
    expect(sim.stats.staleNonces).toBeGreaterThan(0);
  });

  it('answers 403 IP_ADDRESS_NOT_ON_ACCESS_LIST after auth when the store refuses the address', async () => {
    const r = await digestFetch(sim, 'GET', '/boom', { keys: BLOCKED });
    expectError(r, 403, 'IP_ADDRESS_NOT_ON_ACCESS_LIST');
  });
});

describe('routing and validation', () => {
  it('answers an unknown path with 404 RESOURCE_NOT_FOUND', async () => {
    expectError(await digestFetch(sim, 'GET', '/no/such/thing'), 404, 'RESOURCE_NOT_FOUND');
    expectError(await digestFetch(sim, 'GET', `/groups/${PROJECT}/alertConfigs/`), 404, 'RESOURCE_NOT_FOUND');
  });

  it('answers a segment that does not decode with 404', async () => {
    expectError(await digestFetch(sim, 'GET', '/groups/%E0%A4%A/alertConfigs'), 404, 'RESOURCE_NOT_FOUND');
  });

  it('answers outside the prefix with 404 and no challenge', async () => {
    const r = await rawFetch(`${sim.origin}/api/other`, 'GET');
    expectError(r, 404, 'RESOURCE_NOT_FOUND');
  });

  it('answers a wrong method with 405 without errorCode', async () => {
    const r = await digestFetch(sim, 'POST', `/groups/${PROJECT}/alertConfigs/cfg001`, { body: {} });
    expectError(r, 405, undefined);
    expect(r.json.reason).toBe('Method Not Allowed');
    expect(r.headers.get('allow')).toBe('GET, PATCH');
  });

  it('answers a malformed JSON body with 400 INVALID_JSON', async () => {
    const r = await digestFetch(sim, 'PATCH', `/groups/${PROJECT}/alertConfigs/cfg001`, {
      body: '{"enabled":',
    });
    expectError(r, 400, 'INVALID_JSON');
    expect(r.json.reason).toBe('Bad Request');
  });

  it.each([
    'itemsPerPage=0',
    'itemsPerPage=501',
    'itemsPerPage=abc',
    'itemsPerPage=',
    'pageNum=0',
    'pageNum=-1',
    'pageNum=1.5',
    'pretty=yes',
    'envelope=1',
  ])('answers %s with 400 INVALID_QUERY_PARAMETER', async (q) => {
    expectError(
      await digestFetch(sim, 'GET', `/groups/${PROJECT}/alertConfigs?${q}`),
      400,
      'INVALID_QUERY_PARAMETER',
    );
  });

  it('answers a route that throws with 500 UNEXPECTED_ERROR and logs it', async () => {
    expectError(await digestFetch(sim, 'GET', '/boom'), 500, 'UNEXPECTED_ERROR');
    expect(logLines.join('\n')).toContain('route bug');
  });

  it('answers SimError from a route with its error body', async () => {
    const r = await digestFetch(sim, 'GET', `/groups/${PROJECT}/alertConfigs/zzz`);
    expect(r.json).toEqual({
      error: 404,
      errorCode: 'ALERT_CONFIG_NOT_FOUND',
      reason: 'Not Found',
      detail: 'No alert configuration with that ID exists.',
    });
  });

  it('answers a body over the size cap with 413', async () => {
    const big = { username: 'x'.repeat(100 * 1024) };
    const r = await digestFetch(sim, 'POST', '/users', { body: big });
    expectError(r, 413, 'REQUEST_TOO_LARGE');
    expect(store.data.users).not.toContain(big.username);
  });

  it('answers a streamed body (no Content-Length) over the size cap with 413', async () => {
    const u = new URL(url('/users'));
    const challenge = await challengeFor('/users', 'POST');
    const authorization = signDigest({ method: 'POST', uri: u.pathname, keys: KEYS, challenge });
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let chunks = 0;
    const body = new ReadableStream({
      pull(c) {
        if (chunks++ < 8) c.enqueue(chunk);
        else c.close();
      },
    });
    const res = await fetch(u, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      signal: AbortSignal.timeout(10_000),
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: 413, errorCode: 'REQUEST_TOO_LARGE' });
    expect(res.headers.get('connection')).toBe('close');
  });
});

describe('responses', () => {
  const list = `/groups/${PROJECT}/alertConfigs`;

  it('pages lists with self/next/previous links that keep the query', async () => {
    const first = await digestFetch(sim, 'GET', `${list}?status=OPEN`);
    expect(first.json.totalCount).toBe(250);
    expect(first.json.results).toHaveLength(100);
    expect(first.json.links.map((l: { rel: string }) => l.rel)).toEqual(['self', 'next']);
    const next = new URL(first.json.links[1].href);
    expect(next.origin + next.pathname).toBe(sim.baseUrl + list);
    expect(Object.fromEntries(next.searchParams)).toEqual({
      status: 'OPEN',
      pageNum: '2',
      itemsPerPage: '100',
    });

    const middle = await digestFetch(sim, 'GET', `${list}?itemsPerPage=100&pageNum=2&status=OPEN`);
    expect(middle.json.links.map((l: { rel: string }) => l.rel)).toEqual(['self', 'next', 'previous']);
    expect(middle.json.results[0].id).toBe('cfg100');

    const last = await digestFetch(sim, 'GET', `${list}?itemsPerPage=100&pageNum=3&status=OPEN`);
    expect(last.json.results).toHaveLength(50);
    const rels = Object.fromEntries(
      last.json.links.map((l: { rel: string; href: string }) => [l.rel, l.href]),
    );
    expect(Object.keys(rels).sort()).toEqual(['previous', 'self']);
    expect(new URL(rels['self']).searchParams.get('pageNum')).toBe('3');
    expect(new URL(rels['previous']).searchParams.get('pageNum')).toBe('2');
    expect(new URL(rels['self']).searchParams.get('status')).toBe('OPEN');

    // Following the link gives the page it names.
    const followed = await digestFetch(sim, 'GET', rels['previous'].slice(sim.baseUrl.length));
    expect(followed.json.results[0].id).toBe('cfg100');
  });

  it('answers a page past the end with no results and no next', async () => {
    const r = await digestFetch(sim, 'GET', `${list}?itemsPerPage=500&pageNum=2`);
    expect(r.json.results).toEqual([]);
    expect(r.json.totalCount).toBe(250);
    expect(r.json.links.map((l: { rel: string }) => l.rel)).toEqual(['self', 'previous']);
  });

  it('returns every item of a route marked paged: false, still validating the paging parameters', async () => {
    const r = await digestFetch(sim, 'GET', '/unpaged?itemsPerPage=1');
    expect(r.json).toEqual({
      links: [{ rel: 'self', href: `${sim.baseUrl}/unpaged?itemsPerPage=1` }],
      results: [1, 2, 3],
      totalCount: 3,
    });
    expectError(await digestFetch(sim, 'GET', '/unpaged?itemsPerPage=0'), 400, 'INVALID_QUERY_PARAMETER');
  });

  it('wraps single results and adds status to lists with envelope=true', async () => {
    const single = await digestFetch(sim, 'GET', `${list}/cfg007?envelope=true`);
    expect(single.json).toEqual({ status: 200, content: { id: 'cfg007', enabled: true } });
    const many = await digestFetch(sim, 'GET', `${list}?envelope=true&itemsPerPage=2`);
    expect(many.json).toMatchObject({
      status: 200,
      totalCount: 250,
      results: [{ id: 'cfg000' }, { id: 'cfg001' }],
    });
    const created = await digestFetch(sim, 'POST', '/users?envelope=true', {
      body: { username: 'enveloped' },
    });
    expect(created.json).toEqual({ status: 201, content: { username: 'enveloped' } });
  });

  it('indents with pretty=true', async () => {
    const r = await digestFetch(sim, 'GET', `${list}/cfg008?pretty=true`);
    expect(r.text).toBe(JSON.stringify({ id: 'cfg008', enabled: true }, null, 2));
  });

  it('sends the platform headers on 200 and 204 (raw HTTP)', async () => {
    const ok = await rawSigned('GET', `${list}/cfg009`);
    const del = await rawSigned('DELETE', `/groups/${PROJECT}/maintenanceWindows/w1?envelope=true`);
    expect(ok.status).toBe(200);
    expect(del.status).toBe(204);
    expect(del.body).toBe('');
    expect(store.data.windows).toEqual(['w2']);
    for (const r of [ok, del]) {
      expect(r.headers['x-vendor-service-version']).toMatch(
        /^gitHash=[0-9a-f]{40}; versionString=\d+\.\d+\.\d+$/,
      );
      expect(r.headers['vary']).toBe('Accept-Encoding');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['strict-transport-security']).toBe('max-age=300');
      expect(r.headers['connection']).toBe('keep-alive');
      expect(Date.parse(r.headers['date'] ?? '')).not.toBeNaN();
      expect(r.headers['content-length']).toBe(String(Buffer.byteLength(r.body)));
    }
  });
});

/** Challenge and signed request over node:http, to see the raw headers (Connection included). */
async function rawSigned(method: string, path: string) {
  const u = new URL(url(path));
  const send = (headers: Record<string, string>) =>
    new Promise<{ status: number; headers: Record<string, string | undefined>; body: string }>(
      (resolve, reject) => {
        const req = httpRequest(u, { method, headers, timeout: 10_000 }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d) => {
            body += d;
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body }),
          );
        });
        req.on('error', reject);
        req.end();
      },
    );
  const first = await send({});
  const challenge = parseChallenge(first.headers['www-authenticate'] ?? '');
  return send({ Authorization: signDigest({ method, uri: u.pathname + u.search, keys: KEYS, challenge }) });
}

describe('fault injection', () => {
  const one = `/groups/${PROJECT}/alertConfigs/cfg010`;

  it('adds latency to every request', async () => {
    sim.setFaults({ latencyMs: 150 });
    const t0 = performance.now();
    const r = await digestFetch(sim, 'GET', one);
    const elapsed = performance.now() - t0;
    expect(r.status).toBe(200);
    expect(elapsed).toBeGreaterThanOrEqual(290); // challenge and signed request both delayed
  });

  it('injects errors with the chosen statuses and bodies', async () => {
    sim.setFaults({ errorRate: 1, errorStatuses: [503] });
    expectError(await digestFetch(sim, 'GET', one), 503, 'SERVICE_UNAVAILABLE');
    sim.setFaults({ errorStatuses: [500] });
    expectError(await digestFetch(sim, 'GET', one), 500, 'UNEXPECTED_ERROR');
    sim.setFaults({ errorStatuses: [429], retryAfterSeconds: 7 });
    const limited = await digestFetch(sim, 'GET', one);
    expectError(limited, 429, 'RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('7');
    sim.setFaults({ errorStatuses: [502] });
    const proxy = await digestFetch(sim, 'GET', one);
    expect(proxy.status).toBe(502);
    expect(proxy.headers.get('content-type')).toBe('text/html');
    expect(proxy.text).toContain('Bad Gateway');
  });

  it('spreads injected errors over the statuses at a partial rate', async () => {
    sim.setFaults({ errorRate: 0.5, errorStatuses: [500, 503] });
    const seen = new Map<number, number>();
    for (let i = 0; i < 60; i++) {
      const s = (await digestFetch(sim, 'GET', one)).status;
      seen.set(s, (seen.get(s) ?? 0) + 1);
    }
    expect([...seen.keys()].every((s) => [200, 500, 503].includes(s))).toBe(true);
    expect(seen.get(200) ?? 0).toBeGreaterThan(5);
    expect((seen.get(500) ?? 0) + (seen.get(503) ?? 0)).toBeGreaterThan(5);
  });

  it('never applies a change on an injected error or reset, and persists nothing', async () => {
    const file = join(dir, 'data.json');
    const before = readFileSync(file, 'utf8');
    const errors = sim.stats.injectedErrors;
    sim.setFaults({ errorRate: 1 });
    for (let i = 0; i < 8; i++) {
      const r = await digestFetch(sim, 'PATCH', one, { body: { enabled: false } });
      expect([500, 502, 503, 429]).toContain(r.status);
    }
    expect(sim.stats.injectedErrors).toBe(errors + 8);
    sim.setFaults({ errorRate: 0, resetRate: 1 });
    const resets = sim.stats.resets;
    await expect(
      digestFetch(sim, 'POST', '/users', { body: { username: 'reset-victim' } }),
    ).rejects.toThrow();
    expect(sim.stats.resets).toBe(resets + 1);
    sim.setFaults({ resetRate: 0 });
    expect(store.data.configs.find((c) => c.id === 'cfg010')?.enabled).toBe(true);
    expect(store.data.users).not.toContain('reset-victim');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('refuses invalid fault settings and keeps the old ones', () => {
    expect(() => sim.setFaults({ errorRate: 2 })).toThrow(/errorRate/);
    expect(() => sim.setFaults({ errorStatuses: [404 as 500] })).toThrow(/errorStatuses/);
    expect(sim.faults.errorRate).toBe(0);
  });
});

describe('persistence and stats', () => {
  it('saves the snapshot after a change answered 2xx', async () => {
    const r = await digestFetch(sim, 'PATCH', `/groups/${PROJECT}/alertConfigs/cfg011`, {
      body: { enabled: false },
    });
    expect(r.status).toBe(200);
    const saved = JSON.parse(readFileSync(join(dir, 'data.json'), 'utf8')) as FakeData;
    expect(saved.configs.find((c) => c.id === 'cfg011')?.enabled).toBe(false);
  });

  it('counts requests by method and route, challenges and failures; served at /__simulator/stats', async () => {
    sim.stats.reset();
    await digestFetch(sim, 'GET', `/groups/${PROJECT}/alertConfigs`);
    await digestFetch(sim, 'PUT', `/groups/${PROJECT}/integrations/WEBHOOK`, { body: { url: 'https://x' } });
    await digestFetch(sim, 'GET', '/boom', { keys: { ...KEYS, privateKey: 'bad' } });
    const expected = {
      requests: 6,
      byMethod: { GET: 4, PUT: 2 },
      byRoute: {
        'GET /groups/:projectId/alertConfigs': 2,
        'PUT /groups/:projectId/integrations/:integrationType': 2,
        'GET /boom': 2,
      },
      byStatus: { '200': 2, '401': 4 },
      challenges: 4,
      authFailures: 1,
      staleNonces: 0,
      injectedErrors: 0,
      resets: 0,
      lostResponses: 0,
    };
    expect(sim.stats.snapshot()).toEqual(expected);
    const served = await rawFetch(`${sim.origin}/__simulator/stats`, 'GET');
    expect(served.status).toBe(200);
    expect(served.json).toEqual(expected);
    sim.stats.reset();
    expect(sim.stats.snapshot().requests).toBe(0);
  });
});
