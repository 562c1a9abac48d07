// The benchmark suite: every figure is a ratio against a baseline measured in the same run (medians; the
// machine is shared and noisy). Prints one table and writes bench/results.json. Run `npm run bench` (it
// builds first). BENCH_QUICK=1 shrinks the counts for a smoke run.
//
//   cold start    spawn → tools/list answered over stdio, ours vs bench/floor-server.mjs (same SDK, one tool);
//                 peak RSS (VmHWM) right after tools/list; tools/list size
//   tool call     get_alert_config through MCP over stdio vs the one signed GET it needs, sent directly
//   digest        bench/client.mjs: preemptive signing vs a challenge per request
//   fan-out       bench/triage.mjs: triage_project's concurrent fetches vs the same calls one by one
//   tokens        concise text answer vs JSON.stringify of the API data behind it, per list tool
//   memory        RSS of a stdio server after 2,000 tool calls vs after 100

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createApiClient } from '../dist/src/api/client.js';
import { configSchema } from '../dist/src/config.js';
import { silentLogger } from '../dist/src/log.js';
import { createMcpServer } from '../dist/src/mcp/server.js';
import { createAuditLog } from '../dist/src/policy/audit.js';
import { createSecretKeeper } from '../dist/src/policy/secrets.js';
import { createTokenSigner } from '../dist/src/policy/tokens.js';
import { startSimulator } from '../dist/src/simulator/index.js';

const quick = process.env.BENCH_QUICK === '1';
const COLD_RUNS = quick ? 3 : 15;
const CALLS = quick ? 50 : 300;
const MEMORY_CALLS = quick ? 400 : 2000;
const bench = (p) => fileURLToPath(new URL(p, import.meta.url));
const cli = bench('../dist/src/cli.js');
const resultsPath = bench('results.json');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x, d = 2) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : x);
const procStatusKb = (pid, field) => {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return m ? Number(m[1]) : Number.NaN;
};
const exited = (child) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => child.once('exit', r));

const started = Date.now();
const work = mkdtempSync(join(tmpdir(), 'dbops-bench-'));
const sim = await startSimulator({ host: '127.0.0.1', port: 0, dataset: 'demo' });
const projectId = sim.projectIds[0];

// The server's environment: the in-process simulator as the platform, nothing inherited from the shell.
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DBOPS_')));
const serverEnv = {
  ...baseEnv,
  DBOPS_BASE_URL: sim.origin,
  DBOPS_PUBLIC_KEY: sim.keys.publicKey,
  DBOPS_PRIVATE_KEY: sim.keys.privateKey,
  DBOPS_PROJECT_ID: projectId,
  DBOPS_ORG_ID: sim.orgId,
  DBOPS_AUDIT_LOG: join(work, 'audit.log'),
  DBOPS_SECRETS_DIR: join(work, 'secrets'),
  DBOPS_LOG_LEVEL: 'error',
};

// ---------------------------------------------------------------------------------------------------------
// Cold start: raw JSON-RPC lines over the child's stdio, so the measuring side adds next to nothing.

function coldStart(args, env) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    const send = (msg) => child.stdin.write(`${JSON.stringify(msg)}\n`);
    let buf = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not answer tools/list in 20 s`));
    }, 20_000);
    child.on('error', reject);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      buf += d;
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const msg = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (msg.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (msg.id === 2) {
          const ms = performance.now() - t0;
          const hwmKb = procStatusKb(child.pid, 'VmHWM');
          clearTimeout(timer);
          child.kill();
          exited(child).then(() =>
            resolve({
              ms,
              hwmKb,
              tools: msg.result.tools.length,
              listBytes: Buffer.byteLength(JSON.stringify(msg.result)),
            }),
          );
        }
      }
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    });
  });
}

async function benchColdStart() {
  const ours = [];
  const floor = [];
  await coldStart([cli, 'serve'], serverEnv); // warm the file cache for both
  await coldStart([bench('floor-server.mjs')], baseEnv);
  for (let i = 0; i < COLD_RUNS; i++) {
    ours.push(await coldStart([cli, 'serve'], serverEnv));
    floor.push(await coldStart([bench('floor-server.mjs')], baseEnv));
  }
  const m = (runs, k) => median(runs.map((r) => r[k]));
  return {
    runs: COLD_RUNS,
    ours: { medianMs: round(m(ours, 'ms'), 1), peakRssMb: round(m(ours, 'hwmKb') / 1024, 1) },
    floor: { medianMs: round(m(floor, 'ms'), 1), peakRssMb: round(m(floor, 'hwmKb') / 1024, 1) },
    ratio: round(m(ours, 'ms') / m(floor, 'ms')),
    peakRssRatio: round(m(ours, 'hwmKb') / m(floor, 'hwmKb')),
    tools: ours[0].tools,
    toolsListBytes: ours[0].listBytes,
    floorToolsListBytes: floor[0].listBytes,
  };
}

// ---------------------------------------------------------------------------------------------------------
// A stdio child served by the built CLI, driven by the SDK client.

async function stdioServer() {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'serve'],
    env: serverEnv,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return { client, pid: transport.pid, close: () => client.close() };
}

async function callOk(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name} failed: ${r.content?.[0]?.text}`);
  return r;
}

async function benchToolCall(alertConfigId) {
  const args = { alertConfigId };
  const api = createApiClient({ baseUrl: sim.baseUrl, ...sim.keys });
  const direct = [];
  await api.alertConfigs.get(projectId, alertConfigId); // warm: pool connected, challenge cached
  let before = sim.stats.requests;
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await api.alertConfigs.get(projectId, alertConfigId);
    direct.push(performance.now() - t0);
  }
  const directRequests = (sim.stats.requests - before) / CALLS;
  await api.close();

  const server = await stdioServer();
  const viaMcp = [];
  try {
    for (let i = 0; i < 20; i++) await callOk(server.client, 'get_alert_config', args); // warm
    before = sim.stats.requests;
    for (let i = 0; i < CALLS; i++) {
      const t0 = performance.now();
      await callOk(server.client, 'get_alert_config', args);
      viaMcp.push(performance.now() - t0);
    }
  } finally {
    await server.close();
  }
  const mcpRequests = (sim.stats.requests - before) / CALLS;
  return {
    calls: CALLS,
    mcp: { medianMs: round(median(viaMcp), 3), httpRequestsPerCall: round(mcpRequests, 3) },
    direct: { medianMs: round(median(direct), 3), httpRequestsPerCall: round(directRequests, 3) },
    overheadMs: round(median(viaMcp) - median(direct), 3),
    ratio: round(median(viaMcp) / median(direct)),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The sibling benchmarks: imported when they export a function, else run as scripts for their JSON file.

async function sibling(file, resultFile, env = {}) {
  const path = bench(file);
  if (!existsSync(path)) return { skipped: `${file} is not there yet` };
  const source = readFileSync(path, 'utf8');
  const exported = source.match(/export\s+(?:async\s+)?function\s+(\w+)/)?.[1];
  if (exported) {
    const mod = await import(path);
    return mod[exported]();
  }
  // Their result file is their record: read this run's figures, then put the recorded file back.
  const out = bench(resultFile);
  const recorded = existsSync(out) ? readFileSync(out) : undefined;
  rmSync(out, { force: true });
  const child = spawn(process.execPath, [path], {
    env: { ...baseEnv, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    err += d;
  });
  await exited(child);
  try {
    if (child.exitCode !== 0 || !existsSync(out))
      return {
        failed: `${file} exited with ${child.exitCode}: ${err.trim().split('\n').slice(-3).join(' / ')}`,
      };
    return JSON.parse(readFileSync(out, 'utf8'));
  } finally {
    if (recorded) writeFileSync(out, recorded);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Tokens: an in-process server whose API client records every answer it hands to the tools.

function recording(api, answers) {
  return new Proxy(api, {
    get(target, key) {
      const area = target[key];
      if (!area || typeof area !== 'object' || key === 'stats') return area;
      return new Proxy(area, {
        get(a, m) {
          const f = a[m];
          if (typeof f !== 'function') return f;
          return async (...args) => {
            const r = await f.apply(a, args);
            answers.push(r);
            return r;
          };
        },
      });
    },
  });
}

async function inProcessServer(api) {
  const config = configSchema.parse({
    baseUrl: sim.baseUrl,
    ...sim.keys,
    projectId,
    orgId: sim.orgId,
    auditLog: join(work, 'audit-inproc.log'),
    secretsDir: join(work, 'secrets'),
  });
  const server = createMcpServer({
    config,
    api,
    logger: silentLogger,
    tokens: createTokenSigner(),
    audit: createAuditLog(config.auditLog, silentLogger),
    secrets: createSecretKeeper(config.secretsDir, false),
  });
  const client = new Client({ name: 'bench', version: '1' });
  const [c, s] = InMemoryTransport.createLinkedPair();
  await server.connect(s);
  await client.connect(c);
  return { client, close: () => Promise.all([client.close(), server.close()]) };
}

/** Arguments for a list tool's required parameters, taken from the demo data (first id of the parent list). */
async function argsFor(tool, client) {
  const required = tool.inputSchema.required ?? [];
  const args = {};
  const firstId = async (listTool) => {
    const r = await client.callTool({ name: listTool, arguments: {} });
    return r.structuredContent?.results?.[0]?.id;
  };
  for (const name of required) {
    const p = tool.inputSchema.properties[name];
    if (p.enum) args[name] = p.enum[0];
    else if (name === 'alertConfigId') args[name] = await firstId('list_alert_configs');
    else if (name === 'globalAlertConfigId') args[name] = await firstId('list_global_alert_configs');
    else return undefined;
  }
  return args;
}

async function benchTokens() {
  const answers = [];
  const api = createApiClient({ baseUrl: sim.baseUrl, ...sim.keys });
  const server = await inProcessServer(recording(api, answers));
  const rows = [];
  try {
    const { tools } = await server.client.listTools();
    for (const tool of tools.filter((t) => t.name.startsWith('list_'))) {
      const args = await argsFor(tool, server.client);
      if (!args) {
        rows.push({ tool: tool.name, skipped: 'needs an argument the demo data does not supply' });
        continue;
      }
      answers.length = 0;
      const r = await server.client.callTool({ name: tool.name, arguments: args });
      const text = r.content.map((c) => c.text ?? '').join('\n');
      if (r.isError) {
        rows.push({ tool: tool.name, skipped: `error: ${text.slice(0, 120)}` });
        continue;
      }
      const raw = answers.length === 1 ? JSON.stringify(answers[0]) : JSON.stringify(answers);
      rows.push({
        tool: tool.name,
        textChars: text.length,
        rawJsonChars: raw.length,
        ratio: round(text.length / raw.length),
      });
    }
  } finally {
    await server.close();
    await api.close();
  }
  const measured = rows.filter((r) => r.ratio !== undefined);
  return {
    tools: rows,
    medianRatio: round(median(measured.map((r) => r.ratio))),
    totalTextChars: measured.reduce((n, r) => n + r.textChars, 0),
    totalRawJsonChars: measured.reduce((n, r) => n + r.rawJsonChars, 0),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Memory: RSS of a stdio server child after 100 and after 2,000 mixed read calls.

async function benchMemory(alertConfigId) {
  const mix = [
    ['get_alert_config', { alertConfigId }],
    ['list_alert_configs', {}],
    ['list_project_events', {}],
    ['list_open_alerts_for_config', { alertConfigId }],
    ['list_maintenance_windows', {}],
    ['get_automation_status', {}],
  ];
  const server = await stdioServer();
  try {
    const { tools } = await server.client.listTools();
    const names = new Set(tools.map((t) => t.name));
    const calls = mix.filter(([n]) => names.has(n));
    for (const [n, a] of calls) await callOk(server.client, n, a); // every call in the mix works
    const rssAt = {};
    for (let i = 1; i <= MEMORY_CALLS; i++) {
      const [n, a] = calls[i % calls.length];
      await callOk(server.client, n, a);
      if (i === 100 || i === MEMORY_CALLS / 2 || i === MEMORY_CALLS)
        rssAt[i] = procStatusKb(server.pid, 'VmRSS');
    }
    return {
      calls: MEMORY_CALLS,
      mix: calls.map(([n]) => n),
      rssAfter100Mb: round(rssAt[100] / 1024, 1),
      rssAfterHalfMb: round(rssAt[MEMORY_CALLS / 2] / 1024, 1),
      rssAfterAllMb: round(rssAt[MEMORY_CALLS] / 1024, 1),
      ratio: round(rssAt[MEMORY_CALLS] / rssAt[100]),
    };
  } finally {
    await server.close();
  }
}

// ---------------------------------------------------------------------------------------------------------

let results;
try {
  const probe = createApiClient({ baseUrl: sim.baseUrl, ...sim.keys });
  const alertConfigId = (await probe.alertConfigs.list(projectId, { itemsPerPage: 1 })).results[0]?.id;
  await probe.close();
  if (!alertConfigId) throw new Error('the demo project has no alert configurations');

  const coldStartResult = await benchColdStart();
  const toolCall = await benchToolCall(alertConfigId);
  const tokens = await benchTokens();
  const memory = await benchMemory(alertConfigId);
  const digest = await sibling('client.mjs', 'results-client.json', quick ? { BENCH_N: '50' } : {});
  const fanOut = await sibling('triage.mjs', 'results-triage.json', quick ? { BENCH_RUNS: '5' } : {});
  results = {
    node: process.version,
    date: new Date().toISOString(),
    quick,
    coldStart: { ...coldStartResult, target: 'ratio <= 1.5, tools/list < 40 KB' },
    toolCall,
    digest,
    fanOut,
    tokens,
    memory,
    durationS: round((Date.now() - started) / 1000, 1),
  };
} finally {
  await sim.close();
  rmSync(work, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------------------
// The table.

const kb = (b) => `${round(b / 1024, 1)} KB`;
const ratioOf = (r) => (r?.ratio !== undefined ? String(r.ratio) : (r?.skipped ?? r?.failed ?? '—'));
const { coldStart: cs, toolCall: tc, tokens: tk, memory: mem, digest: dg, fanOut: fo } = results;
const sideBySide = (o) =>
  o && (o.ours ?? o.concurrent) && (o.baseline ?? o.sequential)
    ? [o.ours ?? o.concurrent, o.baseline ?? o.sequential].map((x) => `${x.medianMs ?? x.ms ?? '?'} ms`)
    : ['—', '—'];
const rows = [
  ['benchmark', 'ours', 'baseline', 'ratio', 'target'],
  [
    'cold start → tools/list (stdio)',
    `${cs.ours.medianMs} ms`,
    `${cs.floor.medianMs} ms (floor)`,
    cs.ratio,
    '≤ 1.5',
  ],
  [
    'peak RSS at tools/list',
    `${cs.ours.peakRssMb} MB`,
    `${cs.floor.peakRssMb} MB (floor)`,
    cs.peakRssRatio,
    '',
  ],
  ['tools/list size', kb(cs.toolsListBytes), `${cs.tools} tools`, '', '< 40 KB'],
  [
    'get_alert_config via MCP vs direct GET',
    `${tc.mcp.medianMs} ms`,
    `${tc.direct.medianMs} ms`,
    tc.ratio,
    '',
  ],
  [
    'HTTP requests per call (MCP / direct)',
    tc.mcp.httpRequestsPerCall,
    tc.direct.httpRequestsPerCall,
    '',
    '1',
  ],
  ['digest: preemptive vs re-challenge', ...sideBySide(dg), ratioOf(dg), '≤ 0.6'],
  ['triage_project vs the same calls in sequence', ...sideBySide(fo), ratioOf(fo), ''],
  [
    'triage_project vs its slowest single call',
    fo?.concurrent ? `${fo.concurrent.medianMs} ms` : '—',
    fo?.slowestSingle ? `${fo.slowestSingle.medianMs} ms (${fo.slowestSingle.call})` : '—',
    fo?.ratioToSlowestSingle ?? '—',
    '< 3',
  ],
  [
    'list answers: text vs raw JSON chars',
    tk.totalTextChars,
    tk.totalRawJsonChars,
    `${tk.medianRatio} (median)`,
    '',
  ],
  [
    `RSS after ${mem.calls} vs 100 calls`,
    `${mem.rssAfterAllMb} MB`,
    `${mem.rssAfter100Mb} MB`,
    mem.ratio,
    '',
  ],
  [
    `RSS after ${mem.calls} vs ${mem.calls / 2} calls`,
    `${mem.rssAfterAllMb} MB`,
    `${mem.rssAfterHalfMb} MB`,
    round(mem.rssAfterAllMb / mem.rssAfterHalfMb),
    '≈ 1 (no leak)',
  ],
].map((r) => r.map(String));
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
console.log('\nper list tool (text chars / raw JSON chars):');
for (const t of tk.tools)
  console.log(
    `  ${t.tool.padEnd(36)} ${t.ratio !== undefined ? `${t.textChars} / ${t.rawJsonChars} = ${t.ratio}` : t.skipped}`,
  );
writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\n${results.durationS} s; results: ${resultsPath}`);
