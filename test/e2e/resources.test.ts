// Feeds as MCP resources end to end: listing, reading (markdown and JSON), completion and subscriptions with
// polling against the simulator, through the SDK client.
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activePollers, pollsDone } from '../../src/feeds/subscriptions.js';
import { registerPrompts } from '../../src/mcp/prompts.js';
import { registerResources } from '../../src/mcp/resources.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { startSimulator } from '../../src/simulator/index.js';
import { routes } from '../../src/simulator/routes/index.js';
import { until } from '../helpers/eras.js';
import { startTestServer, type TestServer } from '../helpers/mcp.js';

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let t: TestServer;
const POLL_MS = 200;
const extensions = [registerResources, registerPrompts];

beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
  t = await startTestServer({ sim, extensions, config: { feedPollMs: POLL_MS } });
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

const textOf = (r: { contents: Array<Record<string, unknown>> }) => String(r.contents[0]?.text ?? '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `n` more feed polls have finished (whichever feeds): "nothing across n polls" without the clock. */
async function polls(n: number) {
  const target = pollsDone() + n;
  await until(`${n} polls`, () => pollsDone() >= target);
}

/** Collects resources/updated notifications of a client. */
function updates(client: Client): string[] {
  const seen: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    seen.push(n.params.uri);
  });
  return seen;
}

/** A second session on the same server dependencies (same API client), as the HTTP transport makes them. */
async function secondSession(server: TestServer) {
  const mcp = createMcpServer({ ...server.deps, extensions });
  const client = new Client({ name: 'second', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(b);
  await client.connect(a);
  return { client, close: () => client.close() };
}

describe('resource listing', () => {
  it('offers the feed templates and the concrete feeds of every project', async () => {
    const templates = (await t.client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate);
    expect(templates.sort()).toEqual(
      [
        'dbops://global-alert-configs/{globalAlertConfigId}/alerts',
        'dbops://projects/{projectId}/alerts',
        'dbops://projects/{projectId}/automation',
        'dbops://projects/{projectId}/events',
      ].sort(),
    );
    const uris = (await t.client.listResources()).resources.map((r) => r.uri);
    expect(uris).toContain('dbops://global/events');
    for (const p of sim.projectIds)
      for (const feed of ['alerts', 'events', 'automation'])
        expect(uris).toContain(`dbops://projects/${p}/${feed}`);
    for (const c of sim.store.data.globalAlertConfigs)
      expect(uris).toContain(`dbops://global-alert-configs/${c.id}/alerts`);
    // The configured project comes first.
    expect(uris[uris.findIndex((u) => u.startsWith('dbops://projects/'))]).toContain(t.config.projectId!);
  });

  it('lists the configured project’s feeds when the server cannot list projects', async () => {
    const noList = await startSimulator({
      dataset: 'demo',
      port: 0,
      routes: routes.filter((r) => !(r.method === 'GET' && r.path === '/groups')),
    });
    const s2 = await startTestServer({ sim: noList, extensions });
    try {
      const uris = (await s2.client.listResources()).resources.map((r) => r.uri);
      const projects = uris.filter((u) => u.startsWith('dbops://projects/'));
      expect(projects.sort()).toEqual(
        ['alerts', 'automation', 'events'].map((f) => `dbops://projects/${s2.config.projectId}/${f}`),
      );
      const values = await s2.client.complete({
        ref: { type: 'ref/resource', uri: 'dbops://projects/{projectId}/alerts' },
        argument: { name: 'projectId', value: '' },
      });
      expect(values.completion.values).toEqual([s2.config.projectId]);
    } finally {
      await s2.close();
      await noList.close();
    }
  });

  it('completes project and global alert configuration ids, by id prefix or by name', async () => {
    const search = sim.store.data.projects.find((p) => p.name === 'search-staging')!;
    const byName = await t.client.complete({
      ref: { type: 'ref/resource', uri: 'dbops://projects/{projectId}/alerts' },
      argument: { name: 'projectId', value: 'search' },
    });
    expect(byName.completion.values).toEqual([search.id]);
    const byPrefix = await t.client.complete({
      ref: { type: 'ref/resource', uri: 'dbops://projects/{projectId}/events' },
      argument: { name: 'projectId', value: search.id.slice(0, 4) },
    });
    expect(byPrefix.completion.values).toContain(search.id);
    const config = sim.store.data.globalAlertConfigs[0]!;
    const global = await t.client.complete({
      ref: { type: 'ref/resource', uri: 'dbops://global-alert-configs/{globalAlertConfigId}/alerts' },
      argument: { name: 'globalAlertConfigId', value: config.id.slice(0, 3) },
    });
    expect(global.completion.values).toContain(config.id);
  });
});

describe('reading feeds', () => {
  it('reads a project’s open alerts as a markdown digest and as JSON', async () => {
    const projectId = sim.projectIds[0]!;
    const uri = `dbops://projects/${projectId}/alerts`;
    // The project's own open and tracking alerts, and the open global alerts on its hosts.
    const open = [
      ...sim.store.data.alerts.filter(
        (a) => a.groupId === projectId && (a.status === 'OPEN' || a.status === 'TRACKING'),
      ),
      ...sim.store.data.globalAlerts.filter((a) => a.groupId === projectId && a.status === 'OPEN'),
    ];
    expect(open.some((a) => sim.store.data.globalAlerts.includes(a))).toBe(true);
    const md = await t.client.readResource({ uri });
    expect(md.contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' });
    expect(textOf(md)).toMatch(
      new RegExp(`# Open alerts of project \`[^\`]+\` \\(${projectId}\\) — ${open.length}`),
    );
    for (const a of open) expect(textOf(md)).toContain(a.id);
    expect(textOf(md)).toMatch(/<data-[0-9a-f]+>/);

    const json = await t.client.readResource({ uri: `${uri}?format=json` });
    expect(json.contents[0]).toMatchObject({ uri: `${uri}?format=json`, mimeType: 'application/json' });
    const body = JSON.parse(textOf(json));
    expect(body.totalCount).toBe(open.length);
    expect(body.alerts.map((a: { id: string }) => a.id).sort()).toEqual(open.map((a) => a.id).sort());
  });

  it('reads a project’s events and automation status', async () => {
    // payments-prod: its rs-ledger deployment fails on db-prod-06 (docs/demo-world.md).
    const projectId = sim.projectIds[0]!;
    const since = Date.now() - 24 * 3_600_000;
    const recent = sim.store.data.events.filter(
      (e) => e.groupId === projectId && Date.parse(e.created) >= since,
    );
    const events = JSON.parse(
      textOf(await t.client.readResource({ uri: `dbops://projects/${projectId}/events?format=json` })),
    );
    expect(events.events.map((e: { id: string }) => e.id).sort()).toEqual(recent.map((e) => e.id).sort());
    const md = textOf(await t.client.readResource({ uri: `dbops://projects/${projectId}/events` }));
    expect(md).toContain(`${recent.length} event`);

    const automation = sim.store.data.automation.find((a) => a.groupId === projectId)!;
    const failing = automation.processes.find((p) => p.errorCode !== 0)!;
    const auto = textOf(await t.client.readResource({ uri: `dbops://projects/${projectId}/automation` }));
    expect(auto).toContain(`goal version ${automation.goalVersion}`);
    expect(auto).toContain(failing.name);
    const autoJson = JSON.parse(
      textOf(await t.client.readResource({ uri: `dbops://projects/${projectId}/automation?format=json` })),
    );
    expect(autoJson.processes).toHaveLength(automation.processes.length);
  });

  it('reads the global events and a global alert configuration’s open alerts', async () => {
    const global = JSON.parse(
      textOf(await t.client.readResource({ uri: 'dbops://global/events?format=json' })),
    );
    const since = Date.now() - 24 * 3_600_000;
    expect(global.events).toHaveLength(
      sim.store.data.globalEvents.filter((e) => Date.parse(e.created) >= since).length,
    );
    expect(textOf(await t.client.readResource({ uri: 'dbops://global/events' }))).toContain(
      '# Global events',
    );

    const config = sim.store.data.globalAlertConfigs[0]!;
    const open = sim.store.data.globalAlerts.filter(
      (a) => a.alertConfigId === config.id && a.status === 'OPEN',
    );
    const uri = `dbops://global-alert-configs/${config.id}/alerts`;
    const md = textOf(await t.client.readResource({ uri }));
    for (const a of open) expect(md).toContain(a.id);
    expect(JSON.parse(textOf(await t.client.readResource({ uri: `${uri}?format=json` }))).totalCount).toBe(
      open.length,
    );
  });

  it('refuses unknown resources and bad formats with a hint', async () => {
    await expect(t.client.readResource({ uri: 'dbops://projects/x/nothing' })).rejects.toThrow(
      /templates\/list/,
    );
    await expect(
      t.client.readResource({ uri: `dbops://projects/${sim.projectIds[0]}/alerts?format=xml` }),
    ).rejects.toThrow(/No resource/);
  });

  it('reports an unknown project as an error', async () => {
    await expect(
      t.client.readResource({ uri: 'dbops://projects/aaaaaaaaaaaaaaaaaaaaaaaa/alerts' }),
    ).rejects.toThrow(/project/i);
  });
});

describe('subscriptions', () => {
  it('declares subscribe support', () => {
    expect(t.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
  });

  it('notifies when an alert is acknowledged, shares one poller between sessions, and stops on unsubscribe', async () => {
    const projectId = sim.projectIds[0]!;
    const uri = `dbops://projects/${projectId}/alerts`;
    const seen = updates(t.client);
    const other = await secondSession(t);
    const seenByOther = updates(other.client);
    try {
      await t.client.subscribeResource({ uri });
      await other.client.subscribeResource({ uri: `${uri}?format=json` });
      expect(activePollers()).toBe(1);

      // Nothing changes: no notification across several polls.
      await polls(3);
      expect(seen).toEqual([]);

      const alert = sim.store.data.alerts.find(
        (a) => a.groupId === projectId && a.status === 'OPEN' && !a.acknowledgedUntil,
      )!;
      const ack = await t.call('acknowledge_alert', { alertId: alert.id, forHours: 2 });
      expect(ack.isError).toBe(false);
      const before = pollsDone();
      await until('both sessions to hear of the change', () => seen.length > 0 && seenByOther.length > 0);
      // Heard at the next poll (counted in polls, not milliseconds: a busy machine polls late, not less).
      expect(pollsDone() - before).toBeLessThanOrEqual(2);
      expect(seen).toEqual([uri]);
      expect(seenByOther).toEqual([`${uri}?format=json`]);

      await t.client.unsubscribeResource({ uri });
      expect(activePollers()).toBe(1); // the other session still listens
      await other.client.unsubscribeResource({ uri: `${uri}?format=json` });
      expect(activePollers()).toBe(0);

      await t.call('acknowledge_alert', { alertId: alert.id }); // a change nobody listens to
      // No poller is left to count polls by: the clock stands in for three poll intervals.
      await sleep(POLL_MS * 3);
      expect(seen).toHaveLength(1);
      expect(seenByOther).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('notifies when a new event arrives', async () => {
    const projectId = sim.projectIds[2]!;
    const uri = `dbops://projects/${projectId}/events`;
    const seen = updates(t.client);
    await t.client.subscribeResource({ uri });
    try {
      await polls(2);
      expect(seen).toEqual([]);
      sim.store.data.events.push({
        id: randomBytes(12).toString('hex'),
        created: `${new Date().toISOString().slice(0, 19)}Z`,
        eventTypeName: 'AUTOMATION_CONFIG_PUBLISHED_AUDIT',
        groupId: projectId,
        username: 'sofia.alvarez@example.com',
      });
      await until('the events feed to report the new event', () => seen.length > 0);
      expect(seen).toEqual([uri]);
    } finally {
      await t.client.unsubscribeResource({ uri });
    }
    expect(activePollers()).toBe(0);
  });

  it('stops polling when the session ends', async () => {
    const other = await secondSession(t);
    await other.client.subscribeResource({ uri: `dbops://projects/${sim.projectIds[0]}/automation` });
    await other.client.subscribeResource({ uri: 'dbops://global/events' });
    expect(activePollers()).toBe(2);
    await other.close();
    await until('the pollers to stop', () => activePollers() === 0);
  });

  it('refuses to subscribe to something that is not a feed', async () => {
    await expect(t.client.subscribeResource({ uri: 'dbops://elsewhere' })).rejects.toThrow(/No resource/);
    expect(activePollers()).toBe(0);
  });
});
