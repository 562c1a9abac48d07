// CPU profiles behind docs/performance.md: `node bench/profile.mjs startup|call|triage|http [runs]` (after a
// build; `npm run profile -- startup`).
//   startup  spawns the installed command (`serve`; PROFILE_TARGET=dist/src/cli.js for the unbundled build) under --cpu-prof against an in-process simulator, answers
//            initialize + tools/list, stops it; prints self time by file and by function.
//   call     the same for get_alert_config (one API call): the tool-call overhead
//   http     `serve --transport http` while 10 Streamable HTTP clients send ping for `runs` seconds
//   summary  only summarizes the .cpuprofile files already in bench/.profiles/
//   triage   re-runs itself under --cpu-prof and calls triage_project over an in-memory MCP link with no
//            added latency, `runs` times after a warm-up; same summary.
//   installation  the same for the warm whole-installation answers (PROFILE_TOOL, default list_open_alerts
//            with projectId "all"; triage_installation) against `simulator --projects N` (PROFILE_PROJECTS,
//            default 500), with a read cache that keeps every answer: only our decode, join and draw.
// The raw .cpuprofile files stay in bench/.profiles/ (git-ignored) for Chrome DevTools.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listToolsOverStdio } from './harness.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const outDir = here('.profiles');
const [mode = 'startup', runsArg] = process.argv.slice(2);
// The server profiled: the installed command (the bundle) unless PROFILE_TARGET names another file.
const target =
  process.env.PROFILE_TARGET ??
  here(`../${JSON.parse(readFileSync(here('../package.json'), 'utf8')).bin['dbops-mcp']}`);
const runs = Number(runsArg ?? (mode === 'startup' ? 5 : mode === 'installation' ? 5 : 300));
const installation = mode === 'installation';
const projects = Number(process.env.PROFILE_PROJECTS ?? 500);
const tool = process.env.PROFILE_TOOL ?? 'list_open_alerts';

/** Self time per file and per function of every .cpuprofile in dir, biggest first. */
function summarize(dir, top = 25) {
  const byFile = new Map();
  const byFn = new Map();
  const inclusive = new Map();
  let total = 0;
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.cpuprofile'))) {
    const p = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    const self = new Map();
    const dts = p.timeDeltas;
    for (let i = 0; i < p.samples.length; i++)
      self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (dts[i] ?? 0));
    for (const n of p.nodes) {
      const us = self.get(n.id) ?? 0;
      total += us;
      const url = n.callFrame.url
        .replace(/^file:\/\//, '')
        .replace(/.*node_modules\//, 'nm/')
        .replace(/.*\/dist\//, 'dist/');
      const file = url || `(${n.callFrame.functionName || 'native'})`;
      byFile.set(file, (byFile.get(file) ?? 0) + us);
      const fn = `${n.callFrame.functionName || '(anonymous)'} ${file}:${n.callFrame.lineNumber + 1}`;
      byFn.set(fn, (byFn.get(fn) ?? 0) + us);
    }
    // Inclusive time per function of ours or of the SDK/zod (counted once under recursion).
    const nodes = new Map(p.nodes.map((n) => [n.id, n]));
    const keyOf = (n) => {
      const u = n.callFrame.url;
      if (!/\/dist\/|node_modules/.test(u)) return undefined;
      const file = u.replace(/.*node_modules\//, 'nm/').replace(/.*\/dist\//, 'dist/');
      return `${n.callFrame.functionName || '(top level)'} ${file}:${n.callFrame.lineNumber + 1}`;
    };
    const walk = (id, active) => {
      const n = nodes.get(id);
      let sum = self.get(id) ?? 0;
      const k = keyOf(n);
      const fresh = k && !active.has(k);
      if (fresh) active.add(k);
      for (const c of n.children ?? []) sum += walk(c, active);
      if (fresh) {
        active.delete(k);
        inclusive.set(k, (inclusive.get(k) ?? 0) + sum);
      }
      return sum;
    };
    walk(p.nodes[0].id, new Set());
  }
  const show = (title, m) => {
    console.log(`\n${title} (self ms, % of ${(total / 1000).toFixed(0)} ms sampled)`);
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(
        `${(us / 1000).toFixed(1).padStart(8)}  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`,
      );
  };
  // Packages: everything under one node_modules package counted together.
  const byPkg = new Map();
  for (const [k, us] of byFile) {
    const pkg = k.startsWith('nm/')
      ? k
          .split('/')
          .slice(1, k.startsWith('nm/@') ? 3 : 2)
          .join('/')
      : k.startsWith('dist/')
        ? k.split('/').slice(0, 3).join('/')
        : k.startsWith('node:')
          ? 'node:internal'
          : k;
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
  }
  show('by package / folder', byPkg);
  show('by file', byFile);
  show('by function (self)', byFn);
  show('by function (inclusive; ours, SDK, zod)', inclusive);
}

async function profileStartup() {
  const { startSimulator } = await import('../dist/src/simulator/index.js');
  const sim = await startSimulator({ host: '127.0.0.1', port: 0, dataset: 'demo' });
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DBOPS_'))),
    DBOPS_BASE_URL: sim.origin,
    DBOPS_PUBLIC_KEY: sim.keys.publicKey,
    DBOPS_PRIVATE_KEY: sim.keys.privateKey,
    DBOPS_PROJECT_ID: sim.projectIds[0],
    DBOPS_AUDIT_LOG: join(outDir, 'audit.log'),
    DBOPS_SECRETS_DIR: join(outDir, 'secrets'),
    DBOPS_LOG_LEVEL: 'error',
  };
  try {
    for (let i = 0; i < runs; i++) {
      const args = ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', outDir, target];
      const child = spawn(process.execPath, [...args, 'serve'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
      await listToolsOverStdio(child);
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  } finally {
    await sim.close();
  }
}

async function profileTriage() {
  if (!process.execArgv.includes('--cpu-prof')) {
    const child = spawn(
      process.execPath,
      [
        '--cpu-prof',
        '--cpu-prof-interval',
        '100',
        '--cpu-prof-dir',
        outDir,
        fileURLToPath(import.meta.url),
        mode,
        String(runs),
      ],
      { stdio: 'inherit' },
    );
    await new Promise((r) => child.once('exit', r));
    return;
  }
  // The simulator runs in a child process: only the server's own work is sampled.
  const { inProcessServer, simulatorChild } = await import('./harness.mjs');
  const sim = await simulatorChild(here('../dist/src/cli.js'), 0);
  const s = await inProcessServer(sim, outDir);
  let name = 'triage_project';
  let args = {};
  if (mode === 'call') {
    const list = await s.client.callTool({ name: 'list_alert_configs', arguments: {} });
    name = 'get_alert_config';
    args = { alertConfigId: list.structuredContent.results[0].id };
  }
  for (let i = 0; i < 20; i++) await s.client.callTool({ name, arguments: args });
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) await s.client.callTool({ name, arguments: args });
  console.log(`${name}: ${((performance.now() - t0) / runs).toFixed(2)} ms mean over ${runs} (profiled)`);
  await s.close();
  await sim.close();
}

/**
 * The warm whole-installation answer: one cold call fills the read cache (kept an hour), then only the warm
 * calls are sampled (through the inspector, so the cold read's requests stay out of the profile).
 */
async function profileInstallation() {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const { inProcessServer, simulatorChild } = await import('./harness.mjs');
  const sim = await simulatorChild(here('../dist/src/cli.js'), 0, projects);
  const s = await inProcessServer(sim, outDir, undefined, {
    api: { cacheTtlMs: 3_600_000 },
    config: { installationReadMs: 600_000 },
  });
  const args = tool === 'triage_installation' ? {} : { projectId: 'all' };
  const call = async () => {
    const r = await s.client.callTool({ name: tool, arguments: args }, undefined, { timeout: 600_000 });
    if (r.isError) throw new Error(r.content[0].text);
  };
  let t0 = performance.now();
  await call();
  console.log(`${tool} at ${projects} projects: cold ${(performance.now() - t0).toFixed(0)} ms`);
  await call(); // the first warm call compiles what the cold one did not reach
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  t0 = performance.now();
  for (let i = 0; i < runs; i++) await call();
  const ms = (performance.now() - t0) / runs;
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(join(outDir, `installation-${tool}.cpuprofile`), JSON.stringify(profile));
  session.disconnect();
  console.log(`${tool} warm: ${ms.toFixed(1)} ms mean over ${runs} (profiled)`);
  await s.close();
  await sim.close();
}

/** `serve --transport http` under --cpu-prof while 10 clients send ping for `runs` seconds (default 5). */
async function profileHttp() {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import(
    '@modelcontextprotocol/sdk/client/streamableHttp.js'
  );
  const { serverEnv, simulatorChild, spawnWithLine, exited } = await import('./harness.mjs');
  const sim = await simulatorChild(here('../dist/src/cli.js'), 0);
  const args = ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', outDir, target];
  if (!target.includes('floor')) args.push('serve', '--transport', 'http', '--port', '0');
  const { child, line } = await spawnWithLine(args, serverEnv(sim, outDir));
  const url = new URL(line.match(/http:\/\/\S+\/mcp/)[0]);
  const clients = await Promise.all(
    Array.from({ length: 10 }, async () => {
      const c = new Client({ name: 'p', version: '1' });
      await c.connect(new StreamableHTTPClientTransport(url));
      return c;
    }),
  );
  const end = performance.now() + 1000 * (runsArg ? Number(runsArg) : 5);
  let n = 0;
  await Promise.all(
    clients.map(async (c) => {
      while (performance.now() < end) {
        await c.ping();
        n++;
      }
    }),
  );
  console.log(`${n} pings`);
  await Promise.all(clients.map((c) => c.close()));
  child.kill('SIGTERM');
  await exited(child);
  await sim.close();
}

const child = process.execArgv.includes('--cpu-prof');
if (mode === 'summary') {
  summarize(outDir); // the .cpuprofile files already there (e.g. from a server run with --cpu-prof-dir)
  process.exit(0);
}
if (!child) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
}
if (mode === 'startup') await profileStartup();
else if (mode === 'http') await profileHttp();
else if (installation) await profileInstallation();
else await profileTriage();
if (!child) summarize(outDir);
