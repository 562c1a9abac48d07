// Where the approval page is served: on the HTTP transport's own port (the same origin as /mcp), or on
// the dedicated loopback server under stdio. Built by the real runtime from the configuration.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/index.js';
import { silentLogger } from '../../src/log.js';
import { createRuntime } from '../../src/mcp/runtime.js';
import { decide, raw } from '../helpers/http.js';
import { startTestHttp } from '../helpers/mcp.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => {});
});

function config(over: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'dbops-approval-transport-'));
  return configSchema.parse({
    demo: true,
    auditLog: join(dir, 'audit.log'),
    secretsDir: join(dir, 'secrets'),
    ...over,
  });
}

describe('approval page placement', () => {
  it('under stdio: loads on first use, then a dedicated server on 127.0.0.1, closed with the runtime', async () => {
    const runtime = await createRuntime(config({ transport: 'stdio', approvalPort: 0 }), silentLogger);
    expect(runtime.approvals).toBeUndefined(); // nothing built or listening until a change asks
    const channel = runtime.deps.approvals;
    expect(channel).toBeDefined();
    const pending = await channel?.create({
      tool: 'set_alert_config_enabled',
      title: 'Disable an alert',
      hash: 'h',
      args: {},
      preview: { action: 'Disable alert configuration abc', target: { alertConfigId: 'abc' } },
    });
    const origin = new URL(pending?.url ?? '').origin;
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await raw(`${origin}/approvals`)).status).toBe(200);
    expect(await channel?.take(pending?.approvalId ?? '', 'set_alert_config_enabled', 'h')).toMatchObject({
      state: 'pending',
    });
    await runtime.close();
    await expect(raw(`${origin}/approvals`)).rejects.toThrow();
  });

  it('is not created when the approval page is not a channel', async () => {
    const runtime = await createRuntime(config({ confirmVia: 'elicitation,token' }), silentLogger);
    closers.push(() => runtime.close());
    expect(runtime.approvals).toBeUndefined();
    expect(runtime.deps.approvals).toBeUndefined();
  });

  it('under HTTP: on the transport’s own port; an MCP client gets the link and resumes after approval', async () => {
    const cfg = config({ transport: 'http', port: 0, approvalOpen: true });
    const runtime = await createRuntime(cfg, silentLogger);
    closers.push(() => runtime.close());
    expect(runtime.deps.config.approvalOpen).toBe(false); // never opens browsers or holds calls on a server
    const http = await startTestHttp(runtime.deps, {
      logger: silentLogger,
      routes: runtime.approvals?.routes,
    });
    closers.push(() => http.close());
    runtime.approvals?.useOrigin(http.origin);

    const client = new Client({ name: 'no-elicitation-client', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    closers.push(() => client.close());
    const projectId = runtime.deps.config.projectId!;
    const list = await client.callTool({ name: 'list_alert_configs', arguments: { projectId } });
    const items = (list.structuredContent as { results: Array<{ id: string; enabled: boolean }> }).results;
    const target = items.find((c) => c.enabled)!;
    const args = { projectId, alertConfigId: target.id, enabled: false };

    const first = await client.callTool({ name: 'set_alert_config_enabled', arguments: args });
    const c = (first.structuredContent as { confirmation: { url: string; approvalId: string } }).confirmation;
    expect(c.url).toBe(`${http.origin}/approvals/${c.approvalId}`);
    expect((await decide(c.url)).status).toBe(303);
    const done = await client.callTool({
      name: 'set_alert_config_enabled',
      arguments: { ...args, approvalId: c.approvalId },
    });
    expect((done.structuredContent as { outcome: string }).outcome).toBe('executed');
    const after = await client.callTool({
      name: 'get_alert_config',
      arguments: { projectId, alertConfigId: target.id },
    });
    expect(JSON.stringify(after.structuredContent)).toMatch(/"enabled":false/);
  });
});
