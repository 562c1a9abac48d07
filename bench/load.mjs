import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApiClient } from '../dist/src/api/client.js';
import { silentLogger } from '../dist/src/log.js';
import {
  exited,
  findRedis,
  inProcessServer,
  median,
  rawSignedGet,
  round,
  serverEnv,
  simulatorChild,
  spawnWithLine,
  startRedis,
} from './harness.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const rssMb = (pid) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? Number.NaN) / 1024;

async function httpServer(bin, env) {
  const { child, line } = await spawnWithLine([bin, 'serve', '--transport', 'http', '--port', '0'], env);
  const url = line.match(/https?:\/\/\S+\/mcp/)?.[0];
  if (!url) throw new Error(`no MCP URL in "${line}"`);
  return {
    url,
    pid: child.pid,
    close: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

async function sessions(urls, n) {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const c = new Client({ name: `load-${i}`, version: '1' });
      await c.connect(new StreamableHTTPClientTransport(new URL(urls[i % urls.length])));
      return c;
    }),
  );
}

async function triage(c) {
  const r = await c.callTool({ name: 'triage_project', arguments: {} });
  if (r.isError) throw new Error(`triage_project failed: ${r.content?.[0]?.text}`);
  return r;
}

/** Platform requests while `f` runs (the simulator counts every one, digest challenges included). */
async function cost(sim, f) {
  const before = (await sim.stats()).requests;
  const t0 = performance.now();
  await f();
  const ms = performance.now() - t0;
  return { requests: (await sim.stats()).requests - before, ms };
}

/** triage_project in rounds of platform latency: with nothing kept, and with only the rarely changing kept. */
async function triageRounds(cli, work, runs) {
  const latencyMs = 20;
  const sim = await simulatorChild(cli, latencyMs);
  const subject = async (cache) => {
    let own;
    const s = await inProcessServer(sim, work, () => {
      own = createApiClient({ baseUrl: sim.baseUrl, ...sim.keys, logger: silentLogger, ...cache });
      return own;
    });
    return { s, close: async () => Promise.all([s.close(), own.close()]) };
  };
  const cold = await subject({});
  const warm = await subject({ cacheTtlMs: 1, cacheSlowTtlMs: 600_000 });
  // The floor: the reads of a warm triage as raw signed GETs, all at once.
  const probe = createApiClient({ baseUrl: sim.baseUrl, ...sim.keys, logger: silentLogger });
  const globals = (await probe.globalAlerts.listConfigs({ itemsPerPage: 500 })).results.filter(
    (c) => c.enabled !== false,
  );
  await probe.close();
  const pid = sim.projectIds[0];
  const page = 'pageNum=1&itemsPerPage=500';
  const since = () => encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString());
  const paths = () =>
    [
      `/groups/${pid}/alertConfigs?${page}`,
      `/groups/${pid}/alerts?status=OPEN&${page}`,
      `/groups/${pid}/alerts?status=TRACKING&${page}`,
      `/groups/${pid}/automationStatus/full`,
      `/groups/${pid}/events?minDate=${since()}&${page}`,
      `/groups/${pid}/maintenanceWindows?${page}`,
      ...globals.map((g) => `/globalAlertConfigs/${g.id}/alerts?${page}`),
    ].map((p) => `/api/public/v1.0${p}`);
  const raw = rawSignedGet(sim, paths().length);
  const rawAll = () => Promise.all(paths().map((p) => raw.get(p)));
  await rawAll();
  const times = { cold: [], warm: [], raw: [] };
  try {
    for (const x of [cold, warm]) await triage(x.s.client);
    for (let i = 0; i < runs; i++)
      for (const [k, f] of [
        ['cold', () => triage(cold.s.client)],
        ['warm', () => triage(warm.s.client)],
        ['raw', rawAll],
      ]) {
        await new Promise((r) => setTimeout(r, 2)); // past the 1 ms of the warm subject's short TTL
        const t0 = performance.now();
        await f();
        times[k].push(performance.now() - t0);
      }
  } finally {
    await Promise.all([cold.close(), warm.close(), raw.close()]);
    await sim.close();
  }
  const [c, w, r] = [median(times.cold), median(times.warm), median(times.raw)];
  return {
    latencyMs,
    runs,
    coldMs: round(c, 1),
    warmMs: round(w, 1),
    rawConcurrentMs: round(r, 1),
    coldRatio: round(c / r),
    warmRatio: round(w / r),
  };
}

export async function runLoad({ quick = false } = {}) {
  const N = quick ? { sessions: 10, memory: 40 } : { sessions: 50, memory: 200 };
  const cli = here('../dist/src/cli.js');
  const bin = here(`../${JSON.parse(readFileSync(here('../package.json'), 'utf8')).bin['dbops-mcp']}`);
  const work = mkdtempSync(join(tmpdir(), 'dbops-load-'));
  const sim = await simulatorChild(cli, 5);
  const open = [];
  const closeAll = async () => {
    for (const c of open.reverse()) await c().catch(() => {});
    open.length = 0;
  };
  // The server's own defaults (the harness turns the cache off for timings).
  const { DBOPS_CACHE_TTL_MS: _off, ...defaults } = serverEnv(sim, work);
  const env = (extra = {}) => ({
    ...defaults,
    DBOPS_HTTP_MAX_SESSIONS: String(N.memory + 50),
    ...extra,
  });
  const out = { sessions: N.sessions, latencyMs: 5 };
  try {
    // One triage, warm (digest challenge met), nothing kept.
    {
      const s = await httpServer(bin, env({ DBOPS_CACHE_TTL_MS: '0' }));
      open.push(s.close);
      const [c] = await sessions([s.url], 1);
      open.push(() => c.close());
      await triage(c);
      out.oneTriage = await cost(sim, () => triage(c));
      await closeAll();
    }
    // One process, default cache.
    {
      const s = await httpServer(bin, env());
      open.push(s.close);
      const cs = await sessions([s.url], N.sessions);
      open.push(...cs.map((c) => () => c.close()));
      await cs[0].callTool({ name: 'list_projects', arguments: {} }); // the digest challenge, once
      const r = await cost(sim, () => Promise.all(cs.map(triage)));
      out.oneProcess = { ...r, ratio: round(r.requests / out.oneTriage.requests) };
      await closeAll();
    }
    // Three replicas sharing Redis.
    const redisBin = findRedis();
    if (!redisBin) out.threeReplicas = { skipped: 'redis-server is not installed' };
    else {
      const redis = await startRedis(redisBin, work);
      open.push(redis.close);
      const shared = {
        DBOPS_STATE_URL: redis.url,
        DBOPS_TOKEN_SECRET: 'bench-replicas-share-this-secret-0123',
      };
      const replicas = [];
      for (let i = 0; i < 3; i++) {
        const s = await httpServer(bin, env({ ...shared, DBOPS_STATE_DIR: join(work, `state${i}`) }));
        open.push(s.close);
        replicas.push(s);
      }
      const cs = await sessions(
        replicas.map((r) => r.url),
        Math.max(N.sessions, 3),
      );
      open.push(...cs.map((c) => () => c.close()));
      for (let i = 0; i < 3; i++) await cs[i].callTool({ name: 'list_projects', arguments: {} });
      const r = await cost(sim, () => Promise.all(cs.map(triage)));
      out.threeReplicas = { ...r, ratio: round(r.requests / out.oneTriage.requests) };
      await closeAll();
    }
    out.rounds = await triageRounds(cli, work, quick ? 5 : 20);
    // Memory of 200 HTTP sessions on one server.
    {
      const s = await httpServer(bin, env());
      open.push(s.close);
      const [first] = await sessions([s.url], 1);
      open.push(() => first.close());
      await first.callTool({ name: 'list_projects', arguments: {} });
      const oneMb = rssMb(s.pid);
      const cs = await sessions([s.url], N.memory - 1);
      open.push(...cs.map((c) => () => c.close()));
      for (let i = 0; i < cs.length; i += 20)
        await Promise.all(
          cs.slice(i, i + 20).map((c) => c.callTool({ name: 'list_alert_configs', arguments: {} })),
        );
      out.memory = { sessions: N.memory, rssAfterOneMb: round(oneMb, 1), rssMb: round(rssMb(s.pid), 1) };
      await closeAll();
    }
  } finally {
    await closeAll();
    await sim.close();
    rmSync(work, { recursive: true, force: true });
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await runLoad({ quick: process.argv.includes('--quick') });
  console.log(JSON.stringify(r, null, 2));
}
