// The incident library end to end: each incident seeds its own project into one simulator, and
// triage_project — through the MCP client, the server, the API client and digest auth — must name every
// finding by id, where it matters next to the alert it explains, in under 4,000 characters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/mcp.js';
import { startTestSimulator } from '../helpers/sim.js';
import { type Expected, missing, scenarios } from './incidents.mjs';

let sim: Awaited<ReturnType<typeof startTestSimulator>>;
let t: TestServer;
const seeded = new Map<string, Expected>();

beforeAll(async () => {
  sim = await startTestSimulator();
  const now = new Date();
  for (const s of scenarios) seeded.set(s.name, s.seed(sim.store.data, now));
  t = await startTestServer({ sim });
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

describe('incident library', () => {
  it('has at least 8 incidents, each with findings to name', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(8);
    for (const s of scenarios) expect(seeded.get(s.name)!.expect.length).toBeGreaterThan(1);
  });

  it.each(scenarios.map((s) => [s.name, s.title]))('%s: %s', async (name) => {
    const e = seeded.get(name)!;
    const r = await t.call('triage_project', { projectId: e.projectId });
    expect(r.isError).toBe(false);
    expect(missing(r.text, e), r.text).toEqual([]);
    expect(r.text.length).toBeLessThan(4_000);
  });

  it('a check that fails when a finding is missing or misplaced', () => {
    const e: Expected = {
      projectId: 'p',
      expect: [
        { id: 'e1', why: 'change' },
        { id: 'w1', why: 'window', near: 'a1' },
      ],
    };
    const text =
      '#### cause · muted by window w2\n- alertId a1: since 1 h ago\n- **2 h ago** changed X (eventId e1)\nw1';
    expect(missing(text, e).map((f) => f.id)).toEqual(['w1']);
    expect(missing(`${text.replace('w2', 'w1')}`, e)).toEqual([]);
  });
});
