import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createApiClient } from '../dist/src/api/client.js';
import { configSchema } from '../dist/src/config/index.js';
import { silentLogger } from '../dist/src/log.js';
import { createMcpServer } from '../dist/src/mcp/server.js';
import { createAuditLog } from '../dist/src/policy/audit.js';
import { createSecretKeeper } from '../dist/src/policy/secrets.js';
import { createSigner } from '../dist/src/policy/signer.js';
import { baseEnv, exited, findRedis, median, round, spawnWithLine, startRedis } from './harness.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const cli = here('../dist/src/cli.js');
const LATENCY_MS = 50;
/** The stated rate limit of the limited runs: 600 requests a minute (10 a second). */
const RATE_LIMIT = 600;
/** Warm calls per figure: the median is quoted (one call on a shared machine is noise). */
const WARM_RUNS = 5;

/** The widened tools, and triage_installation, with the arguments of one project and of the installation. */
const TOOLS = [
  ['list_open_alerts', {}],
  ['list_alert_configs', {}],
  ['list_maintenance_windows', {}],
  ['list_project_events', {}],
  ['list_hosts', {}],
  ['list_agents', { agentType: 'MONITORING' }],
  ['triage_installation', {}, 'triage_project'],
];

async function simulator(projects, dialect = 'spec') {
  const args = [cli, 'simulator', '--port', '0', '--json', '--projects', String(projects)];
  args.push('--latency-ms', String(LATENCY_MS), '--dialect', dialect);
  const { child, line } = await spawnWithLine(args, baseEnv(), 'ignore');
  const info = JSON.parse(line);
  const origin = new URL(info.baseUrl).origin;
  return {
    ...info,
    origin,
    keys: { publicKey: info.publicKey, privateKey: info.privateKey },
    requests: async () => (await (await fetch(`${origin}/__simulator/stats`)).json()).requests,
    close: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/** Our server in this process on an in-memory link, with its own read cache (as `serve` has) and settings. */
async function server(sim, work, o = {}) {
  const config = configSchema.parse({
    baseUrl: sim.baseUrl,
    ...sim.keys,
    projectId: sim.projectIds[0],
    orgId: sim.orgId,
    auditLog: join(work, 'audit.log'),
    secretsDir: join(work, 'secrets'),
    installationReadMs: 600_000,
    ...(o.rateLimit ? { rateLimit: o.rateLimit } : {}),
  });
  const api = createApiClient({
    baseUrl: sim.baseUrl,
    ...sim.keys,
    logger: silentLogger,
    cacheTtlMs: 300_000,
    ...(o.rateLimit ? { rateLimit: o.rateLimit } : {}),
    // `serve` caps requests in flight (DBOPS_MAX_CONCURRENT_REQUESTS, 16 by default); the other runs do not,
    // so that they measure the reads themselves.
    ...(o.capped ? { maxConcurrent: config.maxConcurrentRequests } : {}),
    dialect: 'auto',
  });
  await api.projects.get(sim.projectIds[0]); // the digest challenge, once, outside the figures
  const s = createMcpServer({
    config,
    api,
    logger: silentLogger,
    signer: createSigner(),
    audit: createAuditLog(config.auditLog, silentLogger),
    secrets: createSecretKeeper(config.secretsDir, false),
  });
  const client = new Client({ name: 'bench', version: '1' });
  const [c, t] = InMemoryTransport.createLinkedPair();
  await s.connect(t);
  await client.connect(c);
  return {
    client,
    close: async () => {
      await Promise.all([client.close(), s.close()]);
      await api.close();
    },
  };
}

/** One call: platform requests and milliseconds, and whether the answer was partial. */
async function measure(sim, client, name, args) {
  const before = await sim.requests();
  const t0 = performance.now();
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 900_000 });
  const ms = performance.now() - t0;
  if (r.isError) throw new Error(`${name} failed: ${r.content?.[0]?.text}`);
  const text = r.content?.[0]?.text ?? '';
  return {
    requests: (await sim.requests()) - before,
    ms: round(ms, 0),
    partial: text.includes('Partial answer'),
    chars: text.length,
  };
}

/** Cold (a fresh server: nothing kept) then warm (the same call again, the median of WARM_RUNS). */
async function coldWarm(sim, work, name, args, o) {
  const s = await server(sim, work, o);
  try {
    const cold = await measure(sim, s.client, name, args);
    if (o.coldOnly) return { cold };
    const warms = [];
    for (let i = 0; i < WARM_RUNS; i++) warms.push(await measure(sim, s.client, name, args));
    const warm = {
      ...warms[0],
      ms: median(warms.map((w) => w.ms)),
      requests: Math.max(...warms.map((w) => w.requests)),
    };
    return { cold, warm };
  } finally {
    await s.close();
  }
}

/** What one project's answer needs today, per tool (the baseline of "requests per project"). */
async function oneProject(sim, work) {
  const out = {};
  for (const [name, args, single] of TOOLS) out[name] = await coldWarm(sim, work, single ?? name, args, {});
  return out;
}

async function atSize(projects, work, quick) {
  const sim = await simulator(projects);
  try {
    const one = await oneProject(sim, work);
    const tools = {};
    for (const [name, args] of TOOLS) {
      const all = name === 'triage_installation' ? args : { ...args, projectId: 'all' };
      const unlimited = await coldWarm(sim, work, name, all, {});
      const limited = quick ? undefined : await coldWarm(sim, work, name, all, { rateLimit: RATE_LIMIT });
      const capped =
        quick || name !== 'triage_installation'
          ? undefined
          : await coldWarm(sim, work, name, all, { capped: true, coldOnly: true });
      tools[name] = {
        one: one[name],
        all: unlimited,
        perProject: round(unlimited.cold.requests / projects, 2),
        onePerProject: one[name].cold.requests,
        warmOverOneMs: round(unlimited.warm.ms - one[name].warm.ms, 0),
        warmRatio: round(unlimited.warm.ms / Math.max(1, one[name].warm.ms), 1),
        ...(limited ? { rateLimited: limited } : {}),
        ...(capped ? { cappedCold: capped.cold } : {}),
      };
    }
    return { projects, tools };
  } finally {
    await sim.close();
  }
}

/** One project's cold requests per tool in the field's dialect (the platform's names differ; the reads may). */
async function fieldDialect(work) {
  const sim = await simulator(10, 'field');
  try {
    const out = {};
    for (const [name, args, single] of TOOLS) {
      const one = await coldWarm(sim, work, single ?? name, args, {});
      const all = await coldWarm(
        sim,
        work,
        name,
        name === 'triage_installation' ? args : { ...args, projectId: 'all' },
        {},
      );
      out[name] = { one: one.cold.requests, perProject: round(all.cold.requests / 10, 2) };
    }
    return out;
  } finally {
    await sim.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Three replicas sharing Redis: the same question at once.

async function replica(sim, env) {
  const args = [cli, 'serve', '--transport', 'http', '--port', '0'];
  const { child, line } = await spawnWithLine(args, {
    ...baseEnv(),
    DBOPS_BASE_URL: sim.origin,
    DBOPS_PUBLIC_KEY: sim.keys.publicKey,
    DBOPS_PRIVATE_KEY: sim.keys.privateKey,
    DBOPS_PROJECT_ID: sim.projectIds[0],
    DBOPS_LOG_LEVEL: 'error',
    DBOPS_CACHE_TTL_MS: '60000',
    DBOPS_INSTALLATION_READ_MS: '600000',
    ...env,
  });
  const url = line.match(/https?:\/\/\S+\/mcp/)?.[0];
  if (!url) throw new Error(`no MCP URL in "${line}"`);
  const client = new Client({ name: 'bench-replica', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  await client.callTool({ name: 'list_projects', arguments: {} }); // the digest challenge, once
  return {
    client,
    close: async () => {
      await client.close().catch(() => {});
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

async function replicas(projects, work) {
  const bin = findRedis();
  if (!bin) return { skipped: 'redis-server is not installed' };
  const sim = await simulator(projects);
  const store = await startRedis(bin, work);
  const open = [];
  try {
    const ask = (c) =>
      c.callTool({ name: 'list_open_alerts', arguments: { projectId: 'all' } }, undefined, {
        timeout: 600_000,
      });
    const alone = await replica(sim, { DBOPS_STATE_DIR: join(work, 'alone') });
    open.push(alone.close);
    let before = await sim.requests();
    await ask(alone.client);
    const one = (await sim.requests()) - before;
    const shared = {
      DBOPS_STATE_URL: store.url,
      DBOPS_TOKEN_SECRET: 'bench-replicas-share-this-secret-0123',
    };
    const three = [];
    for (let i = 0; i < 3; i++) {
      const r = await replica(sim, { ...shared, DBOPS_STATE_DIR: join(work, `replica${i}`) });
      open.push(r.close);
      three.push(r);
    }
    before = await sim.requests();
    const t0 = performance.now();
    await Promise.all(three.map((r) => ask(r.client)));
    const ms = performance.now() - t0;
    const threeRequests = (await sim.requests()) - before;
    return {
      projects,
      question: 'list_open_alerts projectId=all',
      oneServer: one,
      threeReplicas: threeRequests,
      ms: round(ms, 0),
      ratio: round(threeRequests / one),
    };
  } finally {
    for (const c of open.reverse()) await c();
    await store.close();
    await sim.close();
  }
}

/** The figures as lines of text: per size and tool, one project beside the whole installation. */
export function installationLines(r) {
  const out = [
    `installation (${r.latencyMs} ms platform latency): requests and ms, cold → warm; one project | all projects | per project`,
  ];
  for (const z of r.sizes)
    for (const [name, v] of Object.entries(z.tools)) {
      const lim = v.rateLimited
        ? ` | rate ${r.rateLimit}/min: ${v.rateLimited.cold.requests} req ${v.rateLimited.cold.ms} ms${v.rateLimited.cold.partial ? ' partial' : ''}`
        : '';
      const cap = v.cappedCold
        ? ` | 16 in flight: ${v.cappedCold.ms} ms${v.cappedCold.partial ? ' partial' : ''}`
        : '';
      out.push(
        `  ${String(z.projects).padStart(3)} ${name.padEnd(25)} ${v.one.cold.requests} req ${v.one.cold.ms}→${v.one.warm.ms} ms | ${v.all.cold.requests} req ${v.all.cold.ms}→${v.all.warm.ms} ms (warm ${v.all.warm.requests} req, +${v.warmOverOneMs} ms) | ${v.perProject}/project vs ${v.onePerProject}${lim}${cap}`,
      );
    }
  if (r.replicas?.threeReplicas !== undefined)
    out.push(
      `  three replicas sharing Redis, ${r.replicas.question} at ${r.replicas.projects} projects: ${r.replicas.threeReplicas} platform requests vs ${r.replicas.oneServer} for one server (${r.replicas.ratio}×)`,
    );
  return out;
}

export async function runInstallation({ quick = false } = {}) {
  const work = mkdtempSync(join(tmpdir(), 'dbops-bench-installation-'));
  try {
    const sizes = quick ? [10] : [10, 100, 500];
    // The machine's load beside the figures: timings on a shared machine move with it.
    const out = {
      latencyMs: LATENCY_MS,
      rateLimit: quick ? undefined : RATE_LIMIT,
      warmRuns: WARM_RUNS,
      loadBefore: loadavg().map((x) => round(x, 1)),
      sizes: [],
    };
    for (const n of sizes) out.sizes.push(await atSize(n, work, quick));
    if (!quick) {
      out.field = await fieldDialect(work);
      out.replicas = await replicas(100, work);
    }
    out.loadAfter = loadavg().map((x) => round(x, 1));
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await runInstallation({ quick: process.argv.includes('--quick') });
  console.log(JSON.stringify(r, null, 2));
}
