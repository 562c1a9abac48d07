// A trace of one triage_installation on the demo: every call that crosses from the feeds (src/feeds/) into the
// views (src/format/views/), counted where it happens. Each view module is wrapped so that a call into it from a
// feed is recorded with its caller: how many times control passes from reading to drawing and back while the
// answer is made: none now. Run: npx vitest run test/trace/handoffs.test.ts (it prints the edges if any).
import { describe, expect, it, vi } from 'vitest';
import { type TestServer, withDemoServer } from '../helpers/mcp.js';

const h = vi.hoisted(() => {
  const calls = new Map<string, number>();
  const trace = { on: false };
  function wrap(mod: Record<string, unknown>, file: string): Record<string, unknown> {
    return Object.fromEntries(
      Object.entries(mod).map(([name, v]) => {
        if (typeof v !== 'function' || /^[A-Z]/.test(name)) return [name, v];
        const f = v as (...a: unknown[]) => unknown;
        return [
          name,
          function (this: unknown, ...args: unknown[]) {
            if (trace.on) {
              const caller = (new Error().stack ?? '').split('\n')[2] ?? '';
              const m = /src\/feeds\/([\w-]+)\.ts/.exec(caller);
              if (m) {
                const key = `feeds/${m[1]} → views/${file}.${name}`;
                calls.set(key, (calls.get(key) ?? 0) + 1);
              }
            }
            return f.apply(this, args);
          },
        ];
      }),
    );
  }
  return { calls, trace, wrap };
});

vi.mock('../../src/format/views/access.js', async (orig) =>
  h.wrap((await orig()) as Record<string, unknown>, 'access'),
);
vi.mock('../../src/format/views/access-keys.js', async (orig) =>
  h.wrap((await orig()) as Record<string, unknown>, 'access-keys'),
);
vi.mock('../../src/format/views/access-people.js', async (orig) =>
  h.wrap((await orig()) as Record<string, unknown>, 'access-people'),
);
vi.mock('../../src/format/views/alerts.js', async (orig) =>
  h.wrap((await orig()) as Record<string, unknown>, 'alerts'),
);
vi.mock('../../src/format/views/alerts-answers.js', async (orig) =>
  h.wrap((await orig()) as Record<string, unknown>, 'alerts-answers'),
);
vi.mock('../../src/format/views/deployment.js', async (orig) =>
  h.wrap((await orig()) as Record<string, unknown>, 'deployment'),
);
vi.mock('../../src/format/views/events.js', async (orig) =>
  h.wrap((await orig()) as Record<string, unknown>, 'events'),
);
vi.mock('../../src/format/views/integrations.js', async (orig) =>
  h.wrap((await orig()) as Record<string, unknown>, 'integrations'),
);
vi.mock('../../src/format/views/projects.js', async (orig) =>
  h.wrap((await orig()) as Record<string, unknown>, 'projects'),
);
vi.mock('../../src/format/views/triage.js', async (orig) =>
  h.wrap((await orig()) as Record<string, unknown>, 'triage'),
);
vi.mock('../../src/format/views/triage-alerts.js', async (orig) =>
  h.wrap((await orig()) as Record<string, unknown>, 'triage-alerts'),
);
vi.mock('../../src/format/views/triage-installation.js', async (orig) =>
  h.wrap((await orig()) as Record<string, unknown>, 'triage-installation'),
);
vi.mock('../../src/format/views/triage-projects.js', async (orig) =>
  h.wrap((await orig()) as Record<string, unknown>, 'triage-projects'),
);
vi.mock('../../src/format/views/windows.js', async (orig) =>
  h.wrap((await orig()) as Record<string, unknown>, 'windows'),
);

let t: TestServer;
withDemoServer((_sim, server) => {
  t = server;
});

describe('hand-offs between feeds and views', () => {
  it('in one triage_installation', async () => {
    await t.call('list_projects', {});
    h.trace.on = true;
    const r = await t.call('triage_installation', {});
    h.trace.on = false;
    expect(r.isError).toBe(false);
    const total = [...h.calls.values()].reduce((a, b) => a + b, 0);
    console.log(
      `HANDOFFS ${total} in ${h.calls.size} edges\n${[...h.calls].map(([k, n]) => `${n}\t${k}`).join('\n')}`,
    );
  });
});
