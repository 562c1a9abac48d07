// The apps and the text agree: the same demo triage drawn as text (the server's views) and read by the incident
// timeline from the structured content (apps/incident-timeline-summary.ts, as the host runs it) gives every
// cause the same severity and the same state — open, acknowledged or muted. Both take their rules from
// src/rules/; a second copy of a rule in the app (as the agent-down "critical" was) fails here.
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, withDemoServer } from '../helpers/mcp.js';

type Json = Record<string, unknown>;
interface AppRules {
  severity(g: Json): string;
  open(g: Json): boolean;
  muted(g: Json): boolean;
}

let t: TestServer;
let projectIds: string[];
withDemoServer((sim, server) => {
  t = server;
  projectIds = sim.projectIds;
});

let app: AppRules;
beforeAll(async () => {
  // Loaded by path: the app's module is typed for the browser (DOM), not for the tests' Node types.
  const path = '../../apps/incident-timeline-summary.js';
  app = (await import(path)) as AppRules;
});

/** A cause's state as the text says it: its heading names the window muting it and how many are acknowledged. */
function textState(text: string, g: Json): string {
  const ids = g.alertConfigIds as string[];
  const heading = text.split('\n').find((l) => l.startsWith('#### ') && ids.every((id) => l.includes(id)));
  expect(heading, `the text names the cause of ${ids.join(', ')}`).toBeDefined();
  // "· muted by …", or "· muted" alone where the one window in force is named below the causes.
  if (/ · muted\b/.test(heading!)) return 'muted';
  const m = / — (\d+) alerts?(?:, (\d+) acknowledged)?/.exec(heading!);
  return m && m[1] === m[2] ? 'acknowledged' : 'open';
}

const appState = (g: Json) => (app.muted(g) ? 'muted' : app.open(g) ? 'open' : 'acknowledged');

describe('apps and text agree', () => {
  it('on every cause of every demo project: severity and state', async () => {
    let causes = 0;
    const severities = new Set<string>();
    for (const projectId of projectIds) {
      const r = await t.call('triage_project', { projectId, responseFormat: 'detailed' });
      expect(r.isError, r.text).toBe(false);
      const groups = ((r.structured!.alerts as Json | null)?.groups ?? []) as Json[];
      for (const g of groups) {
        causes += 1;
        severities.add(app.severity(g));
        expect({ cause: g.cause, severity: app.severity(g) }).toEqual({
          cause: g.cause,
          severity: g.severity,
        });
        expect({ cause: g.cause, state: appState(g) }).toEqual({
          cause: g.cause,
          state: textState(r.text, g),
        });
      }
    }
    // The demo holds both severities and more than a handful of causes: the comparison compares something.
    expect(causes).toBeGreaterThan(5);
    expect([...severities].sort()).toEqual(['critical', 'warning']);
  });
});
