// Heap after a full collection over many calls: our server in this process on an in-memory MCP link, calling
// get_alert_config (one API call each) against a simulator child. Flat means the heap after the last call is
// within a few per cent of the heap after the warm-up; a leak of one small object per call would show as
// hundreds of kilobytes over 10,000 calls. `node --expose-gc bench/heap.mjs [--quick]`, or via bench/run.mjs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { inProcessServer, round, simulatorChild } from './harness.mjs';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

export async function runHeap({ quick = false } = {}) {
  const calls = quick ? 1_000 : 10_000;
  const warm = quick ? 200 : 1_000;
  const work = mkdtempSync(join(tmpdir(), 'dbops-heap-'));
  const sim = await simulatorChild(fileURLToPath(new URL('../dist/src/cli.js', import.meta.url)), 0);
  const s = await inProcessServer(sim, work);
  try {
    const list = await s.client.callTool({ name: 'list_alert_configs', arguments: {} });
    const alertConfigId = list.structuredContent.results[0].id;
    const call = async () => {
      const r = await s.client.callTool({ name: 'get_alert_config', arguments: { alertConfigId } });
      if (r.isError) throw new Error(r.content[0].text);
    };
    for (let i = 0; i < warm; i++) await call();
    const afterWarm = heapMb();
    const samples = [];
    for (let i = 1; i <= calls; i++) {
      await call();
      if (i % (calls / 5) === 0) samples.push(round(heapMb(), 2));
    }
    const last = samples.at(-1);
    return {
      calls,
      heapAfterWarmupMb: round(afterWarm, 2),
      heapSamplesMb: samples,
      growthKb: round((last - afterWarm) * 1024, 0),
      ratio: round(last / afterWarm, 3),
    };
  } finally {
    await s.close();
    await sim.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  console.log(JSON.stringify(await runHeap({ quick: process.argv.includes('--quick') }), null, 2));
