// The sealed requestState of a consent question round-trips through the client, so it is untrusted: a
// 2026-07-28 client driving the rounds by hand tries to replay an accepted round, to reuse the answer for
// other arguments or another tool, to tamper with the state, and to present it to a server of another
// principal or key. Every attempt changes nothing.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/index.js';
import { silentLogger } from '../../src/log.js';
import { createRuntime, type Runtime } from '../../src/mcp/runtime.js';
import { settings } from '../helpers/eras.js';
import { decide } from '../helpers/http.js';
import { startTestHttp } from '../helpers/mcp.js';
import { noRedis, startRedis, type TestRedis } from '../helpers/redis.js';

const accept = { confirm: { action: 'accept', content: { confirm: true } } };
type Http = Awaited<ReturnType<typeof startTestHttp>>;

async function server(over: Record<string, unknown> = {}) {
  const runtime = await createRuntime(
    configSchema.parse(settings({ transport: 'http', port: 0, confirmVia: 'elicitation,token', ...over })),
    silentLogger,
  );
  const http = await startTestHttp(runtime.deps, {
    logger: silentLogger,
    token: over.httpToken as string | undefined,
  });
  return { runtime, http };
}

async function manualClient(
  http: Http,
  token?: string,
  elicitation: { form?: Record<string, never> } = { form: {} },
) {
  const c = new Client(
    { name: 'manual', version: '1' },
    {
      capabilities: { elicitation },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );
  await c.connect(
    new StreamableHTTPClientTransport(new URL(http.url), {
      ...(token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}),
    }),
  );
  return c;
}

type Round = {
  resultType?: string;
  requestState?: string;
  content?: Array<{ text?: string }>;
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};
const textOf = (r: Round) => (r.content ?? []).map((x) => x.text ?? '').join('\n');

/** A round of tools/call carrying the person's answer and the server's state, as the client would retry. */
const retry = (c: Client, name: string, args: Record<string, unknown>, requestState: string | undefined) =>
  c.request(
    { method: 'tools/call', params: { name, arguments: args, inputResponses: accept, requestState } },
    { allowInputRequired: true },
  ) as Promise<Round>;

describe('sealed consent state', () => {
  let s: { runtime: Runtime; http: Http };
  let c: Client;
  let configs: string[];
  beforeAll(async () => {
    s = await server();
    c = await manualClient(s.http);
    const list = (await c.callTool({ name: 'list_alert_configs', arguments: {} })) as Round;
    configs = ((list.structuredContent?.results ?? []) as Array<{ id: string; enabled: boolean }>)
      .filter((x) => x.enabled)
      .map((x) => x.id);
  });
  afterAll(async () => {
    await c?.close();
    await s?.http.close();
    await s?.runtime.close();
  });

  const ask = async (args: Record<string, unknown>) => {
    const r = (await c.callTool(
      { name: 'set_alert_config_enabled', arguments: args },
      { allowInputRequired: true },
    )) as Round;
    expect(r.resultType).toBe('input_required');
    return r.requestState;
  };
  const enabled = async (id: string) => {
    const r = (await c.callTool({ name: 'get_alert_config', arguments: { alertConfigId: id } })) as Round;
    return (r.structuredContent?.record as { enabled?: boolean } | undefined)?.enabled;
  };

  it('an accepted round executes once; the same round replayed changes nothing', async () => {
    const args = { alertConfigId: configs[0], enabled: false };
    const state = await ask(args);
    const done = await retry(c, 'set_alert_config_enabled', args, state);
    expect(done.structuredContent?.outcome).toBe('executed');
    await c.callTool({ name: 'set_alert_config_enabled', arguments: { ...args, enabled: true } });
    const replay = await retry(c, 'set_alert_config_enabled', args, state);
    expect(replay.isError).toBe(true);
    expect(textOf(replay)).toMatch(/already used once; nothing changed/);
    expect(await enabled(configs[0]!)).toBe(true);
  });

  it('a client declaring `elicitation: {}` (form mode, as the spec reads it) is asked', async () => {
    const bare = await manualClient(s.http, undefined, {});
    try {
      const r = (await bare.callTool(
        { name: 'set_alert_config_enabled', arguments: { alertConfigId: configs[0], enabled: false } },
        { allowInputRequired: true },
      )) as Round;
      expect(r.resultType).toBe('input_required');
    } finally {
      await bare.close();
    }
  });

  it('an answer given for one configuration cannot disable another', async () => {
    const state = await ask({ alertConfigId: configs[1], enabled: false });
    const other = await retry(
      c,
      'set_alert_config_enabled',
      { alertConfigId: configs[2], enabled: false },
      state,
    );
    expect(other.isError).toBe(true);
    expect(textOf(other)).toMatch(/given for other arguments; nothing changed/);
    expect(await enabled(configs[2]!)).toBe(true);
  });

  it('an answer given for one tool cannot run another', async () => {
    const state = await ask({ alertConfigId: configs[1], enabled: false });
    const r = await retry(c, 'delete_maintenance_window', { maintenanceWindowId: 'w1' }, state);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/given for set_alert_config_enabled; nothing changed/);
  });

  it('a tampered state is refused before the tool runs', async () => {
    const state = (await ask({ alertConfigId: configs[1], enabled: false })) ?? '';
    const [v, body, mac] = state.split('.');
    const payload = JSON.parse(Buffer.from(body ?? '', 'base64url').toString()) as { p: { hash: string } };
    payload.p.hash = 'forged';
    const forged = [v, Buffer.from(JSON.stringify(payload)).toString('base64url'), mac].join('.');
    await expect(
      retry(c, 'set_alert_config_enabled', { alertConfigId: configs[1], enabled: false }, forged),
    ).rejects.toThrow(/requestState/i);
    expect(await enabled(configs[1]!)).toBe(true);
  });

  it('state sealed by one deployment is refused by a server with another key or another principal', async () => {
    const args = { alertConfigId: configs[1], enabled: false };
    const state = await ask(args);
    const otherKey = await server({ tokenSecret: 'a-different-secret-0123456789abcdef' });
    const token = 'bearer-token-of-another-principal';
    const otherPrincipal = await server({ httpToken: token });
    try {
      for (const [srv, tok] of [
        [otherKey, undefined],
        [otherPrincipal, token],
      ] as const) {
        const c2 = await manualClient(srv.http, tok);
        await expect(retry(c2, 'set_alert_config_enabled', args, state)).rejects.toThrow(/requestState/i);
        await c2.close();
      }
    } finally {
      for (const x of [otherKey, otherPrincipal]) {
        await x.http.close();
        await x.runtime.close();
      }
    }
  });
});

// The answer's own expiry (sealed in the state) and the single-use record are one: the record outlives every
// state that can redeem it, and an answer past its expiry is refused whatever the state's seal still allows.
describe.skipIf(noRedis)('an accepted consent replayed up to its expiry and after', () => {
  let redis: TestRedis;
  let s: { runtime: Runtime; http: Http };
  let c: Client;
  beforeAll(async () => {
    redis = await startRedis();
    // A short question (1.5 s): the sealed state itself stays valid for at least a minute.
    s = await server({ stateUrl: redis.url, approvalWaitMs: 1_500 });
    c = await manualClient(s.http);
  });
  afterAll(async () => {
    await c?.close();
    await s?.http.close();
    await s?.runtime.close();
    await redis?.stop();
  });

  it('causes exactly one platform write', async () => {
    const list = (await c.callTool({ name: 'list_alert_configs', arguments: {} })) as Round;
    const id = ((list.structuredContent?.results ?? []) as Array<{ id: string; enabled: boolean }>).find(
      (x) => x.enabled,
    )?.id as string;
    const args = { alertConfigId: id, enabled: false };
    const asked = (await c.callTool(
      { name: 'set_alert_config_enabled', arguments: args },
      { allowInputRequired: true },
    )) as Round;
    const done = await retry(c, 'set_alert_config_enabled', args, asked.requestState);
    expect(done.structuredContent?.outcome).toBe('executed');
    await c.callTool({ name: 'set_alert_config_enabled', arguments: { ...args, enabled: true } });
    // Just before and just after the answer's expiry, the seal still valid: neither replay writes.
    for (const waitMs of [1_000, 1_000]) {
      await new Promise((r) => setTimeout(r, waitMs));
      const replay = await retry(c, 'set_alert_config_enabled', args, asked.requestState);
      expect(replay.isError, textOf(replay)).toBe(true);
      expect(textOf(replay)).toMatch(/nothing changed/);
      const r = (await c.callTool({ name: 'get_alert_config', arguments: { alertConfigId: id } })) as Round;
      expect((r.structuredContent?.record as { enabled?: boolean } | undefined)?.enabled).toBe(true);
    }
  });
});

// On 2026-07-28 there is no session: an approval belongs to the principal and client that asked for it.
describe('an approval on 2026-07-28', () => {
  it('resumes for the client that asked, and not for another client with the same arguments', async () => {
    const runtime = await createRuntime(
      configSchema.parse(settings({ transport: 'http', port: 0, confirmVia: 'approval-page' })),
      silentLogger,
    );
    const http = await startTestHttp(runtime.deps, {
      logger: silentLogger,
      routes: runtime.approvals?.routes,
    });
    runtime.approvals?.useOrigin(http.origin);
    const client = async (name: string) => {
      const c = new Client(
        { name, version: '1' },
        { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await c.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      return c;
    };
    const asker = await client('asker');
    const other = await client('other');
    try {
      const list = (await asker.callTool({ name: 'list_alert_configs', arguments: {} })) as Round;
      const id = ((list.structuredContent?.results ?? []) as Array<{ id: string; enabled: boolean }>).find(
        (x) => x.enabled,
      )?.id as string;
      const args = { alertConfigId: id, enabled: false };
      const first = (await asker.callTool({ name: 'set_alert_config_enabled', arguments: args })) as Round;
      const c = first.structuredContent?.confirmation as { approvalId: string; url: string };
      expect(c.approvalId).toBeTruthy();
      await decide(c.url, 'approve');
      const stolen = (await other.callTool({
        name: 'set_alert_config_enabled',
        arguments: { ...args, approvalId: c.approvalId },
      })) as Round;
      expect(stolen.isError).toBe(true);
      expect(textOf(stolen)).toMatch(/another session or client asked for it; nothing changed/);
      const own = (await asker.callTool({
        name: 'set_alert_config_enabled',
        arguments: { ...args, approvalId: c.approvalId },
      })) as Round;
      expect(own.structuredContent?.outcome, textOf(own)).toBe('executed');
    } finally {
      await asker.close();
      await other.close();
      await http.close();
      await runtime.close();
    }
  });
});
