// Every tool against a server in the field: the bodies are the vendor's own client test fixtures
// (test/fixtures/field), served behind the field's digest challenge. Each answer must read well on them: no
// secret, nothing undefined or unrendered, no empty section, and what each view is for must be there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../src/catalog.js';
import { type AnyTool, exampleOf } from '../../src/tool/index.js';
import { FIELD_KEYS, type FieldServer, fixture, startFieldServer } from '../helpers/field.js';
import { type CallResult, startTestServer, type TestServer, type TestServerOptions } from '../helpers/mcp.js';

const PROJECT = '56a10a80e4b0fd3b9a9bb0c2';
const CONFIG = '57b76ddc96e8215c017ceafb';

/** Each tool is called with its example, in the field's ids where the fixtures' bodies need them. */
const FIELD_IDS: Record<string, string> = {
  projectId: PROJECT,
  alertConfigId: CONFIG,
  maintenanceWindowId: '5628faffd4c606594adaa3b2',
  eventId: 'b3ad04e680eef540be141abe',
  hostId: '22',
  userId: '59db8d1d87d9d6420df0613a',
  globalAlertConfigId: '5730f5e1e4b030a9634a3f69',
};
/** Where the field is tried with its own bodies and styles instead of the example. */
const FIELD_ARGS: Record<string, Record<string, unknown>> = {
  // The offset style of the vendor's documentation (no colon).
  acknowledge_global_alert: {
    alertId: '57b76ddc96e8215c017ceafb',
    acknowledgedUntil: '2036-12-01T10:00:00-0400',
  },
  // The body the vendor's client sends for Datadog, region included (test/fixtures/field/README.md).
  put_integration: {
    integrationType: 'DATADOG',
    settings: { apiKey: '0123456789abcdef0123456789abcdef', region: 'US' },
  },
  get_disk_partition: { hostId: '22', partitionName: 'xvdb' },
  // The fixtures' project and person: the demo's names mean nothing here.
  update_user_roles: {
    userId: '59db8d1d87d9d6420df0613a',
    mode: 'add',
    roles: [{ groupId: PROJECT, roleName: 'GROUP_READ_ONLY' }],
  },
  find_user: { username: 'someone@example.com' },
};
const argsFor = (tool: AnyTool) => {
  const args: Record<string, unknown> = { ...(FIELD_ARGS[tool.name] ?? exampleOf(tool)) };
  for (const k of Object.keys(args)) if (FIELD_IDS[k]) args[k] = FIELD_IDS[k];
  return args;
};

let field: FieldServer;
let t: TestServer;
const answers = new Map<string, CallResult>();
/** The tools some of whose requests the fixtures do not hold (answered 404). */
const unserved = new Set<string>();

beforeAll(async () => {
  field = await startFieldServer();
  const sim = {
    baseUrl: field.baseUrl,
    keys: FIELD_KEYS,
    projectIds: [PROJECT],
    orgId: '1',
    close: async () => {},
  } as unknown as TestServerOptions['sim'];
  // Changes go straight through here: consent is tested elsewhere; this is about reading field bodies.
  t = await startTestServer({ sim, config: { confirm: 'never' } });
  for (const tool of catalog) {
    const missed = field.notFound.length;
    answers.set(tool.name, await t.call(tool.name, argsFor(tool)));
    if (field.notFound.length > missed) unserved.add(tool.name);
  }
}, 60_000);
afterAll(async () => {
  await t?.close();
  await field?.close();
});

/** Every secret-looking value in the fixtures. */
const SECRETS = ['1234abcd-ab12-cd34-ef56-1234abcd1234', 'myPassword', '0123456789abcdef0123456789abcdef'];

describe('every tool on the bodies of a server in the field', () => {
  it('answers every tool: no secret, nothing undefined or unrendered, no empty section', () => {
    expect([...answers].filter(([n, r]) => r.isError && unserved.has(n)).length).toBeGreaterThan(0);
    for (const [name, r] of answers) {
      const all = `${r.text}\n${JSON.stringify(r.structured ?? {})}`;
      // A tool fails only where the server lacks what it needs (some do here), and then says so.
      if (r.isError) {
        expect(unserved.has(name), `${name}: ${r.text}`).toBe(true);
        expect(r.text, name).toMatch(/RESOURCE_NOT_FOUND|not (found|available|offered)/i);
      }
      expect(r.text, name).not.toMatch(/\bundefined\b|\bNaN\b|\[object Object\]/);
      expect(r.text, name).not.toMatch(/(^|[\s:|(])null([\s|)]|$)/m);
      for (const s of SECRETS) expect(all, name).not.toContain(s);
      // A heading followed by nothing but another heading or the end is an empty section.
      expect(r.text, name).not.toMatch(/^#{3,4} .*\n+(?=#{2,4} |\s*$)/m);
    }
  });

  it('covers every endpoint a tool calls (the stand-in saw each fixture route or answered 404 for it)', () => {
    const seen = new Set(field.requests.map((r) => r.replace(/\/[^/]+/g, (s) => s)));
    expect(seen.size).toBeGreaterThan(20);
  });

  it('shows who a notification pages (roles of GROUP and ORG notifications)', () => {
    const config = fixture('alert-config') as { notifications: Array<{ roles?: string[] }> };
    const roles = config.notifications.flatMap((n) => n.roles ?? []);
    expect(roles.length).toBeGreaterThan(0);
    for (const role of roles) expect(answers.get('get_alert_config')?.text).toContain(role);
  });

  it('shows a pending plan even when the goal versions match, and triage says a process is behind', () => {
    const status = answers.get('get_automation_status')?.text ?? '';
    expect(status).toContain('shardedCluster_myShard_0_2');
    expect(status).toMatch(/Download.*Start.*WaitRsInit/s);
    // The plan is what the person needs, in the summary itself.
    expect(answers.get('triage_project')?.text).toMatch(
      /1 of 3 processes behind goal version 2: `shardedCluster_myShard_0_2` \(plan `Download → Start → WaitRsInit`\)/,
    );
    expect(answers.get('triage_installation')?.text).toMatch(
      /shardedCluster_myShard_0_2 \(plan Download → Start → WaitRsInit\)/,
    );
  });

  it('recognises a private key the server masked: never saved, never called usable', () => {
    for (const name of ['create_org_api_key', 'create_project_api_key']) {
      const text = answers.get(name)?.text ?? '';
      expect(text, name).toMatch(/masked/i);
      expect(text, name).not.toMatch(/stored in|never shows it again/);
    }
  });

  it('shows the older first-user answer (the key as one string) and keeps that key out of the chat', () => {
    const text = answers.get('create_first_user')?.text ?? '';
    expect(text).toMatch(/older form/);
    expect(text).toMatch(/stored in/);
  });

  it('accepts the field’s Datadog region and every field the vendor’s client sends', () => {
    const put = answers.get('put_integration')!;
    expect(put.isError, put.text).toBe(false);
    expect(put.text).toContain('region=US');
    expect(field.requests).toContain(`PUT /groups/${PROJECT}/integrations/DATADOG`);
    expect(answers.get('list_integrations')!.text).toContain('MICROSOFT_TEAMS');
  });

  it('takes each integration body of the vendor’s client fixtures as settings (its JSON names)', async () => {
    const bodies = (fixture('integrations') as { results: Array<Record<string, unknown>> }).results;
    // The client's JSON tags (the fixture's response spells two of them as Go field names).
    const tag: Record<string, string> = {
      MicrosoftTeamsWebhookURL: 'microsoftTeamsWebhookUrl',
      Name: 'name',
    };
    for (const { type, ...fields } of bodies) {
      const settings = Object.fromEntries(Object.entries(fields).map(([k, v]) => [tag[k] ?? k, v]));
      // The spec requires a listen address for Prometheus, which the client's test body leaves out, and its
      // serviceDiscovery there is a placeholder ("112233") for file or http.
      if (type === 'PROMETHEUS')
        Object.assign(settings, { listenAddress: '0.0.0.0:9216', serviceDiscovery: 'http' });
      const r = await t.call('put_integration', { projectId: PROJECT, integrationType: type, settings });
      expect(r.isError, `${type}: ${r.text}`).toBe(false);
    }
  });

  it('names the organization of a role where GET /orgs/{id} answers', () => {
    const org = fixture('org') as { name: string };
    expect(answers.get('find_user')!.text).toContain(`@ org ${org.name}`);
  });

  it('takes times with ±hhmm offsets and shows them in UTC', () => {
    const r = answers.get('acknowledge_global_alert') as CallResult;
    expect(r.isError, r.text).toBe(false);
  });

  it('renders an alert whose current value has no number without "undefined"', () => {
    const text = answers.get('list_open_alerts_for_config')?.text ?? '';
    expect(text).not.toMatch(/undefined/);
  });

  it('says what triage could not check when global alert configurations answer 404', () => {
    const r = answers.get('triage_project') as CallResult;
    expect(r.text).toMatch(/[Gg]lobal alert.*not checked/);
    expect(JSON.stringify(r.structured)).toMatch(/not checked/);
  });
});
