// A server never outlives its client. A client that gives up during start-up (the AI SDK probes with a 1 s
// time-out, OpenAI Agents with 5 s; on a busy machine initialize took 3–4 s) dies without closing anything:
// here the client is SIGKILLed at fixed moments after it spawned the installed command, from before the
// server has read a byte to after it answered, and the server must be gone. The client's stderr is the
// server's too (inherited), so the test learns of the server's end by that pipe closing: no polling.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const cli = new URL('../../dist/bin/dbops-mcp.js', import.meta.url).pathname;

/**
 * The client: spawns `serve --demo`, sends initialize as every client does, prints the server's pid and
 * SIGKILLs itself `ms` after the spawn. The server's stdin and stdout were pipes to it; its stderr is ours.
 */
const client = `
const { spawn } = require('node:child_process');
const [cli, ms] = process.argv.slice(1);
const server = spawn(process.execPath, [cli, 'serve', '--demo'], { stdio: ['pipe', 'pipe', 'inherit'] });
server.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
  protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'gives-up', version: '1' } } }) + '\\n');
server.stdout.on('data', () => {});
process.stdout.write(server.pid + '\\n');
setTimeout(() => process.kill(process.pid, 'SIGKILL'), Number(ms));
`;

/** Resolves with the server's pid once the client is dead and nothing holds its stderr any more (the server ended). */
function killedClient(ms: number) {
  const home = mkdtempSync(join(tmpdir(), 'dbops-orphan-'));
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CONFIG_HOME: join(home, 'config'),
  };
  const p = spawn(process.execPath, ['-e', client, cli, String(ms)], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let pid = '';
  p.stdout.on('data', (d: Buffer) => {
    pid += d.toString();
  });
  const clientDied = new Promise<NodeJS.Signals | null>((resolve) =>
    p.once('exit', (_code, signal) => resolve(signal)),
  );
  const serverGone = new Promise<void>((resolve) => p.stderr.on('close', resolve).resume());
  return { pid: () => Number(pid.trim()), clientDied, serverGone };
}

describe('a server never outlives its client', () => {
  for (const ms of [50, 150, 300, 500, 3_000])
    it(`client SIGKILLed ${ms} ms after spawning the server: the server ends`, async () => {
      const run = killedClient(ms);
      expect(await run.clientDied).toBe('SIGKILL');
      const deadline = 20_000;
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        run.serverGone.then(() => 'gone'),
        new Promise<string>((resolve) => {
          timer = setTimeout(
            () =>
              resolve(
                `server pid ${run.pid()} still running ${deadline / 1000} s after its client was killed at ${ms} ms`,
              ),
            deadline,
          );
        }),
      ]);
      clearTimeout(timer);
      if (outcome !== 'gone')
        try {
          process.kill(run.pid(), 'SIGKILL');
        } catch {}
      expect(outcome).toBe('gone');
    }, 40_000);
});

describe('start-up answers before the demo world is drawn', () => {
  it('answers initialize before the demo simulator starts, which starts once the client is past its handshake', async () => {
    const home = mkdtempSync(join(tmpdir(), 'dbops-early-'));
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      XDG_STATE_HOME: join(home, 'state'),
      XDG_CONFIG_HOME: join(home, 'config'),
    };
    const p = spawn(process.execPath, [cli, 'serve', '--demo'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const answer = (id: number) =>
      new Promise<{ result?: { content?: Array<{ text: string }> }; logged: string }>((resolve, reject) => {
        const seen = (d: Buffer) => {
          out += d.toString();
          const line = out.split('\n').find((l) => l.includes(`"id":${id}`));
          if (!line) return;
          p.stdout.off('data', seen);
          resolve({ ...JSON.parse(line), logged: err });
        };
        p.stdout.on('data', seen);
        p.once('exit', () => reject(new Error(`the server ended before answering request ${id}: ${err}`)));
      });
    const send = (m: object) => p.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    try {
      send({
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'probe', version: '1' },
        },
      });
      const init = await answer(1);
      expect(init.result).toBeDefined();
      // What the server had logged by its answer: not the world's start (logged long before, were it drawn first).
      expect(init.logged).not.toContain('simulator listening');
      send({ method: 'notifications/initialized' });
      send({ id: 2, method: 'tools/call', params: { name: 'triage_project', arguments: {} } });
      const triage = await answer(2);
      // The project's name, not only its id, where names come within their deadline (2 s) of a world still
      // being drawn on a busy machine.
      expect(triage.result?.content?.[0]?.text).toMatch(
        /^# Triage of project .*\n(?:\*\*Agents\*\*: .*\n)?\*\*Alerts\*\*: 7 open alerts/,
      );
      expect(err).toContain('simulator listening');
    } finally {
      p.kill('SIGKILL');
    }
  }, 60_000);
});
