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
import { median, round, serverEnv, simulatorChild } from './harness.mjs';

const [a, b, tool = 'get_alert_config', runsArg] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: node bench/ab.mjs A.js B.js [tool|cold] [runs]');
  process.exit(2);
}
const runs = Number(runsArg ?? (tool === 'cold' ? 15 : 500));
const sim = await simulatorChild(fileURLToPath(new URL('../dist/src/cli.js', import.meta.url)), 0);
const env = serverEnv(sim, mkdtempSync(join(tmpdir(), 'dbops-ab-')));

/** spawn → tools/list answered, in ms. */
function cold(cli) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, 'serve'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
    let buf = '';
    child.on('error', reject);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      buf += d;
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const msg = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (msg.id === 1) send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        else if (msg.id === 2) {
          const ms = performance.now() - t0;
          child.kill();
          child.once('exit', () => resolve(ms));
        }
      }
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ab', version: '1' } },
    });
  });
}

const times = { [a]: [], [b]: [] };
try {
  if (tool === 'cold') {
    for (const cli of [a, b]) await cold(cli);
    for (let i = 0; i < runs; i++) for (const cli of [a, b]) times[cli].push(await cold(cli));
  } else {
    const clients = {};
    for (const cli of [a, b]) {
      clients[cli] = new Client({ name: 'ab', version: '1' });
      await clients[cli].connect(
        new StdioClientTransport({ command: process.execPath, args: [cli, 'serve'], env, stderr: 'ignore' }),
      );
    }
    const list = await clients[a].callTool({ name: 'list_alert_configs', arguments: {} });
    const args = tool === 'get_alert_config' ? { alertConfigId: list.structuredContent.results[0].id } : {};
    for (let i = 0; i < runs + 30; i++)
      for (const cli of [a, b]) {
        const t0 = performance.now();
        const r = await clients[cli].callTool({ name: tool, arguments: args });
        if (r.isError) throw new Error(`${tool}: ${r.content[0].text}`);
        if (i >= 30) times[cli].push(performance.now() - t0); // the first 30 warm up
      }
    await Promise.all(Object.values(clients).map((c) => c.close()));
  }
} finally {
  await sim.close();
}
console.log(`${tool}, ${runs} alternating runs, median ms`);
console.log(`A ${round(median(times[a]), 3)}  ${a}`);
console.log(`B ${round(median(times[b]), 3)}  ${b}`);
console.log(`B/A ${round(median(times[b]) / median(times[a]), 3)}`);
