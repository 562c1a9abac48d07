// The benchmark: every figure is a ratio against a floor measured in the same run, the subjects alternating
// so that load from elsewhere on the (shared, noisy) machine hits both alike; medians throughout. Prints one
// table with the goal of issue 15 per line and writes bench/results.json. `npm run bench` builds first.
// `--quick` (or BENCH_QUICK=1) shrinks every count so CI can run it in seconds; it writes the results to
// BENCH_OUT (default: a temporary file), never over bench/results.json. Timing never fails the run.
//
//   cold start     spawn → tools/list answered over stdio, `dbops-mcp serve` as a user starts it (nothing set:
//                  demo mode) vs bench/floor-server.mjs (same SDK, one tool); median of per-round ratios
//   tool call      get_alert_config over stdio minus the raw signed undici GET it needs, in units of a bare
//                  SDK echo call over stdio (bench/floor-server.mjs)
//   triage         triage_project (in-memory MCP link) vs its slowest single API call, at 0 and 5 ms latency
//   HTTP           10 concurrent Streamable HTTP clients sending ping: ours vs bench/floor-http.mjs
//   memory         RSS of a stdio server after 2,000 mixed calls vs after 100
//   sizes          text and structuredContent of triage_project and the list tools at 1× and 100× data
//   load           bench/load.mjs: platform requests of 50 sessions triaging at once (one process; three
//                  replicas sharing Redis) vs one triage; RSS of one HTTP server holding 200 sessions
//   heap           bench/heap.mjs: heap after a full GC over 10,000 calls vs after the warm-up
//   installation   bench/installation.mjs: projectId "all" and triage_installation at 10, 100, 500 projects
//                  behind 50 ms: platform requests and time, cold and warm, rate limit unset and set
// The platform is the simulator in a child process (it is another machine in real use), except for sizes.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApiClient } from '../dist/src/api/client.js';
import { fetchAll } from '../dist/src/api/paging.js';
import { startSimulator } from '../dist/src/simulator/index.js';
import { benchColdStart, coldStart } from './cold.mjs';
import {
  baseEnv,
  exited,
  inProcessServer,
  median,
  quantile,
  rawSignedGet,
  round,
  serverEnv,
  simulatorChild,
  spawnWithLine,
} from './harness.mjs';
import { runHeap } from './heap.mjs';
import { installationLines, runInstallation } from './installation.mjs';
import { runLoad } from './load.mjs';

const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';
const N = quick
  ? { cold: 3, calls: 30, triage: 10, httpRounds: 2, httpMs: 300, memory: 400 }
  : { cold: 15, calls: 300, triage: 40, httpRounds: 12, httpMs: 1000, memory: 2000 };
const HTTP_CLIENTS = 10;
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const cli = here('../dist/src/cli.js');
// What `dbops-mcp` runs once installed (the bundle of scripts/bundle.mjs); dist/src/cli.js is the same code unbundled.
const bin = here(`../${JSON.parse(readFileSync(here('../package.json'), 'utf8')).bin['dbops-mcp']}`);
const resultsPath = quick
  ? (process.env.BENCH_OUT ?? join(tmpdir(), 'dbops-bench-quick.json'))
  : here('results.json');
const ms = (t0) => performance.now() - t0;

const procStatusKb = (pid, field) => {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return m ? Number(m[1]) : Number.NaN;
};

const started = Date.now();
const work = mkdtempSync(join(tmpdir(), 'dbops-bench-'));

/** tools/list as served over stdio (UTF-8 bytes, `_meta` included) for all, each toolset and dynamic. */
async function benchToolsets(env) {
  const { toolsets } = await import(here('../dist/tools/index.js'));
  const bytes = {};
  for (const name of ['all', ...toolsets.map((s) => s.name), 'dynamic']) {
    const r = await coldStart([cli, 'serve'], { ...env, DBOPS_TOOLSETS: name });
    bytes[name] = { tools: r.tools, bytes: r.listUtf8Bytes };
  }
  return bytes;
}

// ---------------------------------------------------------------------------------------------------------
// Stdio children driven by the SDK client.

async function stdioClient(args, env) {
  const transport = new StdioClientTransport({ command: process.execPath, args, env, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return { client, pid: transport.pid, close: () => client.close() };
}

async function callOk(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name} failed: ${r.content?.[0]?.text}`);
  return r;
}

async function benchToolCall(sim, env, alertConfigId) {
  const path = `/api/public/v1.0/groups/${sim.projectIds[0]}/alertConfigs/${alertConfigId}`;
  const raw = rawSignedGet(sim);
  const ours = await stdioClient([bin, 'serve'], env);
  const floor = await stdioClient([here('floor-server.mjs')], baseEnv());
  const subjects = {
    raw: () => raw.get(path),
    echo: () => callOk(floor.client, 'echo', { text: 'x' }),
    ours: () => callOk(ours.client, 'get_alert_config', { alertConfigId }),
  };
  const times = { raw: [], echo: [], ours: [] };
  try {
    for (let i = 0; i < 20; i++) for (const f of Object.values(subjects)) await f(); // warm
    for (let i = 0; i < N.calls; i++)
      for (const [k, f] of Object.entries(subjects)) {
        const t0 = performance.now();
        await f();
        times[k].push(ms(t0));
      }
  } finally {
    await Promise.all([ours.close(), floor.close(), raw.close()]);
  }
  const [r, e, o] = [median(times.raw), median(times.echo), median(times.ours)];
  return {
    calls: N.calls,
    oursMs: round(o, 3),
    rawGetMs: round(r, 3),
    echoMs: round(e, 3),
    overheadMs: round(o - r, 3),
    ratio: round((o - r) / e),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Triage: our server in this process on an in-memory link; the API calls it makes, timed one at a time.

async function benchTriage(sim) {
  const s = await inProcessServer(sim, work);
  const api = createApiClient({ baseUrl: sim.baseUrl, ...sim.keys });
  const projectId = sim.projectIds[0];
  const minDate = () => new Date(Date.now() - 24 * 3_600_000).toISOString();
  const all = (read) => fetchAll(read, {});
  const calls = {
    alertConfigs: () => all((q) => api.alertConfigs.list(projectId, q)),
    openAlerts: () => all((q) => api.alerts.list(projectId, { ...q, status: 'OPEN' })),
    trackingAlerts: () => all((q) => api.alerts.list(projectId, { ...q, status: 'TRACKING' })),
    automation: () => api.automation.status(projectId),
    events: () => all((q) => api.events.listForProject(projectId, { ...q, minDate: minDate() })),
    maintenanceWindows: () => all((q) => api.maintenanceWindows.list(projectId, q)),
  };
  const triage = () => callOk(s.client, 'triage_project', {});
  // The same six reads as raw signed GETs fired at once: what concurrency alone achieves on this machine.
  const raw = rawSignedGet(sim, 6);
  const prefix = `/api/public/v1.0/groups/${projectId}`;
  const page = 'pageNum=1&itemsPerPage=500';
  const rawAll = () =>
    Promise.all(
      [
        `/alertConfigs?${page}`,
        `/alerts?status=OPEN&${page}`,
        `/alerts?status=TRACKING&${page}`,
        '/automationStatus/full',
        `/events?minDate=${encodeURIComponent(minDate())}&${page}`,
        `/maintenanceWindows?${page}`,
      ].map((p) => raw.get(prefix + p)),
    );
  const time = async (f) => {
    const t0 = performance.now();
    await f();
    return ms(t0);
  };
  const triageMs = [];
  const singleMs = Object.fromEntries(Object.keys(calls).map((k) => [k, []]));
  const sequentialMs = [];
  const rawAllMs = [];
  try {
    for (let i = 0; i < 5; i++) {
      await triage();
      await rawAll();
      for (const c of Object.values(calls)) await c();
    }
    for (let i = 0; i < N.triage; i++) {
      triageMs.push(await time(triage));
      rawAllMs.push(await time(rawAll));
      for (const [k, c] of Object.entries(calls)) singleMs[k].push(await time(c));
      sequentialMs.push(
        await time(async () => {
          for (const c of Object.values(calls)) await c();
        }),
      );
    }
  } finally {
    await s.close();
    await api.close();
    await raw.close();
  }
  const singles = Object.fromEntries(Object.entries(singleMs).map(([k, v]) => [k, round(median(v), 3)]));
  const [slowestCall, slowestMs] = Object.entries(singles).sort((a, b) => b[1] - a[1])[0];
  return {
    runs: N.triage,
    triageMs: round(median(triageMs), 3),
    slowestCall,
    slowestMs,
    sequentialMs: round(median(sequentialMs), 3),
    rawConcurrentMs: round(median(rawAllMs), 3),
    singleCallsMs: singles,
    ratio: round(median(triageMs) / slowestMs),
  };
}

// ---------------------------------------------------------------------------------------------------------
// HTTP: 10 clients, each its own session, sending ping back to back for a time slice; ours and the floor
// take turns slice by slice.

async function httpSubject(args, env) {
  const { child, line } = await spawnWithLine(args, env);
  const url = line.match(/https?:\/\/\S+\/mcp/)?.[0];
  if (!url) throw new Error(`no MCP URL in "${line}"`);
  const clients = [];
  for (let i = 0; i < HTTP_CLIENTS; i++) {
    const c = new Client({ name: `bench-${i}`, version: '1' });
    await c.connect(new StreamableHTTPClientTransport(new URL(url)));
    clients.push(c);
  }
  return {
    clients,
    close: async () => {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

async function slice(clients, sliceMs, latencies) {
  const end = performance.now() + sliceMs;
  let done = 0;
  await Promise.all(
    clients.map(async (c) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await c.ping();
        latencies.push(ms(t0));
        done++;
      }
    }),
  );
  return done / (sliceMs / 1000);
}

async function benchHttp(env) {
  const ours = await httpSubject([bin, 'serve', '--transport', 'http', '--port', '0'], env);
  const floor = await httpSubject([here('floor-http.mjs')], baseEnv());
  const r = { ours: { rps: [], lat: [] }, floor: { rps: [], lat: [] } };
  try {
    await slice(ours.clients, 200, []); // warm
    await slice(floor.clients, 200, []);
    for (let i = 0; i < N.httpRounds; i++)
      for (const [k, s] of [
        ['ours', ours],
        ['floor', floor],
      ])
        r[k].rps.push(await slice(s.clients, N.httpMs, r[k].lat));
  } finally {
    await Promise.all([ours.close(), floor.close()]);
  }
  const sum = (x) => ({
    rps: round(median(x.rps), 0),
    p50Ms: round(quantile(x.lat, 0.5), 2),
    p99Ms: round(quantile(x.lat, 0.99), 2),
  });
  return {
    clients: HTTP_CLIENTS,
    request: 'ping',
    ours: sum(r.ours),
    floor: sum(r.floor),
    // Each round's ours/floor pair ran back to back: the median of those ratios is steadier than a ratio of
    // medians when the load from elsewhere drifts. The spread (min–max) shows how noisy the machine was.
    ratio: round(median(r.ours.rps.map((x, i) => x / r.floor.rps[i]))),
    roundRatios: [
      round(Math.min(...r.ours.rps.map((x, i) => x / r.floor.rps[i]))),
      round(Math.max(...r.ours.rps.map((x, i) => x / r.floor.rps[i]))),
    ],
  };
}

// ---------------------------------------------------------------------------------------------------------
// Memory: RSS of a stdio server child after 100 and after N.memory mixed read calls.

async function benchMemory(env, alertConfigId) {
  const calls = [
    ['get_alert_config', { alertConfigId }],
    ['list_alert_configs', {}],
    ['list_project_events', {}],
    ['list_open_alerts_for_config', { alertConfigId }],
    ['list_maintenance_windows', {}],
    ['get_automation_status', {}],
    ['triage_project', {}],
  ];
  // The floor: the echo server answering as many characters as our call just did, call for call. Its RSS
  // grows too: V8 sizes its heap to the traffic; what a leak would add comes on top.
  const server = await stdioClient([bin, 'serve'], env);
  const floor = await stdioClient([here('floor-server.mjs')], baseEnv());
  try {
    const names = new Set((await server.client.listTools()).tools.map((t) => t.name));
    const mix = calls.filter(([n]) => names.has(n));
    const rssAt = {};
    const floorAt = {};
    for (let i = 1; i <= N.memory; i++) {
      const [n, a] = mix[i % mix.length];
      const r = await callOk(server.client, n, a);
      const chars = r.content[0].text.length + JSON.stringify(r.structuredContent ?? null).length;
      await callOk(floor.client, 'echo', { text: 'x'.repeat(chars) });
      if (i === 100 || i === N.memory) {
        rssAt[i] = procStatusKb(server.pid, 'VmRSS');
        floorAt[i] = procStatusKb(floor.pid, 'VmRSS');
      }
    }
    return {
      calls: N.memory,
      mix: mix.map(([n]) => n),
      rssAfter100Mb: round(rssAt[100] / 1024, 1),
      rssAfterAllMb: round(rssAt[N.memory] / 1024, 1),
      ratio: round(rssAt[N.memory] / rssAt[100]),
      floorRssAfter100Mb: round(floorAt[100] / 1024, 1),
      floorRssAfterAllMb: round(floorAt[N.memory] / 1024, 1),
      floorRatio: round(floorAt[N.memory] / floorAt[100]),
    };
  } finally {
    await Promise.all([server.close(), floor.close()]);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Sizes: the text and structuredContent of triage_project and every list tool without required arguments,
// against the demo data and against the same data with every project-level list 100 times as long.

/** Appends 99 copies (fresh ids) of every item of the lists a project's tools read. */
function multiply(store, times) {
  const d = store.data;
  let n = 0;
  const freshId = (id) => `${String(id).slice(0, 14)}${(++n).toString(16).padStart(10, '0')}`;
  for (const key of [
    'alertConfigs',
    'alerts',
    'maintenanceWindows',
    'events',
    'hosts',
    'agents',
    'integrations',
  ]) {
    if (!Array.isArray(d[key])) continue;
    const originals = [...d[key]];
    for (let k = 1; k < times; k++)
      for (const item of originals) d[key].push({ ...item, id: freshId(item.id) });
  }
}

async function sizesAt(times) {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, dataset: 'demo' });
  if (times > 1) multiply(sim.store, times);
  const s = await inProcessServer(sim, work);
  const rows = {};
  try {
    const { tools } = await s.client.listTools();
    const chosen = tools.filter(
      (t) => t.name === 'triage_project' || (t.name.startsWith('list_') && !t.inputSchema.required?.length),
    );
    for (const t of chosen) {
      const r = await s.client.callTool({ name: t.name, arguments: {} });
      if (r.isError) continue;
      rows[t.name] = {
        textChars: r.content.map((c) => c.text ?? '').join('\n').length,
        structuredChars: JSON.stringify(r.structuredContent ?? null).length,
      };
    }
  } finally {
    await s.close();
    await sim.close();
  }
  return rows;
}

async function benchSizes() {
  const x1 = await sizesAt(1);
  const x100 = await sizesAt(100);
  const tools = Object.keys(x1).map((tool) => ({
    tool,
    x1: x1[tool],
    x100: x100[tool],
    textGrowth: x100[tool] ? round(x100[tool].textChars / x1[tool].textChars) : undefined,
    structuredGrowth: x100[tool] ? round(x100[tool].structuredChars / x1[tool].structuredChars) : undefined,
  }));
  const worst = (k) => Math.max(...tools.map((t) => t[k] ?? 0));
  return { tools, maxTextGrowth: worst('textGrowth'), maxStructuredGrowth: worst('structuredGrowth') };
}

// ---------------------------------------------------------------------------------------------------------
// Sibling benchmarks: bench/client.mjs (digest signing) as a script; bench/scenarios.mjs, when present,
// through its runScenarios() export.

async function digestSibling() {
  const out = here('results-client.json');
  const recorded = existsSync(out) ? readFileSync(out) : undefined;
  const child = spawn(process.execPath, [here('client.mjs')], { env: baseEnv(), stdio: 'ignore' });
  await exited(child);
  try {
    return child.exitCode === 0
      ? JSON.parse(readFileSync(out, 'utf8'))
      : { failed: `exit ${child.exitCode}` };
  } finally {
    if (recorded && quick) writeFileSync(out, recorded);
  }
}

// ==== scenarios hook (issue 15): bench/scenarios.mjs, written by another change, runs here when present ====
async function scenariosHook() {
  const path = here('scenarios.mjs');
  if (!existsSync(path)) return undefined;
  const { runScenarios } = await import(path);
  return typeof runScenarios === 'function' ? runScenarios({ quick }) : { skipped: 'no runScenarios export' };
}
// ==== end of scenarios hook ====

// ---------------------------------------------------------------------------------------------------------

const sim0 = await simulatorChild(cli, 0);
const sim5 = await simulatorChild(cli, 5);
let results;
try {
  const env = serverEnv(sim0, work);
  const probe = createApiClient({ baseUrl: sim0.baseUrl, ...sim0.keys });
  const alertConfigId = (await probe.alertConfigs.list(sim0.projectIds[0], { itemsPerPage: 1 })).results[0]
    ?.id;
  await probe.close();
  if (!alertConfigId) throw new Error('the demo project has no alert configurations');

  const step = async (name, f) => {
    const t0 = Date.now();
    const r = await f();
    if (!quick) console.error(`bench: ${name} done in ${round((Date.now() - t0) / 1000, 1)} s`);
    return r;
  };
  results = {
    node: process.version,
    date: new Date().toISOString(),
    quick,
    coldStart: await step('cold start', () => benchColdStart(env, N.cold)),
    toolsets: await step('tools/list per toolset', () => benchToolsets(env)),
    toolCall: await step('tool call', () => benchToolCall(sim0, env, alertConfigId)),
    triage0: await step('triage 0 ms', () => benchTriage(sim0)),
    triage5: await step('triage 5 ms', () => benchTriage(sim5)),
    http: await step('HTTP', () => benchHttp(env)),
    memory: await step('memory', () => benchMemory(env, alertConfigId)),
    sizes: await step('sizes', benchSizes),
    digest: quick ? { skipped: 'quick mode' } : await step('digest', digestSibling),
    scenarios: await step('scenarios', scenariosHook),
    load: await step('load (bench/load.mjs)', () => runLoad({ quick })),
    heap: await step('heap (bench/heap.mjs)', () => runHeap({ quick })),
    installation: await step('installation (bench/installation.mjs)', () => runInstallation({ quick })),
  };
  results.durationS = round((Date.now() - started) / 1000, 1);
} finally {
  await Promise.all([sim0.close(), sim5.close()]);
  rmSync(work, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------------------
// The table: one line per goal of issue 15.

const {
  coldStart: cs,
  toolCall: tc,
  triage0: t0,
  triage5: t5,
  http,
  memory: mem,
  sizes,
  load,
  heap,
} = results;
const goal = (ratio, op, limit) => ({
  ratio,
  goal: `${op} ${limit}`,
  met: op === '≤' ? ratio <= limit : ratio >= limit,
});
const lines = [
  [
    'spawn → tools/list answered',
    `${cs.oursMs} ms`,
    `${cs.floorMs} ms minimal SDK server`,
    goal(cs.ratio, '≤', 1.07),
  ],
  [
    'peak RSS at tools/list',
    `${cs.peakRssMb} MB`,
    `${cs.floorPeakRssMb} MB minimal SDK server`,
    goal(cs.rssRatio, '≤', 1.1),
  ],
  [
    'tool-call overhead above raw signed GET',
    `${tc.overheadMs} ms (${tc.oursMs} − ${tc.rawGetMs})`,
    `${tc.echoMs} ms bare echo call`,
    goal(tc.ratio, '≤', 1.3),
  ],
  [
    'one-GET tool call vs echo call + raw GET',
    `${tc.oursMs} ms`,
    `${round(tc.echoMs + tc.rawGetMs, 3)} ms (${tc.echoMs} + ${tc.rawGetMs})`,
    goal(round(tc.oursMs / (tc.echoMs + tc.rawGetMs)), '≤', 1.5),
  ],
  [
    'triage_project, 0 ms added latency',
    `${t0.triageMs} ms`,
    `${t0.slowestMs} ms ${t0.slowestCall}`,
    goal(t0.ratio, '≤', 2.5),
  ],
  [
    'triage_project, 5 ms added latency',
    `${t5.triageMs} ms`,
    `${t5.slowestMs} ms ${t5.slowestCall}`,
    goal(t5.ratio, '≤', 2.5),
  ],
  [
    `Streamable HTTP, ${http.clients} clients (${http.request})`,
    `${http.ours.rps}/s p50 ${http.ours.p50Ms} p99 ${http.ours.p99Ms} ms`,
    `${http.floor.rps}/s p50 ${http.floor.p50Ms} p99 ${http.floor.p99Ms} ms`,
    goal(http.ratio, '≥', 0.9),
  ],
  [
    `RSS after ${mem.calls} calls`,
    `${mem.rssAfterAllMb} MB`,
    `${mem.rssAfter100Mb} MB after 100`,
    goal(mem.ratio, '≤', 1.1),
  ],
  [
    `heap after full GC, ${heap.calls} calls`,
    `${heap.heapSamplesMb.at(-1)} MB`,
    `${heap.heapAfterWarmupMb} MB after warm-up`,
    goal(heap.ratio, '≤', 1.05),
  ],
  [
    `${load.sessions} sessions triage at once, one process: platform requests`,
    `${load.oneProcess.requests}`,
    `${load.oneTriage.requests} one triage`,
    goal(load.oneProcess.ratio, '≤', 1.2),
  ],
  ...(load.threeReplicas.ratio === undefined
    ? []
    : [
        [
          `${load.sessions} sessions triage at once, 3 replicas + Redis: platform requests`,
          `${load.threeReplicas.requests}`,
          `${load.oneTriage.requests} one triage`,
          goal(load.threeReplicas.ratio, '≤', 1.5),
        ],
      ]),
  [
    `triage_project when warm, ${load.rounds.latencyMs} ms latency, vs its reads at once`,
    `${load.rounds.warmMs} ms (cold ${load.rounds.coldMs} ms, ${load.rounds.coldRatio}×)`,
    `${load.rounds.rawConcurrentMs} ms raw signed GETs at once`,
    goal(load.rounds.warmRatio, '≤', 1.5),
  ],
  [
    `RSS of one HTTP server holding ${load.memory.sessions} sessions (MB, not a ratio)`,
    `${load.memory.rssMb} MB`,
    `${load.memory.rssAfterOneMb} MB with one`,
    goal(load.memory.rssMb, '≤', 256),
  ],
];
const rows = [
  ['figure (median, same run)', 'ours', 'floor', 'ratio', 'goal', ''],
  ...lines.map(([f, o, fl, g]) => [f, o, fl, String(g.ratio), g.goal, g.met ? 'met' : 'NOT met']),
];
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const [i, r] of rows.entries()) {
  console.log(
    r
      .map((c, j) => c.padEnd(widths[j]))
      .join('  ')
      .trimEnd(),
  );
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
console.log(
  `\nconfigured for a platform (DBOPS_BASE_URL): spawn → tools/list ${cs.configuredMs} ms, ratio ${cs.configuredRatio}, ` +
    `peak RSS ratio ${cs.configuredRssRatio}; tools/list ${round(cs.toolsListBytes / 1024, 1)} KB for ${cs.tools} tools`,
);
console.log(
  `tools/list bytes (with _meta): ${Object.entries(results.toolsets)
    .map(([name, t]) => `${name} ${t.bytes} (${t.tools} tools)`)
    .join(', ')}`,
);
console.log(
  `HTTP: ours/floor per round ${http.roundRatios[0]}–${http.roundRatios[1]} (the table shows their median)`,
);
console.log(
  `RSS: the echo floor answering as many characters grew ${mem.floorRssAfter100Mb} → ${mem.floorRssAfterAllMb} MB (${mem.floorRatio}×) over the same calls`,
);
for (const [at, t] of [
  ['0 ms', t0],
  ['5 ms', t5],
])
  console.log(
    `triage at ${at}: its six reads one after another ${t.sequentialMs} ms; as raw signed GETs all at once ${t.rawConcurrentMs} ms (triage ${round(t.triageMs / t.rawConcurrentMs)}× that)`,
  );
console.log('\nsizes (chars)                       text 1× → 100×        structured 1× → 100×');
for (const t of sizes.tools)
  console.log(
    `  ${t.tool.padEnd(34)}${`${t.x1.textChars} → ${t.x100?.textChars ?? '—'}`.padEnd(22)}${t.x1.structuredChars} → ${t.x100?.structuredChars ?? '—'}`,
  );
if (results.digest?.ratio !== undefined)
  console.log(
    `\ndigest: preemptive ${results.digest.ours.medianMs} ms vs re-challenge ${results.digest.baseline.medianMs} ms`,
  );
console.log(`\n${installationLines(results.installation).join('\n')}`);
if (results.scenarios) console.log(`\nscenarios (bench/scenarios.mjs): see "scenarios" in ${resultsPath}`);
const oncall = results.scenarios?.oncall;
if (oncall)
  console.log(
    `on-call questions: ${oncall.answered}/${oncall.asked} answered (${oncall.total} in all), ${oncall.calls} calls, ${oncall.chars} characters in all, median ${oncall.medianChars} per question`,
  );
writeFileSync(
  resultsPath,
  `${JSON.stringify({ ...results, goals: lines.map(([f, , , g]) => ({ figure: f, ...g })) }, null, 2)}\n`,
);
console.log(
  `\n${results.durationS} s${quick ? ' (quick: counts too small to trust)' : ''}; results: ${resultsPath}`,
);
