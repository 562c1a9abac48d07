// triage_project's concurrent reads, measured through the real MCP path (SDK client ↔ server in memory, API
// client ↔ in-process simulator with 5 ms added latency per request) against baselines from the same run:
// (a) its slowest single API call alone, (b) the same API calls made one by one. Medians over RUNS runs.
// Expected: triage < 3 × the slowest single call. Writes bench/results-triage.json. Run after `npm run build`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createApiClient } from '../dist/src/api/client.js';
import { fetchAll } from '../dist/src/api/paging.js';
import { configSchema } from '../dist/src/config.js';
import { silentLogger } from '../dist/src/log.js';
import { createMcpServer } from '../dist/src/mcp/server.js';
import { createAuditLog } from '../dist/src/policy/audit.js';
import { createSecretKeeper } from '../dist/src/policy/secrets.js';
import { createTokenSigner } from '../dist/src/policy/tokens.js';
import { startSimulator } from '../dist/src/simulator/index.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const LATENCY_MS = 5;
const SINCE_HOURS = 24;
const EXPECTED_AT_MOST = 3;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const time = async (fn) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

const started = Date.now();
const work = mkdtempSync(join(tmpdir(), 'dbops-bench-triage-'));
const sim = await startSimulator({
  host: '127.0.0.1',
  port: 0,
  dataset: 'demo',
  faults: { latencyMs: LATENCY_MS },
});
const projectId = sim.projectIds[0];
const config = configSchema.parse({
  baseUrl: sim.baseUrl,
  publicKey: sim.keys.publicKey,
  privateKey: sim.keys.privateKey,
  projectId,
  orgId: sim.orgId,
  auditLog: join(work, 'audit.log'),
  secretsDir: join(work, 'secrets'),
  logLevel: 'error',
});
const api = createApiClient({ baseUrl: sim.baseUrl, ...sim.keys, logger: silentLogger });
const server = createMcpServer({
  config,
  api,
  logger: silentLogger,
  tokens: createTokenSigner(config.tokenSecret),
  audit: createAuditLog(config.auditLog, silentLogger),
  secrets: createSecretKeeper(config.secretsDir, false),
});
const client = new Client({ name: 'bench-triage', version: '1' });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
await client.connect(clientSide);

// The API calls triage_project makes (each list fits one page of 500 on the demo dataset).
const minDate = () => new Date(Date.now() - SINCE_HOURS * 3_600_000).toISOString();
const all = (read) => fetchAll(read, {});
const calls = {
  alertConfigs: () => all((q) => api.alertConfigs.list(projectId, q)),
  openAlerts: () => all((q) => api.alerts.list(projectId, { ...q, status: 'OPEN' })),
  trackingAlerts: () => all((q) => api.alerts.list(projectId, { ...q, status: 'TRACKING' })),
  automation: () => api.automation.status(projectId),
  events: () => all((q) => api.events.listForProject(projectId, { ...q, minDate: minDate() })),
  maintenanceWindows: () => all((q) => api.maintenanceWindows.list(projectId, q)),
};

async function triage() {
  const r = await client.callTool({ name: 'triage_project', arguments: { sinceHours: SINCE_HOURS } });
  if (r.isError) throw new Error(`triage_project failed: ${r.content?.[0]?.text}`);
  return r;
}

let results;
try {
  // Warm-up: digest challenge cached, connections open, code paths compiled.
  for (let i = 0; i < 3; i++) {
    await triage();
    for (const call of Object.values(calls)) await call();
  }

  // Interleaved, so that load from elsewhere on the machine hits every measurement alike.
  const triageMs = [];
  const singleMs = Object.fromEntries(Object.keys(calls).map((k) => [k, []]));
  const sequentialMs = [];
  let requests = 0;
  let challenges = 0;
  for (let i = 0; i < RUNS; i++) {
    const before = sim.stats.snapshot();
    triageMs.push(await time(triage));
    const after = sim.stats.snapshot();
    requests += after.requests - before.requests;
    challenges += after.challenges - before.challenges;
    for (const [name, call] of Object.entries(calls)) singleMs[name].push(await time(call));
    sequentialMs.push(
      await time(async () => {
        for (const call of Object.values(calls)) await call();
      }),
    );
  }

  const singles = Object.fromEntries(Object.entries(singleMs).map(([k, v]) => [k, round(median(v))]));
  const [slowestName, slowest] = Object.entries(singles).sort((a, b) => b[1] - a[1])[0];
  const concurrent = round(median(triageMs));
  const sequential = round(median(sequentialMs));
  results = {
    benchmark: 'triage_project via MCP (concurrent reads) vs its API calls',
    runs: RUNS,
    latencyMs: LATENCY_MS,
    apiCalls: Object.keys(calls).length,
    concurrent: {
      medianMs: concurrent,
      httpRequestsPerTriage: round(requests / RUNS),
      challengesPerTriage: round(challenges / RUNS),
    },
    sequential: { medianMs: sequential },
    slowestSingle: { call: slowestName, medianMs: slowest },
    singleCallsMedianMs: singles,
    ratio: round(concurrent / sequential, 3),
    ratioToSlowestSingle: round(concurrent / slowest, 3),
    expectedRatioToSlowestAtMost: EXPECTED_AT_MOST,
    pass: concurrent / slowest < EXPECTED_AT_MOST,
    durationMs: Date.now() - started,
    node: process.version,
  };
} finally {
  await client.close().catch(() => {});
  await server.close().catch(() => {});
  await api.close();
  await sim.close();
  rmSync(work, { recursive: true, force: true });
}

writeFileSync(
  fileURLToPath(new URL('results-triage.json', import.meta.url)),
  `${JSON.stringify(results, null, 2)}\n`,
);
console.log(`triage_project via MCP      ${results.concurrent.medianMs} ms (median of ${RUNS})`);
console.log(
  `slowest single call alone   ${results.slowestSingle.medianMs} ms (${results.slowestSingle.call})`,
);
console.log(`same calls one by one       ${results.sequential.medianMs} ms`);
console.log(
  `triage / slowest single     ${results.ratioToSlowestSingle} (expected < ${EXPECTED_AT_MOST}: ${results.pass ? 'pass' : 'FAIL'})`,
);
console.log(`triage / sequential         ${results.ratio}`);
console.log(
  `HTTP requests per triage    ${results.concurrent.httpRequestsPerTriage} (${results.concurrent.challengesPerTriage} challenges)`,
);
process.exitCode = results.pass ? 0 : 1;
