// Trust, fifth round, findings 4 and 7. Subscriptions had no bound and outlived their client: any number of
// them, for projects that do not exist, each polling the platform until the session's idle end (372 requests
// in 30 s, 405 more after the client left). And feeds were served whatever hid the tools reading the same
// data. Now: 100 subscriptions per person and session, only feeds the key can read, polling ends with the
// client's stream, feed polls within a budget, and a feed offered only with a tool reading the same data.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activePollers,
  MAX_SUBSCRIPTIONS,
  POLL_REQUESTS_PER_PERSON,
  POLL_SHARE,
  subscribe,
} from '../../src/feeds/subscriptions.js';
import { registerResources } from '../../src/mcp/resources.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { startTestHttp, startTestServer } from '../helpers/mcp.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
});
afterAll(async () => {
  await sim?.close();
});

const extensions = [registerResources];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, check: () => boolean, ms = 3_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('finding 4: bounded subscriptions', () => {
  it(`one person holds at most ${MAX_SUBSCRIPTIONS} subscriptions`, async () => {
    const t = await startTestServer({ sim });
    const stops: Array<() => void> = [];
    try {
      const source = (i: number) => ({
        api: t.deps.api,
        key: `test://feed/${i}`,
        intervalMs: 3_600_000,
        read: async () => 'same',
      });
      for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) stops.push(await subscribe(source(i), () => {}, 'alice'));
      await expect(subscribe(source(MAX_SUBSCRIPTIONS), () => {}, 'alice')).rejects.toThrow(
        /already holds 100 subscriptions \(the cap per person and per session\)/,
      );
      // Another person is not held back by alice's.
      stops.push(await subscribe(source(0), () => {}, 'bob'));
    } finally {
      for (const stop of stops) stop();
      await t.close();
    }
    expect(activePollers()).toBe(0);
  });

  it('a feed of a project the key cannot see is refused and never polled', async () => {
    const t = await startTestServer({ sim, extensions, config: { feedPollMs: 100 } });
    try {
      await expect(
        t.client.subscribeResource({ uri: 'dbops://projects/0123456789abcdef01234567/alerts' }),
      ).rejects.toThrow(/cannot be read with this server's API key/);
      expect(activePollers()).toBe(0);
    } finally {
      await t.close();
    }
  });

  it("polling stops when the client's stream closes, not at the session's idle end", async () => {
    const t = await startTestServer({ sim, extensions, config: { feedPollMs: 100 } });
    const http = await startTestHttp(t.deps, { sessionIdleMs: 600_000 });
    const c = new Client({ name: 'leaves', version: '1' });
    try {
      await c.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      await sleep(200); // the client opens its stream of notifications
      await c.subscribeResource({ uri: `dbops://projects/${sim.projectIds[0]}/automation` });
      expect(activePollers()).toBe(1);
      await c.close();
      await until('the pollers to stop', () => activePollers() === 0);
    } finally {
      await http.close();
      await t.close();
    }
  });

  it(`feed polls take at most ${POLL_REQUESTS_PER_PERSON} platform requests a minute per person`, async () => {
    const t = await startTestServer({ sim, extensions, config: { feedPollMs: 100 } });
    try {
      for (const p of sim.projectIds.slice(0, 3)) {
        await t.client.subscribeResource({ uri: `dbops://projects/${p}/alerts` });
        await t.client.subscribeResource({ uri: `dbops://projects/${p}/events` });
      }
      const before = t.deps.api.stats.requests;
      await sleep(2_500);
      // Unbounded, six feeds every 100 ms would take hundreds; the budget leaves one poll's overshoot at most.
      expect(t.deps.api.stats.requests - before).toBeLessThanOrEqual(POLL_REQUESTS_PER_PERSON + 10);
    } finally {
      await t.close();
    }
    await until('the pollers to stop', () => activePollers() === 0);
  });
});

describe('finding 4, with DBOPS_RATE_LIMIT', () => {
  it('feed polls take at most 20 % of the rate budget', async () => {
    const t = await startTestServer({ sim, extensions, config: { feedPollMs: 100, rateLimit: 100 } });
    try {
      for (const p of sim.projectIds.slice(0, 3)) {
        await t.client.subscribeResource({ uri: `dbops://projects/${p}/alerts` });
        await t.client.subscribeResource({ uri: `dbops://projects/${p}/events` });
      }
      const before = t.deps.api.stats.requests;
      await sleep(2_500);
      expect(t.deps.api.stats.requests - before).toBeLessThanOrEqual(100 * POLL_SHARE + 10);
    } finally {
      await t.close();
    }
    await until('the pollers to stop', () => activePollers() === 0);
  });
});

describe('finding 7: a feed is offered only while a tool reading the same data is reachable', () => {
  it('with the event tools disabled, the event feeds are neither listed nor read nor subscribed', async () => {
    const t = await startTestServer({
      sim,
      extensions,
      config: { disabledTools: ['list_project_events', 'list_global_events'] },
    });
    try {
      const templates = (await t.client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate);
      expect(templates).toContain('dbops://projects/{projectId}/alerts');
      expect(templates).not.toContain('dbops://projects/{projectId}/events');
      const listed = (await t.client.listResources()).resources.map((r) => r.uri);
      expect(listed).not.toContain('dbops://global/events');
      const p = sim.projectIds[0];
      for (const uri of [`dbops://projects/${p}/events`, 'dbops://global/events'])
        await expect(t.client.readResource({ uri })).rejects.toThrow(/list_\w+_events.*DBOPS_DISABLED_TOOLS/);
      await expect(t.client.subscribeResource({ uri: 'dbops://global/events' })).rejects.toThrow(
        /not offered to this client/,
      );
      expect((await t.client.readResource({ uri: `dbops://projects/${p}/alerts` })).contents).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('outside the toolsets listed for the client, too (DBOPS_TOOLSETS)', async () => {
    const t = await startTestServer({ sim, extensions, config: { toolsets: ['alerts'] } });
    try {
      await expect(t.client.readResource({ uri: 'dbops://global/events' })).rejects.toThrow(
        /not offered to this client/,
      );
    } finally {
      await t.close();
    }
  });
});
