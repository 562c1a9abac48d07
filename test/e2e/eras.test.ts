// Both protocol eras against the real server, over HTTP and stdio (the installed, bundled command): the v2 SDK client pinned to 2026-07-28,
// the v2 client in `auto` mode, and (for comparison on the same flows) the v1 client, which speaks 2025.
// Each lists, calls, subscribes and completes a guarded change through every consent channel it can use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/index.js';
import { silentLogger } from '../../src/log.js';
import { listenOn, localBus } from '../../src/mcp/listen.js';
import { registerPrompts } from '../../src/mcp/prompts.js';
import { registerResources } from '../../src/mcp/resources.js';
import { createRuntime, type Runtime } from '../../src/mcp/runtime.js';
import { connect, disableArgs, flows, settings } from '../helpers/eras.js';
import { startTestHttp } from '../helpers/mcp.js';

describe('HTTP', () => {
  let runtime: Runtime;
  let http: Awaited<ReturnType<typeof startTestHttp>>;
  beforeAll(async () => {
    const cfg = configSchema.parse(settings({ transport: 'http', port: 0 }));
    runtime = await createRuntime(cfg, silentLogger);
    const deps = { ...runtime.deps, extensions: [registerResources, registerPrompts] };
    const bus = localBus();
    http = await startTestHttp(deps, {
      logger: silentLogger,
      routes: runtime.approvals?.routes,
      bus,
      onListen: listenOn(deps, bus),
    });
    runtime.approvals?.useOrigin(http.origin);
  });
  afterAll(async () => {
    await http?.close();
    await runtime?.close();
  });

  flows('both eras over HTTP', (era, elicit) => connect(era, { url: http.url }, elicit), [
    'pinned',
    'auto',
    'v1',
  ]);

  it('a token answer works on the 2026 era when the page is not a channel', async () => {
    const cfg = configSchema.parse(settings({ transport: 'http', port: 0, confirmVia: 'elicitation,token' }));
    const rt = await createRuntime(cfg, silentLogger);
    const h = await startTestHttp(rt.deps, { logger: silentLogger });
    const c = await connect('pinned', { url: h.url });
    try {
      const args = await disableArgs(c);
      const first = await c.call('set_alert_config_enabled', args);
      expect(first.structured?.outcome).toBe('confirmation_required');
      const token = (first.structured?.confirmation as { confirmationToken?: string } | undefined)
        ?.confirmationToken;
      const done = await c.call('set_alert_config_enabled', { ...args, confirmationToken: token });
      expect(done.structured?.outcome).toBe('executed');
      const replay = await c.call('set_alert_config_enabled', { ...args, confirmationToken: token });
      expect(replay.text).toMatch(/already used/);
      await c.call('set_alert_config_enabled', { ...args, enabled: true });
    } finally {
      await c.close();
      await h.close();
      await rt.close();
    }
  });
});

describe('stdio (built CLI)', () => {
  const env = (over: Record<string, unknown> = {}) =>
    Object.fromEntries(
      Object.entries(settings(over)).map(([k, v]) => [
        `DBOPS_${k.replace(/[A-Z]/g, (x) => `_${x}`).toUpperCase()}`,
        String(v),
      ]),
    );
  flows('both eras over stdio', (era, elicit) => connect(era, { stdio: { env: env() } }, elicit), [
    'pinned',
    'auto',
  ]);
});
