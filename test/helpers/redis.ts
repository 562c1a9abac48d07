// A real redis-server (Debian's package, installed by .ci/run) on a free loopback port, in a temporary folder,
// with restart and stop for the "store went away" tests. Suites skip, saying why, where it is not installed.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function findRedis(): string | undefined {
  for (const bin of ['/usr/bin/redis-server', '/usr/local/bin/redis-server', 'redis-server'])
    try {
      execFileSync(bin, ['--version'], { stdio: 'ignore' });
      return bin;
    } catch {}
  return undefined;
}

export const redisBin = findRedis();
export const noRedis = redisBin
  ? false
  : 'redis-server is not installed (apt-get install redis-server; .ci/run installs it): Redis tests skipped';
if (noRedis) process.stderr.write(`${noRedis}\n`);

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

export interface TestRedis {
  url: string;
  port: number;
  /** Stops the server (SIGKILL without persistence: its data is lost) and starts it again on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * Starts redis-server; `persist` turns on the append-only file (data survives a restart); `password` makes it
 * refuse clients without that password (the url then carries it).
 */
export async function startRedis(opts: { persist?: boolean; password?: string } = {}): Promise<TestRedis> {
  if (!redisBin) throw new Error(String(noRedis));
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'dbops-redis-'));
  let proc: ChildProcess | undefined;
  const start = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
    args.push('--appendonly', opts.persist ? 'yes' : 'no', '--appendfsync', 'always');
    if (opts.password) args.push('--requirepass', opts.password);
    proc = spawn(redisBin, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const onData = (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) {
          proc?.stdout?.off('data', onData);
          proc?.stdout?.resume();
          resolve();
        }
      };
      proc?.stdout?.on('data', onData);
      proc?.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    });
  };
  const stop = async () => {
    const p = proc;
    proc = undefined;
    if (!p || p.exitCode !== null) return;
    const gone = new Promise((r) => p.once('exit', r));
    p.kill(opts.persist ? 'SIGTERM' : 'SIGKILL');
    await gone;
  };
  await start();
  return {
    url: `redis://${opts.password ? `:${opts.password}@` : ''}127.0.0.1:${port}`,
    port,
    start,
    stop,
    async restart() {
      await stop();
      await start();
    },
  };
}
