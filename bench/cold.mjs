// Cold start: spawn → tools/list answered over stdio by the installed command (the bundle), against
// bench/floor-server.mjs (the same SDK, one tool), the subjects alternating. The headline is the start a user
// gets: `dbops-mcp serve` with nothing configured (demo mode, the embedded simulator; default settings, a home
// of its own); beside it the same command configured for a platform. Each figure is the median of the ratios
// of each round (ours / the floor started next to it), so a slow moment of the shared machine hits both.
// Part of bench/run.mjs; alone, `node bench/cold.mjs [runs]` (after `npm run build`) measures just this
// against a simulator child, with as many runs as asked (default 15).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseEnv, exited, listToolsOverStdio, median, round, serverEnv, simulatorChild } from './harness.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const cli = here('../dist/src/cli.js');
// What `dbops-mcp` runs once installed (the bundle of scripts/bundle.mjs).
const bin = here(`../${JSON.parse(readFileSync(here('../package.json'), 'utf8')).bin['dbops-mcp']}`);

const procStatusKb = (pid, field) => {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return m ? Number(m[1]) : Number.NaN;
};

/** Raw JSON-RPC lines over the child's stdio, so the measuring side adds next to nothing. */
export function coldStart(args, env) {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not answer tools/list in 20 s`));
    }, 20_000);
  });
  return Promise.race([listToolsOverStdio(child), timeout]).then(async (msg) => {
    const elapsed = performance.now() - t0;
    const hwmKb = procStatusKb(child.pid, 'VmHWM');
    clearTimeout(timer);
    child.kill();
    await exited(child);
    return {
      ms: elapsed,
      hwmKb,
      tools: msg.result.tools.length,
      listBytes: JSON.stringify(msg.result).length,
      listUtf8Bytes: Buffer.byteLength(JSON.stringify(msg.result)),
    };
  });
}

/** What a user starting `dbops-mcp serve` with nothing set has: no DBOPS_* and a home of its own. */
export function defaultEnv(home) {
  return { ...baseEnv(), HOME: home };
}

/** `runs` rounds of ours (default and configured with `env`) and the floor; medians and per-round ratios. */
export async function benchColdStart(env, runs) {
  const home = mkdtempSync(join(tmpdir(), 'dbops-cold-home-'));
  const subjects = {
    ours: () => coldStart([bin, 'serve'], defaultEnv(home)),
    configured: () => coldStart([bin, 'serve'], env),
    floor: () => coldStart([here('floor-server.mjs')], baseEnv()),
  };
  const rs = { ours: [], configured: [], floor: [] };
  try {
    for (const f of Object.values(subjects)) await f(); // warm the file cache for all
    for (let i = 0; i < runs; i++) for (const [k, f] of Object.entries(subjects)) rs[k].push(await f());
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  const m = (k, field) => median(rs[k].map((r) => r[field]));
  const ratio = (k, field) => median(rs[k].map((r, i) => r[field] / rs.floor[i][field]));
  return {
    runs,
    oursMs: round(m('ours', 'ms'), 1),
    floorMs: round(m('floor', 'ms'), 1),
    ratio: round(ratio('ours', 'ms'), 3),
    configuredMs: round(m('configured', 'ms'), 1),
    configuredRatio: round(ratio('configured', 'ms'), 3),
    peakRssMb: round(m('ours', 'hwmKb') / 1024, 1),
    floorPeakRssMb: round(m('floor', 'hwmKb') / 1024, 1),
    rssRatio: round(ratio('ours', 'hwmKb'), 3),
    configuredRssRatio: round(ratio('configured', 'hwmKb'), 3),
    tools: rs.ours[0]?.tools,
    toolsListBytes: rs.ours[0]?.listBytes,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 15);
  const work = mkdtempSync(join(tmpdir(), 'dbops-cold-'));
  const sim = await simulatorChild(cli, 0);
  try {
    console.log(JSON.stringify(await benchColdStart(serverEnv(sim, work), runs), null, 2));
  } finally {
    await sim.close();
    rmSync(work, { recursive: true, force: true });
  }
}
