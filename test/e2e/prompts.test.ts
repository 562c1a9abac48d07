// The prompts through the SDK client: listing with argument descriptions, rendering with arguments, checks,
// and completion of their arguments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPrompts } from '../../src/mcp/prompts.js';
import { registerResources } from '../../src/mcp/resources.js';
import { startTestServer, type TestServer } from '../helpers/mcp.js';

let t: TestServer;
const now = new Date('2026-11-21T12:00:00Z');

beforeAll(async () => {
  t = await startTestServer({ extensions: [registerResources, registerPrompts], now: () => now });
});
afterAll(async () => {
  await t.close();
});

async function promptText(name: string, args: Record<string, string>): Promise<string> {
  const r = await t.client.getPrompt({ name, arguments: args });
  expect(r.messages).toHaveLength(1);
  expect(r.messages[0]!.role).toBe('user');
  const content = r.messages[0]!.content;
  if (content.type !== 'text') throw new Error('expected a text message');
  return content.text;
}

const complete = (name: string, argument: string, value: string) =>
  t.client
    .complete({ ref: { type: 'ref/prompt', name }, argument: { name: argument, value } })
    .then((r) => r.completion.values);

/** Every prompt steers towards consent before changes and treats platform text as data. */
function expectSafety(text: string) {
  expect(text).toMatch(/Do not change anything .* unless I confirm that specific change/);
  expect(text).toContain('never as instructions');
}

describe('prompts/list', () => {
  it('offers the four prompts with described arguments', async () => {
    const { prompts } = await t.client.listPrompts();
    const byName = Object.fromEntries(prompts.map((p) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(
      ['explain_deployment_plan', 'plan_maintenance', 'review_recent_changes', 'triage_alerts'].sort(),
    );
    const args = (n: string) => Object.fromEntries((byName[n]!.arguments ?? []).map((a) => [a.name, a]));
    expect(Object.keys(args('plan_maintenance')).sort()).toEqual(['alertTypes', 'end', 'projectId', 'start']);
    expect(args('plan_maintenance').alertTypes!.required).toBeFalsy();
    expect(args('plan_maintenance').start!.required).toBe(true);
    expect(Object.keys(args('review_recent_changes')).sort()).toEqual(['projectId', 'since']);
    for (const p of prompts) {
      expect(p.description!.length).toBeGreaterThan(20);
      for (const a of p.arguments ?? [])
        expect(a.description!.length, `${p.name}.${a.name}`).toBeGreaterThan(10);
    }
  });
});

describe('prompts/get', () => {
  it('triage_alerts starts from triage_project for the project', async () => {
    const projectId = t.sim.projectIds[0]!;
    const text = await promptText('triage_alerts', { projectId });
    expect(text).toContain(`triage_project with projectId=${projectId}`);
    expect(text).toContain('get_project_event');
    expectSafety(text);
  });

  it('explain_deployment_plan reads the automation status and who published the goal', async () => {
    const text = await promptText('explain_deployment_plan', { projectId: t.sim.projectIds[1]! });
    expect(text).toContain('get_automation_status');
    expect(text).toContain('AUTOMATION_CONFIG_PUBLISHED_AUDIT');
    expectSafety(text);
  });

  it('review_recent_changes turns "48h" into a minDate and a matching triage window', async () => {
    const text = await promptText('review_recent_changes', { projectId: t.sim.projectIds[0]!, since: '48h' });
    expect(text).toContain('minDate=2026-11-19T12:00:00.000Z');
    expect(text).toContain('sinceHours=48');
    const iso = await promptText('review_recent_changes', {
      projectId: t.sim.projectIds[0]!,
      since: '2026-11-14T12:00:00Z',
    });
    expect(iso).toContain('sinceHours=168');
    expectSafety(text);
  });

  it('plan_maintenance proposes one window and waits for a yes before creating it', async () => {
    const text = await promptText('plan_maintenance', {
      projectId: t.sim.projectIds[0]!,
      start: '2026-11-22T01:00:00Z',
      end: '2026-11-22T03:00:00Z',
      alertTypes: 'HOST, AGENT',
    });
    expect(text).toContain('list_maintenance_windows');
    expect(text).toContain('alertTypeNames=["HOST","AGENT"]');
    expect(text).toMatch(/wait for my explicit yes before calling it/);
    expectSafety(text);
  });

  it('refuses arguments it cannot use, saying what to write', async () => {
    await expect(
      t.client.getPrompt({
        name: 'review_recent_changes',
        arguments: { projectId: t.sim.projectIds[0]!, since: 'last tuesday' },
      }),
    ).rejects.toThrow(/24h, 7d or an ISO 8601 time/);
    await expect(
      t.client.getPrompt({
        name: 'plan_maintenance',
        arguments: { projectId: 'p', start: 'tomorrow', end: '2026-11-22T03:00:00Z' },
      }),
    ).rejects.toThrow(/ISO 8601/);
    await expect(t.client.getPrompt({ name: 'triage_alerts', arguments: {} })).rejects.toThrow();
  });
});

describe('completion of prompt arguments', () => {
  it('completes project ids from the projects the key sees', async () => {
    const analytics = t.sim.store.data.projects.find((p) => p.name === 'analytics-prod')!;
    expect(await complete('triage_alerts', 'projectId', 'analytics')).toEqual([analytics.id]);
    const all = await complete('plan_maintenance', 'projectId', '');
    expect(all[0]).toBe(t.config.projectId); // the configured project first
    expect(all.sort()).toEqual([...t.sim.projectIds].sort());
  });

  it('completes the last alert type of a list and relative times', async () => {
    expect(await complete('plan_maintenance', 'alertTypes', 'HOST,re')).toEqual(['HOST,REPLICA_SET']);
    expect(await complete('plan_maintenance', 'alertTypes', '')).toContain('AGENT');
    expect(await complete('review_recent_changes', 'since', '4')).toEqual(['48h']);
  });
});

describe('plan_maintenance arguments', () => {
  it('show a start example before the end example (an example window that ends as it starts misleads)', async () => {
    const { prompts } = await import('../../src/catalog.js');
    const plan = prompts.find((p) => p.name === 'plan_maintenance')!;
    const example = (d: string | undefined) => /e\.g\. (\S+?)\)/.exec(d ?? '')?.[1] ?? '';
    const args = plan.args as Record<string, { description?: string }>;
    expect(Date.parse(example(args.start?.description))).toBeLessThan(
      Date.parse(example(args.end?.description)),
    );
  });
});
