// Rooms per call: which of our files a one-GET `get_alert_config` over stdio runs code in. The unbundled
// server (dist/src/cli.js, one file per source file) runs under V8's precise coverage (bench/rooms-hook.mjs);
// after a warm-up call the counters are reset, one more call is made, and every file with a function that ran
// in it is listed. `node bench/rooms.mjs [--list]` after `npm run build`; prints the count (and the files).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createApiClient } from '../dist/src/api/client.js';
import { serverEnv, simulatorChild } from './harness.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const dist = here('../dist/');

/** Asks the server's hook to write the files run since the last ask to `file`; waits for it. */
async function mark(pid, file) {
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 200 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 25));
  return JSON.parse(readFileSync(file, 'utf8'));
}

export async function roomsPerCall() {
  const work = mkdtempSync(join(tmpdir(), 'dbops-rooms-'));
  const sim = await simulatorChild(here('../dist/src/cli.js'), 0);
  const probe = createApiClient({ baseUrl: sim.baseUrl, ...sim.keys });
  const alertConfigId = (await probe.alertConfigs.list(sim.projectIds[0], { itemsPerPage: 1 })).results[0].id;
  await probe.close();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', here('rooms-hook.mjs'), here('../dist/src/cli.js'), 'serve'],
    env: { ...serverEnv(sim, work), ROOMS_DIR: work },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'rooms', version: '1' });
  try {
    await client.connect(transport);
    const call = () => client.callTool({ name: 'get_alert_config', arguments: { alertConfigId } });
    if ((await call()).isError) throw new Error('get_alert_config failed');
    await new Promise((r) => setTimeout(r, 3000)); // the doctor's checks in the background, a second in
    await mark(transport.pid, join(work, 'rooms-0.json'));
    // ROOMS_IDLE=1 makes no call in the window: nothing should run then (it checks the window is clean).
    if (process.env.ROOMS_IDLE) await new Promise((r) => setTimeout(r, 300));
    else await call();
    const files = await mark(transport.pid, join(work, 'rooms-1.json'));
    return files
      .filter((u) => u.startsWith(`file://${dist}`))
      .map((u) => u.slice(`file://${dist}`.length))
      .sort();
  } finally {
    await client.close();
    await sim.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await roomsPerCall();
  if (process.argv.includes('--list')) for (const f of files) console.log(f);
  console.log(`${files.length} files of ours run code during one get_alert_config over stdio`);
}
