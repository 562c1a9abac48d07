// Load under faults: 20 MCP sessions over Streamable HTTP, 50 mixed calls each, against a platform that
// answers 20% of requests with 503, resets 5% of connections, applies 10% of acknowledgements and then drops
// the answer (lose-response), and lets a digest nonce serve only a few requests. Every read must succeed
// through retries; every acknowledgement is applied at most once, every one reported done was applied, every
// one reported failed was not, and every lost answer is reported as "may have been applied"; sessions,
// sockets and memory must come back.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHttp } from '../../src/mcp/http/index.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { startTestHttp } from '../helpers/mcp.js';
import { buildDeps } from './deps.js';

// Each round costs about 12 ms of CPU per call (client, server and platform in this one process). At 100
// calls a session the test took ~47 s of a 2-core machine; at 50 it proves the same: per round, over 1,000
// calls, the faults strike ~300 reads (503), ~60 connections, ~1,300 nonces and, with twice the
// lose-response rate, ~11 acknowledgements, as 2,000 calls at 5% did.
const SESSIONS = 20;
const CALLS = 50;
const ACK_EVERY = 5; // one call in five is a write
/** Live heap a second round may add: 5 KB a call, as the 10 MB over 2,000 calls this test first allowed. */
const HEAP_GROWTH_MB = (SESSIONS * CALLS * 5) / 1024;

let sim: Simulator;
let deps: ReturnType<typeof buildDeps>;
let http: RunningHttp;

beforeAll(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0, dataset: 'demo' });
  deps = buildDeps(sim, { maxRetries: 8 });
  http = await startTestHttp(deps);
});
afterAll(async () => {
  await http?.close();
  await deps?.close();
  await sim?.close();
});

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** Memory after a full collection, so that garbage not yet collected does not count as growth. */
const memory = () => {
  gc();
  return process.memoryUsage();
};
const mb = (bytes: number) => bytes / 2 ** 20;
const activeHandles = () =>
  (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().length;

async function connect() {
  const transport = new StreamableHTTPClientTransport(new URL(http.url));
  const client = new Client({ name: 'load', version: '1' });
  await client.connect(transport);
  return {
    client,
    async close() {
      await transport.terminateSession();
      await client.close();
    },
  };
}

async function until(check: () => boolean, ms: number) {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
}

type Outcome = { tool: string; alertId?: string; ok: boolean; uncertain?: boolean; text: string };
type Call = [string, Record<string, unknown>];
type Session = Awaited<ReturnType<typeof connect>>;

/** The first project's alerts (the writes acknowledge them) and the reads the sessions mix in. */
function workload(): { alertIds: string[]; reads: Call[] } {
  const projectId = sim.projectIds[0]!;
  const alertIds = sim.store.data.alerts.filter((a) => a.groupId === projectId).map((a) => a.id);
  const alertConfigId = sim.store.data.alertConfigs.find((c) => c.groupId === projectId)!.id;
  const reads: Call[] = [
    ['list_alert_configs', {}],
    ['get_alert_config', { alertConfigId }],
    ['list_open_alerts_for_config', { alertConfigId }],
    ['list_project_events', {}],
    ['list_maintenance_windows', {}],
    ['get_automation_status', {}],
    ['list_hosts', {}],
  ];
  return { alertIds, reads };
}

/** Every session makes its CALLS calls in turn, one in ACK_EVERY an acknowledgement; all sessions at once. */
async function callAll(sessions: Session[], { alertIds, reads }: ReturnType<typeof workload>) {
  const outcomes: Outcome[] = [];
  await Promise.all(
    sessions.map(async ({ client }, s) => {
      for (let i = 0; i < CALLS; i++) {
        if (i % ACK_EVERY === ACK_EVERY - 1) {
          const alertId = alertIds[(s * CALLS + i) % alertIds.length]!;
          const r = await client.callTool({
            name: 'acknowledge_alert',
            arguments: { alertId, forHours: 1, acknowledgementComment: `load ${s}/${i}` },
          });
          const structured = r.structuredContent as { outcome?: string } | undefined;
          const text = textOf(r);
          outcomes.push({
            tool: 'acknowledge_alert',
            alertId,
            ok: r.isError !== true && structured?.outcome === 'executed',
            uncertain: r.isError === true && text.includes('may have been applied'),
            text,
          });
        } else {
          const [name, args] = reads[(s + i) % reads.length]!;
          const r = await client.callTool({ name, arguments: args });
          outcomes.push({ tool: name, ok: r.isError !== true, text: textOf(r) });
        }
      }
    }),
  );
  return outcomes;
}

type Stats = ReturnType<Simulator['stats']['snapshot']>;

/** The faults really happened, on this scale. */
function expectFaultsStruck(before: Stats, after: Stats) {
  expect(after.injectedErrors - before.injectedErrors).toBeGreaterThan(100);
  expect(after.resets - before.resets).toBeGreaterThan(20);
  expect(after.staleNonces - before.staleNonces).toBeGreaterThan(50);
  expect(after.lostResponses - before.lostResponses).toBeGreaterThan(3);
}

/**
 * Writes: a failure is allowed (a PATCH is never retried once it may have reached the platform), but what
 * the answer says must be what happened on the platform.
 */
function expectWritesTruthful(outcomes: Outcome[], alertIds: string[], acksBefore: Map<string, number>) {
  const writes = outcomes.filter((o) => o.tool === 'acknowledge_alert');
  expect(writes.filter((o) => o.ok).length).toBeGreaterThan(writes.length / 2);
  for (const w of writes.filter((o) => !o.ok && !o.uncertain))
    expect(w.text).toMatch(/503|reset|socket|connect|unavailable/i);
  const acksAfter = countAcks();
  const tally = {
    attempted: writes.length,
    applied: 0,
    reported: 0,
    uncertain: 0,
    duplicated: 0,
    misreported: 0,
  };
  for (const alertId of alertIds) {
    const mine = writes.filter((o) => o.alertId === alertId);
    const reported = mine.filter((o) => o.ok).length;
    const uncertain = mine.filter((o) => o.uncertain).length;
    const applied = (acksAfter.get(alertId) ?? 0) - (acksBefore.get(alertId) ?? 0);
    tally.applied += applied;
    tally.reported += reported;
    tally.uncertain += uncertain;
    tally.duplicated += Math.max(0, applied - mine.length); // a call applied more than once
    tally.misreported += Math.max(0, reported - applied) + Math.max(0, applied - reported - uncertain);
  }
  console.info(`writes under lose-response faults: ${JSON.stringify(tally)}`);
  expect(tally.uncertain).toBeGreaterThan(0); // the fault really struck writes
  expect({ duplicated: tally.duplicated, misreported: tally.misreported }).toEqual({
    duplicated: 0,
    misreported: 0,
  });
}

/** Sessions and sockets come back once the sessions close. */
async function expectReleased(sessions: Session[], handlesBefore: number) {
  await Promise.all(sessions.map((s) => s.close()));
  await until(() => http.sessions() === 0, 5_000);
  expect(http.sessions()).toBe(0);
  await until(() => activeHandles() <= handlesBefore + 4, 10_000);
  expect(activeHandles()).toBeLessThanOrEqual(handlesBefore + 4);
}

/** One round: SESSIONS sessions open, make their CALLS calls each against the faults, and close. */
async function round(work: ReturnType<typeof workload>, handlesBefore: number) {
  const acksBefore = countAcks();
  const statsBefore = sim.stats.snapshot();
  sim.setFaults({
    errorRate: 0.2,
    errorStatuses: [503],
    resetRate: 0.05,
    loseResponseRate: 0.1,
    loseResponseMethods: ['PATCH'],
    nonceMaxUses: 3,
  });
  const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => connect()));
  expect(http.sessions()).toBe(SESSIONS);
  const outcomes = await callAll(sessions, work);
  sim.setFaults({ errorRate: 0, resetRate: 0, loseResponseRate: 0, nonceMaxUses: 0 });

  expect(outcomes).toHaveLength(SESSIONS * CALLS);
  expectFaultsStruck(statsBefore, sim.stats.snapshot());
  // Every read succeeded.
  const failedReads = outcomes.filter((o) => o.tool !== 'acknowledge_alert' && !o.ok);
  expect(failedReads.map((o) => `${o.tool}: ${o.text.slice(0, 200)}`)).toEqual([]);
  expectWritesTruthful(outcomes, work.alertIds, acksBefore);
  await expectReleased(sessions, handlesBefore);
}

describe(`${SESSIONS} sessions × ${CALLS} calls against a faulty platform`, () => {
  it('keeps every read, applies every write once, and leaks nothing', { timeout: 150_000 }, async () => {
    const work = workload();
    expect(work.alertIds.length).toBeGreaterThan(3);

    // A warm-up session so that the baseline includes the pools every later session shares.
    const warm = await connect();
    for (const [name, args] of work.reads)
      expect((await warm.client.callTool({ name, arguments: args })).isError).not.toBe(true);
    await warm.close();
    await until(() => http.sessions() === 0, 5_000);
    const handlesBefore = activeHandles();
    const before = memory();

    // Memory: a second identical round must leave no live objects behind beyond the platform's own new
    // records (heap after a full GC): that is the leak check. RSS only guards against a runaway: V8 keeps the
    // heap it grew for the burst, and with other test files running beside this one RSS after round two moved
    // by -35..+106 MB over 7 runs each of this code and of the previous release (round one +67..+137 MB),
    // while the live heap moved by under 2 MB.
    await round(work, handlesBefore);
    const first = memory();
    await round(work, handlesBefore);
    const second = memory();
    expect(mb(second.heapUsed - first.heapUsed)).toBeLessThan(HEAP_GROWTH_MB);
    expect(mb(first.rss - before.rss)).toBeLessThan(300);
    expect(mb(second.rss - first.rss)).toBeLessThan(200);
  });
});

function textOf(r: Awaited<ReturnType<Client['callTool']>>): string {
  return (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
}

/** Acknowledgement audit events per alert id, as the platform recorded them. */
function countAcks(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of sim.store.data.events)
    if (e.eventTypeName === 'ALERT_ACKNOWLEDGED_AUDIT' && typeof e.alertId === 'string')
      counts.set(e.alertId, (counts.get(e.alertId) ?? 0) + 1);
  return counts;
}
