// Cold start: spawn → tools/list answered over stdio, our bundled bin (and dist/src/cli.js unbundled) against
// bench/floor-server.mjs (the same SDK, one tool), the subjects alternating; medians of time and peak RSS.
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
// What `dbops-mcp` runs once installed (the bundle of scripts/bundle.mjs); dist/src/cli.js is the same code unbundled.
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

/** `runs` rounds of ours, unbundled and the floor, one after the other; medians and their ratios. */
export async function benchColdStart(env, runs) {
  const ours = [];
  const unbundled = [];
  const floor = [];
  await coldStart([bin, 'serve'], env); // warm the file cache for all
  await coldStart([cli, 'serve'], env);
  await coldStart([here('floor-server.mjs')], baseEnv());
  for (let i = 0; i < runs; i++) {
    ours.push(await coldStart([bin, 'serve'], env));
    unbundled.push(await coldStart([cli, 'serve'], env));
    floor.push(await coldStart([here('floor-server.mjs')], baseEnv()));
  }
  const m = (rs, k) => median(rs.map((r) => r[k]));
  return {
    runs,
    oursMs: round(m(ours, 'ms'), 1),
    floorMs: round(m(floor, 'ms'), 1),
    ratio: round(m(ours, 'ms') / m(floor, 'ms')),
    unbundledMs: round(m(unbundled, 'ms'), 1),
    unbundledRatio: round(m(unbundled, 'ms') / m(floor, 'ms')),
    peakRssMb: round(m(ours, 'hwmKb') / 1024, 1),
    floorPeakRssMb: round(m(floor, 'hwmKb') / 1024, 1),
    rssRatio: round(m(ours, 'hwmKb') / m(floor, 'hwmKb')),
    tools: ours[0].tools,
    toolsListBytes: ours[0].listBytes,
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
