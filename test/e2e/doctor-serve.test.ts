// What `serve` says at start-up when the set-up is wrong, as an operator sees it: real server processes (the
// installed command, dist/bin), each message naming the real cause and its fix; and two servers on one state
// directory, where the second refuses to start rather than answer "unknown approval" for the first one's.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';

const bin = new URL('../../dist/bin/dbops-mcp.js', import.meta.url).pathname;

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
});
afterAll(async () => {
  await sim?.close();
});

interface Proc {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
  /** Resolves once stdout or stderr matches, or rejects when the process exits first. */
  until(re: RegExp, ms?: number): Promise<string>;
}

function run(args: string[], env: Record<string, string>): Proc {
  const home = mkdtempSync(join(tmpdir(), 'dbops-serve-'));
  const child = spawn(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH, HOME: home, XDG_STATE_HOME: join(home, 'state'), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  child.stdout?.on('data', (d) => {
    out += d;
    wake();
  });
  child.stderr?.on('data', (d) => {
    err += d;
    wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    out: () => out,
    err: () => err,
    exited,
    until(re, ms = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${re}: ${out}${err}`)), ms);
        const look = () => {
          const m = re.exec(out + err);
          if (m) {
            clearTimeout(timer);
            resolve(m[0]);
          } else waiters.push(look);
        };
        void exited.then(() => {
          if (!re.test(out + err)) {
            clearTimeout(timer);
            reject(new Error(`exited before ${re}: ${out}${err}`));
          }
        });
        look();
      });
    },
  };
}

const platform = () => ({
  DBOPS_BASE_URL: sim.baseUrl,
  DBOPS_PUBLIC_KEY: sim.keys.publicKey,
  DBOPS_PRIVATE_KEY: sim.keys.privateKey,
});

async function stop(p: Proc) {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await p.exited;
}

describe('serve: start-up messages name the cause and the fix', () => {
  it('a URL without a scheme: says to add https:// (not "Invalid URL" alone)', async () => {
    const host = new URL(sim.baseUrl).host;
    const p = run(['serve'], { ...platform(), DBOPS_BASE_URL: host });
    expect(await p.exited).toBe(2);
    expect(p.err()).toContain('DBOPS_BASE_URL');
    expect(p.err()).toContain(`"${host}" has no scheme: write https://${host} (or http://${host}`);
  });

  it('https against a plain-http port: says the port speaks HTTP, not to set a CA file', async () => {
    const p = run(['serve'], { ...platform(), DBOPS_BASE_URL: sim.baseUrl.replace('http://', 'https://') });
    try {
      await p.until(/answers plain HTTP, not TLS/);
      expect(p.err()).toMatch(/Use http:\/\/127\.0\.0\.1:\d+ in DBOPS_BASE_URL/);
      expect(p.err()).toContain('dbops-mcp doctor');
      expect(p.err()).not.toContain('DBOPS_CA_FILE');
      // A warning, not a refusal: the server keeps serving.
      expect(p.child.exitCode).toBeNull();
    } finally {
      await stop(p);
    }
  });

  it('a tool call over https against a plain-http port: names the cause, not DBOPS_CA_FILE', async () => {
    const p = run(['call', 'list_projects'], {
      ...platform(),
      DBOPS_BASE_URL: sim.baseUrl.replace('http://', 'https://'),
    });
    expect(await p.exited).toBe(1);
    expect(p.err()).toContain('answers plain HTTP, not TLS');
    expect(p.err()).not.toContain('DBOPS_CA_FILE');
  });

  it('a taken port: says so and names --port and DBOPS_PORT', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const p = run(['serve', '--transport', 'http', '--port', String(port)], platform());
      expect(await p.exited).toBe(2);
      expect(p.err()).toContain(`127.0.0.1:${port} is taken by another process`);
      expect(p.err()).toContain('--port');
      expect(p.err()).toContain('DBOPS_PORT');
    } finally {
      taken.close();
    }
  });
});

describe('two servers on one state directory', () => {
  it('the second refuses to start, naming the first and DBOPS_STATE_URL; a dead owner does not count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbops-shared-state-'));
    const env = { ...platform(), DBOPS_STATE_DIR: dir };
    const first = run(['serve', '--transport', 'http', '--port', '0'], env);
    try {
      await first.until(/Streamable HTTP at http:\/\/\S+/);
      const second = run(['serve', '--transport', 'http', '--port', '0'], env);
      expect(await second.exited).toBe(2);
      expect(second.err()).toContain(`in use by another dbops-mcp server (pid ${first.child.pid}`);
      expect(second.err()).toContain('DBOPS_STATE_URL');
      expect(second.err()).toContain('DBOPS_STATE_DIR');

      // Killed without any clean-up: its owner file stays, but its process is gone, so a new server starts.
      first.child.kill('SIGKILL');
      await first.exited;
      const third = run(['serve', '--transport', 'http', '--port', '0'], env);
      try {
        await third.until(/Streamable HTTP at http:\/\/\S+/);
      } finally {
        await stop(third);
      }
    } finally {
      await stop(first);
    }
  }, 60_000);
});
