// The whole result as it crosses the wire — text, structured part and what the protocol adds around them
// (on 2026-07-28 the `resultType` and the server's identity in `_meta`) — stays within DBOPS_MAX_OUTPUT_CHARS
// on both eras, at 100× the demo data: a client that hands its model the whole result (mcp-use) gets ≤ 12,000.
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { scaleStore } from '../clients/scale.js';
import { startTestHttp, startTestServer, type TestServer } from '../helpers/mcp.js';

const BUDGET = 12_000;

/** The `result` of every JSON-RPC response the client read, as the server sent it. */
function capturing(results: Array<Record<string, unknown>>): typeof fetch {
  return async (input, init) => {
    const r = await fetch(input, init);
    const type = r.headers.get('content-type') ?? '';
    if (!type.includes('application/json') && !type.includes('text/event-stream')) return r;
    const body = await r.text();
    const messages = type.includes('json')
      ? [body]
      : body
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6));
    for (const m of messages) {
      try {
        const parsed = JSON.parse(m) as { result?: Record<string, unknown> };
        if (parsed.result && 'content' in parsed.result) results.push(parsed.result);
      } catch {}
    }
    return new Response(body, { status: r.status, statusText: r.statusText, headers: r.headers });
  };
}

describe('the whole result on the wire at 100× the demo data', () => {
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  let t: TestServer;
  let http: Awaited<ReturnType<typeof startTestHttp>>;
  beforeAll(async () => {
    sim = await startSimulator({ dataset: 'demo', port: 0 });
    scaleStore(sim.store, 100);
    t = await startTestServer({ sim });
    http = await startTestHttp(t.deps);
  }, 120_000);
  afterAll(async () => {
    await http?.close();
    await t?.close();
    await sim?.close();
  });

  // A call reads its parts at once, dozens of paged lists at 100×, each listening on the call's signal: Node
  // took that for a leak (MaxListenersExceededWarning) and said so on the server's stderr.
  it('reads a whole triage at 100× without a listener-leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      for (const name of ['triage_project', 'triage_installation']) await t.call(name, {});
      await t.call('list_open_alerts', { projectId: 'all' });
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });

  for (const era of ['pinned', 'auto-2025'] as const)
    it(`stays within ${BUDGET} characters, server information included (${era})`, async () => {
      const results: Array<Record<string, unknown>> = [];
      const c = new V2Client(
        { name: 'whole-result', version: '1' },
        { versionNegotiation: { mode: era === 'pinned' ? { pin: '2026-07-28' } : 'legacy' } },
      );
      await c.connect(new V2Http(new URL(http.url), { fetch: capturing(results) }));
      try {
        const sizes: Record<string, number> = {};
        for (const [name, args] of [
          ['triage_project', {}],
          ['triage_project', { responseFormat: 'detailed', sinceHours: 720 }],
          ['list_open_alerts', {}],
          ['list_project_events', { itemsPerPage: 500, includeRaw: true, responseFormat: 'detailed' }],
        ] as const) {
          results.length = 0;
          await c.callTool({ name, arguments: args });
          expect(results.length, name).toBe(1);
          sizes[`${name} ${JSON.stringify(args)}`] = JSON.stringify(results[0]).length;
        }
        console.log(`whole results (${era})`, sizes);
        expect(Object.entries(sizes).filter(([, n]) => n > BUDGET)).toEqual([]);
      } finally {
        await c.close();
      }
    }, 120_000);
});
