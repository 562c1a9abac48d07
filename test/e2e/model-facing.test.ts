// What sloppy models and strict clients send, and what the server sends unasked: null and "" mean "not given"
// for optional arguments, unknown keys are still refused by name, maps may come as [{name, value}] pairs, and
// no log or progress notification reaches a client that did not ask for it.
import {
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { startTestServer, type TestServer } from '../helpers/mcp.js';

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let t: TestServer;
beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
  // Token channel, so the guarded answers below are previews with a token.
  t = await startTestServer({ sim, config: { confirmVia: 'token', confirm: 'write' } });
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('optional arguments', () => {
  it('treats null and "" as not given', async () => {
    const plain = await t.call('list_alert_configs', {});
    const sloppy = await t.call('list_alert_configs', {
      projectId: null,
      pageNum: null,
      itemsPerPage: '',
      responseFormat: null,
    });
    expect(sloppy.isError, sloppy.text).toBe(false);
    expect(sloppy.structured!['results']).toEqual(plain.structured!['results']);
  });

  it('still refuses unknown keys, naming them, and "" for a required id', async () => {
    const r = await t.call('list_alert_configs', { projectId: null, colour: 'blue' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('colour');
    const empty = await t.call('get_alert_config', { alertConfigId: '' });
    expect(empty.isError).toBe(true);
  });

  it('answers an empty confirmationToken or a null approvalId with a preview', async () => {
    const id = sim.store.data.alerts.find((a) => a.groupId === sim.projectIds[0] && a.status === 'OPEN')!.id;
    for (const consent of [{ confirmationToken: '' }, { confirmationToken: null, approvalId: null }]) {
      const r = await t.call('acknowledge_alert', { alertId: id, forHours: 1, ...consent });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured!['outcome']).toBe('confirmation_required');
      expect(r.structured!['nextStep']).toMatch(/only if they agree, call acknowledge_alert again/);
    }
  });

  it('treats null as not given inside array items too (nested optional fields)', async () => {
    const r = await t.call('create_user', {
      username: 'nested.null@example.com',
      password: 'a-Long-passw0rd',
      emailAddress: 'nested.null@example.com',
      mobileNumber: '+1 555 0100',
      firstName: 'Nested',
      lastName: 'Null',
      roles: [{ roleName: 'GROUP_READ_ONLY', groupId: sim.projectIds[0], orgId: null }],
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured!['outcome']).toBe('confirmation_required');
  });

  it('takes an open map as [{name, value}] pairs, the shape tools/list publishes', async () => {
    const { tools } = await t.client.listTools();
    const put = tools.find((x) => x.name === 'put_integration')!;
    expect((put.inputSchema.properties!['settings'] as { type: string }).type).toBe('array');
    const settings = [{ name: 'url', value: 'https://hooks.example.com/dbops' }];
    const r = await t.call('put_integration', { integrationType: 'WEBHOOK', settings });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured!['outcome']).toBe('confirmation_required');
    expect(r.text).toContain('hooks.example.com');
  });
});

describe('notifications', () => {
  async function observe(fn: () => Promise<unknown>) {
    const seen: string[] = [];
    const logs: LoggingMessageNotification['params'][] = [];
    t.client.fallbackNotificationHandler = async (n) => {
      seen.push(n.method);
    };
    t.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params);
    });
    await fn();
    return { seen, logs };
  }
  const failingCall = () => t.call('get_alert_config', { alertConfigId: 'ffffffffffffffffffffffff' });

  it('sends no log messages and no progress to a client that asked for neither', async () => {
    const { seen, logs } = await observe(async () => {
      expect((await failingCall()).isError).toBe(true); // logs "tool call failed" at debug level
      await t.call('triage_project', {}); // reports progress when given a token
    });
    expect(logs).toEqual([]);
    expect(seen).toEqual([]);
    // The server did log: it just did not send it.
    expect(t.logLines.some((l) => l.includes('tool call failed'))).toBe(true);
  });

  it('sends log messages at or above the level the client set, and progress for a token', async () => {
    await t.client.setLoggingLevel('error');
    const quiet = await observe(failingCall);
    expect(quiet.logs).toEqual([]);
    await t.client.setLoggingLevel('debug');
    const loud = await observe(failingCall);
    expect(loud.logs.map((l) => (l.data as { msg: string }).msg)).toContain('tool call failed');
    const progress: number[] = [];
    await t.client.callTool({ name: 'triage_project', arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(progress.length).toBeGreaterThan(0);
  });
});
