// Several installations in one server (DBOPS_PLATFORMS): two simulators stand for production and staging
// behind one server. Each call goes to the installation it names (the default when it names none), an
// unknown name is refused by name, a read-only installation refuses changes, consent given for one
// installation never applies to another, and previews and the audit log name the installation.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, loadPlatforms } from '../../src/config/index.js';
import { silentLogger } from '../../src/log.js';
import { readiness } from '../../src/mcp/cli/readiness.js';
import { createRuntime, type Runtime } from '../../src/mcp/runtime.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { enableMetrics, scrape } from '../../src/metrics.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';

let prod: Simulator;
let staging: Simulator;
let runtime: Runtime;
let client: Client;
let dir: string;
const TOOL = 'set_alert_config_enabled';

const file = (name: string, body: unknown) => {
  const f = join(dir, name);
  writeFileSync(f, typeof body === 'string' ? body : JSON.stringify(body));
  return f;
};

beforeAll(async () => {
  // Counted as when served over HTTP (a stdio server counts nothing: it serves no /metrics).
  await enableMetrics();
  dir = mkdtempSync(join(tmpdir(), 'dbops-platforms-'));
  [prod, staging] = await Promise.all([
    startSimulator({ dataset: 'demo', port: 0 }),
    // Staging speaks the field's names (the vendor's, not the spec's): each installation's client learns its own.
    startSimulator({ dataset: 'demo', port: 0, dialect: 'field' }),
  ]);
  const at = (s: Simulator, more: Record<string, unknown> = {}) => ({
    baseUrl: s.baseUrl,
    publicKey: s.keys.publicKey,
    privateKeyFile: file(`${s.keys.publicKey}-${Object.keys(more).length}.key`, s.keys.privateKey),
    projectId: s.projectIds[0],
    orgId: s.orgId,
    ...more,
  });
  const platforms = file('platforms.json', {
    default: 'prod',
    platforms: { prod: at(prod), staging: at(staging), 'staging-ro': at(staging, { readOnly: true }) },
  });
  runtime = await createRuntime(
    configSchema.parse({
      platforms,
      confirmVia: 'token',
      auditLog: join(dir, 'audit.log'),
      stateDir: join(dir, 'state'),
      secretsDir: join(dir, 'secrets'),
    }),
    silentLogger,
  );
  const server = createMcpServer(runtime.deps);
  client = new Client({ name: 'platforms-test', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  await client.connect(a);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await runtime?.close();
  await prod?.close();
  await staging?.close();
});

async function call(name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args });
  return {
    text: (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n'),
    structured: r.structuredContent as Record<string, unknown>,
    isError: r.isError === true,
  };
}

const gets = (s: Simulator) => s.stats.snapshot().byMethod.GET ?? 0;

describe('several installations', () => {
  it('gives every tool a platform argument naming the installations, the default marked', async () => {
    const tools = (await client.listTools()).tools;
    for (const t of tools) {
      const p = (t.inputSchema.properties as Record<string, { enum?: string[]; description?: string }>)
        .platform;
      expect(
        p?.enum?.filter((v) => v !== null),
        t.name,
      ).toEqual(['prod', 'staging', 'staging-ro']);
      expect(p?.description).toContain('prod (default)');
    }
  });

  it('sends each call to the installation it names, and to the default when it names none', async () => {
    const [p0, s0] = [gets(prod), gets(staging)];
    expect((await call('list_projects', { platform: 'staging' })).isError).toBe(false);
    expect(gets(staging)).toBeGreaterThan(s0);
    expect(gets(prod)).toBe(p0);
    expect((await call('list_projects', {})).isError).toBe(false);
    expect(gets(prod)).toBeGreaterThan(p0);
  });

  it("speaks each installation's own dialect: the field's integration names on staging, the spec's on prod", async () => {
    const onStaging = await call('list_integrations', { platform: 'staging' });
    const onProd = await call('list_integrations', {});
    expect(onStaging.isError || onProd.isError).toBe(false);
    expect(JSON.stringify(onStaging.structured)).toMatch(/PAGER_DUTY|SLACK|DATADOG/);
    expect(JSON.stringify(onProd.structured)).toMatch(/INCIDENT_PAGING|TEAM_CHAT|METRICS_/);
  });

  it('refuses an unknown installation by name, listing the configured ones', async () => {
    const r = await call('list_projects', { platform: 'qa' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/platform/);
    expect(r.text).toContain('no platform named "qa"');
    expect(r.text).toContain('prod (default), staging, staging-ro');
  });

  it('never copies control, bidi or invisible characters of the name given into the refusal', async () => {
    const r = await call('list_projects', { platform: 'q\u202Ea\u2066\u200Bx' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('no platform named "qax"');
    expect(r.text).not.toMatch(/[\u202E\u2066\u200B]/);
  });

  it('refuses a change on a read-only installation without calling it', async () => {
    const before = staging.stats.snapshot().requests;
    const r = await call(TOOL, { platform: 'staging-ro', alertConfigId: 'x'.repeat(24), enabled: false });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Platform `staging-ro` is read-only');
    expect(staging.stats.snapshot().requests).toBe(before);
    // Counted like any refused call.
    expect((await scrape()).text).toMatch(
      /dbops_tool_calls_total\{tool="set_alert_config_enabled",outcome="error"\} [1-9]/,
    );
  });

  it('names the installation in the preview and the audit, and never applies consent given for one to another', async () => {
    const config = staging.store.data.alertConfigs.find(
      (c) => c.groupId === staging.projectIds[0] && c.enabled,
    )!;
    const args = { alertConfigId: config.id, enabled: false };
    const first = await call(TOOL, { ...args, platform: 'staging' });
    expect(first.structured.outcome).toBe('confirmation_required');
    expect(first.text).toContain('on platform `staging`');
    const token = (first.structured.confirmation as { confirmationToken: string }).confirmationToken;
    // The same arguments and token against production: refused, production unchanged.
    const elsewhere = await call(TOOL, { ...args, confirmationToken: token });
    expect(elsewhere.isError).toBe(true);
    expect(prod.store.data.alertConfigs.find((c) => c.id === config.id)?.enabled).toBe(true);
    const done = await call(TOOL, { ...args, platform: 'staging', confirmationToken: token });
    expect(done.structured.outcome).toBe('executed');
    expect(staging.store.data.alertConfigs.find((c) => c.id === config.id)?.enabled).toBe(false);
    const audit = readFileSync(join(dir, 'audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(audit.filter((e) => e.outcome === 'executed')).toEqual([
      expect.objectContaining({ tool: TOOL, platform: 'staging' }),
    ]);
    expect(audit.find((e) => e.outcome === 'rejected')).toMatchObject({ platform: 'prod' });
  });

  it('is ready when every installation answers, and names the one that does not', async () => {
    let t = 0;
    const ready = readiness(runtime, () => t);
    const all = await ready();
    expect(Object.keys(all)).toEqual(['platform:prod', 'platform:staging', 'platform:staging-ro']);
    expect(Object.values(all).every((c) => c.ok)).toBe(true);
    staging.setFaults({ errorRate: 1, errorStatuses: [500] });
    try {
      // Kept for 30 s: the failing installation is seen once that has passed.
      expect((await ready())['platform:staging']?.ok).toBe(true);
      t += runtime.deps.config.readyKeepMs;
      const now = await ready();
      expect(now['platform:prod']?.ok).toBe(true);
      expect(now['platform:staging']?.ok).toBe(false);
    } finally {
      staging.setFaults({ errorRate: 0 });
    }
  });

  it('refuses a platform URL or key set beside the file, which would be ignored in silence', async () => {
    const settings = configSchema.parse({
      platforms: join(dir, 'platforms.json'),
      baseUrl: prod.baseUrl,
      demo: true,
      stateDir: join(dir, 'state2'),
    });
    await expect(createRuntime(settings, silentLogger)).rejects.toThrow(
      /DBOPS_PLATFORMS names the installations; remove DBOPS_BASE_URL, DBOPS_DEMO/,
    );
  });

  it('says what is wrong with a platforms file: the platform, the field, never a key', () => {
    const bad = (body: unknown) => () => loadPlatforms(file('bad.json', body));
    expect(
      bad({ platforms: { prod: { baseUrl: 'ops.example.com', publicKey: 'k', privateKey: 'secret-key' } } }),
    ).toThrow(/platform "prod", baseUrl: "ops.example.com" has no scheme/);
    expect(bad({ platforms: { prod: { baseUrl: 'https://a', publicKey: 'k' } } })).toThrow(
      /platform "prod": give exactly one of privateKey and privateKeyFile/,
    );
    expect(
      bad({ default: 'qa', platforms: { prod: { baseUrl: 'https://a', publicKey: 'k', privateKey: 's' } } }),
    ).toThrow(/default "qa" is not one of prod/);
    expect(
      bad({ platforms: { Prod: { baseUrl: 'https://a', publicKey: 'k', privateKey: 'secret-key' } } }),
    ).toThrow(/lower-case/);
    try {
      bad({
        platforms: { prod: { baseUrl: 'https://a', publicKey: 'k', privateKey: 'secret-key', extra: 1 } },
      })();
    } catch (e) {
      expect((e as Error).message).not.toContain('secret-key');
    }
  });
});
