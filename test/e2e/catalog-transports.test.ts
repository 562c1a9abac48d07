// Every tool's happy path over both real transports: the built CLI under stdio, and `serve --transport http`
// as a child process with the SDK's Streamable HTTP client, each talking digest to one simulator.
import { type ChildProcess, spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { catalog } from '../../tools/index.js';
import { serverEnv } from '../helpers/sim.js';

const cli = new URL('../../dist/src/cli.js', import.meta.url).pathname;
type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;

beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
});
afterAll(async () => {
  await sim.close();
});

const env = () => serverEnv(sim, 'dbops-catalog-');

/** Arguments for a successful call of every tool, from the demo dataset; `tag` keeps created names unique. */
function happyArgs(tag: string): Record<string, Record<string, unknown>> {
  const d = sim.store.data;
  const project = sim.projectIds[0]!;
  const now = Date.now();
  const config = d.alertConfigs.find((c) => c.groupId === project && c.enabled)!;
  const alert = d.alerts.find((a) => a.groupId === project && a.status === 'OPEN')!;
  const globalAlert = d.globalAlerts.find((a) => a.status === 'OPEN')!;
  const window = d.maintenanceWindows.find((w) => w.groupId === project && Date.parse(w.endDate) > now)!;
  const host = d.hosts.find((h) => h.groupId === project && h.disks.length > 0)!;
  const event = d.events.find((e) => e.groupId === project)!;
  const user = d.users.find((u) => u.roles.some((r) => r.groupId === project))!;
  const hour = 3_600_000;
  return {
    triage_project: {},
    list_open_alerts: {},
    list_projects: {},
    list_alert_configs: {},
    get_alert_config: { alertConfigId: config.id },
    set_alert_config_enabled: { alertConfigId: config.id, enabled: false },
    list_open_alerts_for_config: { alertConfigId: alert.alertConfigId },
    list_matcher_field_names: {},
    list_global_alert_configs: {},
    acknowledge_alert: { alertId: alert.id, forHours: 1, acknowledgementComment: `checked ${tag}` },
    acknowledge_global_alert: {
      alertId: globalAlert.id,
      acknowledgedUntil: new Date(now + hour).toISOString(),
    },
    list_open_global_alerts_for_config: { globalAlertConfigId: globalAlert.alertConfigId },
    list_maintenance_windows: {},
    get_maintenance_window: { maintenanceWindowId: window.id },
    create_maintenance_window: {
      startDate: new Date(now + 24 * hour).toISOString(),
      endDate: new Date(now + 26 * hour).toISOString(),
      alertTypeNames: ['HOST'],
      description: `upgrade ${tag}`,
    },
    update_maintenance_window: {
      maintenanceWindowId: window.id,
      alertTypeNames: ['HOST', 'REPLICA_SET'],
      description: `updated ${tag}`,
    },
    delete_maintenance_window: { maintenanceWindowId: window.id },
    list_project_events: {},
    get_project_event: { eventId: event.id },
    list_global_events: {},
    get_automation_status: {},
    list_agents: { agentType: 'MONITORING' },
    get_agent_links: {},
    list_hosts: {},
    get_disk_partition: { hostId: host.id, partitionName: host.disks[0] },
    list_integrations: {},
    put_integration: { integrationType: 'WEBHOOK', settings: { url: 'https://hooks.example.com/dbops' } },
    get_user_access_list: { userId: user.id },
    find_user: { username: user.username },
    triage_installation: {},
    create_user: {
      username: `${tag}.user@example.com`,
      password: 'Str0ng!pass-word',
      emailAddress: `${tag}.user@example.com`,
      mobileNumber: '+15555550123',
      firstName: 'Catalog',
      lastName: tag,
      roles: [],
    },
    create_first_user: {
      username: `${tag}.first@example.com`,
      password: 'Str0ng!pass-word',
      firstName: 'F',
      lastName: tag,
    },
    update_user_roles: {
      userId: user.id,
      mode: 'add',
      roles: [{ groupId: project, roleName: 'GROUP_READ_ONLY' }],
    },
    create_org_api_key: { desc: `catalog ${tag}`, roles: ['ORG_READ_ONLY'] },
    create_project_api_key: { desc: `catalog ${tag}`, roles: ['GROUP_READ_ONLY'] },
  };
}

async function exerciseEveryTool(client: Client, tag: string) {
  const args = happyArgs(tag);
  const listed = (await client.listTools()).tools.map((t) => t.name).sort();
  expect(listed).toEqual(catalog.map((t) => t.name).sort());
  expect(Object.keys(args).sort(), 'every tool needs happy-path arguments here').toEqual(listed);
  const failures: string[] = [];
  for (const tool of catalog) {
    const r = await client.callTool({ name: tool.name, arguments: args[tool.name] });
    const text = (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n');
    if (r.isError || !r.structuredContent || text.length === 0)
      failures.push(`${tool.name}: ${text.slice(0, 300)}`);
  }
  expect(failures).toEqual([]);
}

describe('every tool over the real transports', () => {
  it('stdio', async () => {
    const client = new Client({ name: 'catalog-stdio', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, 'serve'],
        env: env(),
        stderr: 'pipe',
      }),
    );
    try {
      await exerciseEveryTool(client, 'stdio');
    } finally {
      await client.close();
    }
  });

  it('Streamable HTTP', async () => {
    const child: ChildProcess = spawn(
      process.execPath,
      [cli, 'serve', '--transport', 'http', '--port', '0'],
      { env: env() },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout?.on('data', (d) => {
          out += d;
          const m = /at (http:\/\/\S+\/mcp)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
      });
      const client = new Client({ name: 'catalog-http', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        await exerciseEveryTool(client, 'http');
      } finally {
        await client.close();
      }
    } finally {
      child.kill('SIGTERM');
    }
  });
});
