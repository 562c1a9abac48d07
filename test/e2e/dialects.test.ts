// One vocabulary, two dialects: the spec's names (by kind) and the field's (the products' names). Input takes
// both; what goes on the wire is the platform's own dialect, set (DBOPS_DIALECT) or learned from its answers or
// from a refused name; answers show the platform's word with the other in parentheses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { startTestServer, type TestServer } from '../helpers/mcp.js';

const KEY = 'pd-new-key-0123456789abcdef';

describe.each(['spec', 'field'] as const)('a platform speaking the %s dialect', (dialect) => {
  let sim: Simulator;
  let t: TestServer;
  beforeAll(async () => {
    sim = await startSimulator({ dataset: 'demo', port: 0, dialect });
    t = await startTestServer({ sim, config: { confirm: 'never' } });
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });
  const stored = () =>
    sim.store.data.integrations.find(
      (i) => i.groupId === sim.projectIds[0] && i.type === 'INCIDENT_PAGING_A',
    );

  it.each([
    ['the spec’s names', 'INCIDENT_PAGING_A', { serviceKey: KEY }],
    ['the products’ names', 'PAGER_DUTY', { serviceKey: KEY }],
  ])('takes an integration under %s and sends the platform’s own', async (_, integrationType, settings) => {
    const r = await t.call('put_integration', { integrationType, settings });
    expect(r.isError, r.text).toBe(false);
    expect(stored()?.fields.serviceKey).toBe(KEY);
    expect(r.text).not.toContain(KEY);
    // The platform's word first, the other in parentheses.
    expect(r.text).toContain(
      dialect === 'field' ? 'PAGER_DUTY (INCIDENT_PAGING_A)' : 'INCIDENT_PAGING_A (PAGER_DUTY)',
    );
  });

  it('takes the field’s notification field names for an integration’s fields (datadogApiKey → apiKey)', async () => {
    const r = await t.call('put_integration', {
      integrationType: 'DATADOG',
      settings: { datadogApiKey: 'dd-0123456789abcdef' },
    });
    expect(r.isError, r.text).toBe(false);
    const dd = sim.store.data.integrations.find(
      (i) => i.groupId === sim.projectIds[0] && i.type === 'MONITORING_SAAS',
    );
    expect(dd?.fields.apiKey).toBe('dd-0123456789abcdef');
  });

  it('lists integrations in the platform’s words, secrets masked', async () => {
    const r = await t.call('list_integrations', {});
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain(
      dialect === 'field' ? 'PAGER_DUTY (INCIDENT_PAGING_A)' : 'INCIDENT_PAGING_A (PAGER_DUTY)',
    );
    for (const i of sim.store.data.integrations.filter((x) => x.groupId === sim.projectIds[0]))
      for (const [k, v] of Object.entries(i.fields))
        if (typeof v === 'string' && /key|token|secret|password|url/i.test(k))
          expect(r.text, k).not.toContain(v);
  });
});

describe('the dialect as set', () => {
  it('DBOPS_DIALECT=spec against a field server: the refused name is reported, nothing is guessed', async () => {
    const sim = await startSimulator({ dataset: 'demo', port: 0, dialect: 'field' });
    const t = await startTestServer({ sim, config: { confirm: 'never', dialect: 'spec' } });
    try {
      const r = await t.call('put_integration', {
        integrationType: 'PAGER_DUTY',
        settings: { serviceKey: KEY },
      });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/INVALID_ENUM_VALUE/);
    } finally {
      await t.close();
      await sim.close();
    }
  });

  it('the simulator refuses the other dialect’s type names as a server in the field does', async () => {
    const sim = await startSimulator({ dataset: 'demo', port: 0, dialect: 'field' });
    const t = await startTestServer({ sim, config: { confirm: 'never', dialect: 'field' } });
    try {
      const raw = await t.deps.api
        .request({
          method: 'PUT',
          path: `/groups/${sim.projectIds[0]}/integrations/TEAM_CHAT_B`,
          body: { type: 'TEAM_CHAT_B', apiToken: 'x' },
        })
        .catch((e: Error) => e);
      expect(String(raw)).toMatch(/INVALID_ENUM_VALUE/);
    } finally {
      await t.close();
      await sim.close();
    }
  });
});
