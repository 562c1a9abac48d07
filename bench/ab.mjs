// A/B of two builds, to keep a cut only where it pays: `node bench/ab.mjs A.js B.js [tool] [runs]` runs the
// two CLIs (e.g. a copy of dist/bin from before a change, and dist/bin) as stdio servers against one
// simulator child and times the tool (default get_alert_config) call by call, alternating; with tool
// `cold` it times spawn → tools/list instead. Prints the medians and B/A.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { listToolsOverStdio, median, round, serverEnv, simulatorChild } from './harness.mjs';

const [a, b, tool = 'get_alert_config', runsArg] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: node bench/ab.mjs A.js B.js [tool|cold] [runs]');
  process.exit(2);
}
const runs = Number(runsArg ?? (tool === 'cold' ? 15 : 500));
const sim = await simulatorChild(fileURLToPath(new URL('../dist/src/cli.js', import.meta.url)), 0);
const env = serverEnv(sim, mkdtempSync(join(tmpdir(), 'dbops-ab-')));

/** spawn → tools/list answered, in ms. */
async function cold(cli) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, 'serve'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  await listToolsOverStdio(child);
  const ms = performance.now() - t0;
  child.kill();
  await new Promise((r) => child.once('exit', r));
  return ms;
}

// By position, not by path: the same build passed twice (a noise check) must still get two series.
const times = [[], []];
try {
  if (tool === 'cold') {
    for (const cli of [a, b]) await cold(cli);
    for (let i = 0; i < runs; i++) for (const [k, cli] of [a, b].entries()) times[k].push(await cold(cli));
  } else {
    const connect = async (cli) => {
      const c = new Client({ name: 'ab', version: '1' });
      await c.connect(
        new StdioClientTransport({ command: process.execPath, args: [cli, 'serve'], env, stderr: 'ignore' }),
      );
      return c;
    };
    const clientA = await connect(a);
    const clientB = await connect(b);
    const list = await clientA.callTool({ name: 'list_alert_configs', arguments: {} });
    const args = tool === 'get_alert_config' ? { alertConfigId: list.structuredContent.results[0].id } : {};
    for (let i = 0; i < runs + 30; i++)
      for (const [k, client] of [clientA, clientB].entries()) {
        const t0 = performance.now();
        const r = await client.callTool({ name: tool, arguments: args });
        if (r.isError) throw new Error(`${tool}: ${r.content[0].text}`);
        if (i >= 30) times[k].push(performance.now() - t0); // the first 30 warm up
      }
    await Promise.all([clientA.close(), clientB.close()]);
  }
} finally {
  await sim.close();
}
console.log(`${tool}, ${runs} alternating runs, median ms`);
console.log(`A ${round(median(times[0]), 3)}  ${a}`);
console.log(`B ${round(median(times[1]), 3)}  ${b}`);
console.log(`B/A ${round(median(times[1]) / median(times[0]), 3)}`);
