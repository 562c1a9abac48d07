// Clients of both protocol eras for the end-to-end suites: the v2 SDK client pinned to 2026-07-28 or in
// `auto` mode, and the v1 client (2025), behind one small interface; and the flows every one of them must
// complete: list, call, subscribe, and a guarded change through elicitation, the approval page or a token.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { decide } from './http.js';

export type Era = 'pinned' | 'auto' | 'v1';
interface Answer {
  text: string;
  isError: boolean;
  structured: Record<string, unknown> | undefined;
}
export interface AnyClient {
  era(): string;
  listTools(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<Answer>;
  /** Asks for updates of one resource (listen on 2026-07-28, resources/subscribe on 2025); resolves the URIs heard. */
  watch(uri: string): Promise<string[]>;
  close(): Promise<void>;
}

export const POLL_MS = 200;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const answer = (r: Record<string, unknown>): Answer => ({
  text: (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n'),
  isError: r.isError === true,
  structured: r.structuredContent as Record<string, unknown> | undefined,
});

/** A client of the given kind; `elicit` answers consent questions (the client then declares elicitation). */
export async function connect(
  era: Era,
  where: { url?: string; stdio?: { env: Record<string, string> } },
  elicit?: () => 'accept' | 'decline',
): Promise<AnyClient> {
  const capabilities = elicit ? { elicitation: { form: {} } } : {};
  const heard: string[] = [];
  if (era === 'v1') {
    const c = new V1Client({ name: 'v1-client', version: '1' }, { capabilities });
    if (elicit)
      c.setRequestHandler(ElicitRequestSchema, async () =>
        elicit() === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' },
      );
    c.fallbackNotificationHandler = async (n) => {
      if (n.method === 'notifications/resources/updated') heard.push(String(n.params?.uri));
    };
    if (!where.url) throw new Error('the v1 client is driven over HTTP here (stdio: test/e2e/transports)');
    await c.connect(new V1Http(new URL(where.url)));
    return {
      era: () => 'legacy',
      listTools: async () => (await c.listTools()).tools.map((t) => t.name),
      call: async (name, args) => answer(await c.callTool({ name, arguments: args })),
      async watch(uri) {
        await c.subscribeResource({ uri });
        return heard;
      },
      close: () => c.close(),
    };
  }
  const c = new V2Client(
    { name: `v2-${era}`, version: '1' },
    {
      capabilities,
      versionNegotiation: { mode: era === 'pinned' ? { pin: '2026-07-28' } : 'auto' },
    },
  );
  if (elicit)
    c.setRequestHandler('elicitation/create', async () =>
      elicit() === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' },
    );
  c.setNotificationHandler('notifications/resources/updated', async (n) => {
    heard.push(n.params.uri);
  });
  const transport = where.url
    ? new V2Http(new URL(where.url))
    : new StdioClientTransport({
        command: process.execPath,
        args: ['dist/bin/dbops-mcp.js', 'serve'],
        env: { ...process.env, ...where.stdio?.env } as Record<string, string>,
        stderr: 'ignore',
      });
  await c.connect(transport);
  return {
    era: () => c.getProtocolEra() ?? 'unknown',
    listTools: async () => (await c.listTools()).tools.map((t) => t.name),
    call: async (name, args) => answer(await c.callTool({ name, arguments: args })),
    async watch(uri) {
      if (c.getProtocolEra() === 'modern') await c.listen({ resourceSubscriptions: [uri] });
      else await c.subscribeResource({ uri });
      return heard;
    },
    close: () => c.close(),
  };
}

export function settings(over: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'dbops-eras-'));
  return {
    demo: true,
    auditLog: join(dir, 'audit.log'),
    secretsDir: join(dir, 'secrets'),
    stateDir: join(dir, 'state'),
    feedPollMs: POLL_MS,
    // Feeds poll every POLL_MS here, far faster than in use: a rate budget whose 20 % their polls may take.
    rateLimit: 100_000,
    tokenSecret: 'eras-test-secret-0123456789abcdef',
    ...over,
  };
}

/**
 * Waits for a state (checked every 20 ms) and says which one when it does not come. The bound is wide: on a busy
 * machine things are slow, and a state that comes costs no more than it takes.
 */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** An alert configuration that is enabled now, and the arguments that disable it (a destructive change). */
export async function disableArgs(c: AnyClient) {
  const list = await c.call('list_alert_configs', { itemsPerPage: 100 });
  const configs = (list.structured?.results ?? []) as Array<{ id: string; enabled: boolean }>;
  const target = configs.find((x) => x.enabled);
  if (!target) throw new Error('no enabled alert configuration left in the demo data');
  return { alertConfigId: target.id, enabled: false };
}

export async function isEnabled(c: AnyClient, alertConfigId: string) {
  const got = await c.call('get_alert_config', { alertConfigId });
  return (got.structured?.record as { enabled?: boolean } | undefined)?.enabled;
}

export function flows(
  name: string,
  open: (era: Era, elicit?: () => 'accept' | 'decline') => Promise<AnyClient>,
  eras: Era[],
) {
  describe(name, () => {
    for (const era of eras) {
      it(`${era}: lists, calls, and is told of a feed change`, async () => {
        const c = await open(era);
        try {
          expect(c.era()).toBe(era === 'v1' ? 'legacy' : 'modern');
          const tools = await c.listTools();
          expect(tools).toContain('triage_project');
          const triage = await c.call('triage_project', {});
          expect(triage.isError).toBe(false);
          // A silent monitoring agent leads, before the alerts.
          expect(triage.text).toMatch(
            /# Triage of project .*\n(?:\*\*Agents\*\*: .*\n)?\*\*Alerts\*\*: \d+ (?:open )?alerts/,
          );

          const alerts = await c.call('list_open_alerts', {});
          const groups = (alerts.structured?.groups ?? []) as Array<{ alertIds: string[] }>;
          const alertId = groups[0]?.alertIds[0];
          expect(alertId).toBeDefined();
          const projectId = String(alerts.structured?.projectId ?? '');
          const uri = `dbops://projects/${projectId}/alerts`;
          const heard = await c.watch(uri);
          await sleep(POLL_MS * 2);
          expect(heard).toEqual([]);
          const ack = await c.call('acknowledge_alert', { alertId, forHours: 1 + Math.random() });
          expect(ack.isError).toBe(false);
          await until('the update', () => heard.length > 0);
          expect(heard[0]).toBe(uri);
        } finally {
          await c.close();
        }
      });

      it(`${era}: a guarded change asks the person by elicitation and runs once they accept`, async () => {
        const asked: string[] = [];
        const c = await open(era, () => {
          asked.push('confirm');
          return 'accept';
        });
        try {
          const args = await disableArgs(c);
          const r = await c.call('set_alert_config_enabled', args);
          expect(r.isError, r.text).toBe(false);
          expect(r.structured?.outcome).toBe('executed');
          expect(asked).toHaveLength(1);
          expect(await isEnabled(c, args.alertConfigId)).toBe(false);
          await c.call('set_alert_config_enabled', { ...args, enabled: true }); // enabling asks no one
        } finally {
          await c.close();
        }
      });

      it(`${era}: a declined elicitation changes nothing`, async () => {
        const c = await open(era, () => 'decline');
        try {
          const args = await disableArgs(c);
          const r = await c.call('set_alert_config_enabled', args);
          expect(r.structured?.outcome).toBe('declined');
          expect(await isEnabled(c, args.alertConfigId)).toBe(true);
        } finally {
          await c.close();
        }
      });

      it(`${era}: without elicitation, the approval page, then the call resumes once`, async () => {
        const c = await open(era);
        try {
          const args = await disableArgs(c);
          const first = await c.call('set_alert_config_enabled', args);
          expect(first.structured?.outcome).toBe('approval_pending');
          const { approvalId, url } = (first.structured?.confirmation ?? {}) as {
            approvalId: string;
            url: string;
          };
          expect(await isEnabled(c, args.alertConfigId)).toBe(true);
          expect((await decide(url)).status).toBe(303);
          const done = await c.call('set_alert_config_enabled', { ...args, approvalId });
          expect(done.structured?.outcome).toBe('executed');
          expect(await isEnabled(c, args.alertConfigId)).toBe(false);
          const again = await c.call('set_alert_config_enabled', { ...args, approvalId });
          expect(again.isError).toBe(true);
          expect(again.text).toMatch(/already used/);
          await c.call('set_alert_config_enabled', { ...args, enabled: true });
        } finally {
          await c.close();
        }
      });
    }
  });
}
