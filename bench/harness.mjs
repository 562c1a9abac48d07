// What the bench scripts share: statistics, the server's environment, and an in-process server on an
// in-memory MCP link (SDK client ↔ our server ↔ undici ↔ the simulator over loopback).
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Pool } from 'undici';
import { createApiClient } from '../dist/src/api/client.js';
import { configSchema } from '../dist/src/config/index.js';
import { silentLogger } from '../dist/src/log.js';
import { createMcpServer } from '../dist/src/mcp/server.js';
import { createAuditLog } from '../dist/src/policy/audit.js';
import { createSecretKeeper } from '../dist/src/policy/secrets.js';
import { createSigner } from '../dist/src/policy/signer.js';

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
export const round = (x, d = 2) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : x);

/** The process environment without any DBOPS_ setting of the shell. */
export const baseEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DBOPS_')));

/** DBOPS_* for a server child that talks to `sim`, writing its files under `work`. */
export const serverEnv = (sim, work) => ({
  ...baseEnv(),
  DBOPS_BASE_URL: sim.origin,
  DBOPS_PUBLIC_KEY: sim.keys.publicKey,
  DBOPS_PRIVATE_KEY: sim.keys.privateKey,
  DBOPS_PROJECT_ID: sim.projectIds[0],
  DBOPS_ORG_ID: sim.orgId,
  DBOPS_AUDIT_LOG: join(work, 'audit.log'),
  DBOPS_SECRETS_DIR: join(work, 'secrets'),
  // Its own state directory: an HTTP server claims the one it uses, and the user's may be in use.
  DBOPS_STATE_DIR: join(work, 'state'),
  DBOPS_LOG_LEVEL: 'error',
  // Timings of calls measure the work of a call: a kept answer would skip the platform (bench/load.mjs
  // measures the read cache itself).
  DBOPS_CACHE_TTL_MS: '0',
});

/** Our server in this process on an in-memory link; `api` may wrap the client (e.g. to record answers). */
export async function inProcessServer(sim, work, wrapApi = (a) => a, o = {}) {
  const config = configSchema.parse({
    baseUrl: sim.baseUrl,
    ...sim.keys,
    projectId: sim.projectIds[0],
    orgId: sim.orgId,
    auditLog: join(work, 'audit-inproc.log'),
    secretsDir: join(work, 'secrets'),
    logLevel: 'error',
    ...o.config,
  });
  const api = createApiClient({ baseUrl: sim.baseUrl, ...sim.keys, logger: silentLogger, ...o.api });
  const server = createMcpServer({
    config,
    api: wrapApi(api),
    logger: silentLogger,
    signer: createSigner(),
    audit: createAuditLog(config.auditLog, silentLogger),
    secrets: createSecretKeeper(config.secretsDir, false),
  });
  const client = new Client({ name: 'bench', version: '1' });
  const [c, s] = InMemoryTransport.createLinkedPair();
  await server.connect(s);
  await client.connect(c);
  return {
    client,
    api,
    close: async () => {
      await Promise.all([client.close(), server.close()]);
      await api.close();
    },
  };
}

/** Resolves when the child has exited (at once if it already has). */
export const exited = (child) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => child.once('exit', r));

/** Spawns `node args` and resolves with the child and the first line it prints on stdout. */
export function spawnWithLine(args, env = baseEnv(), stderr = 'inherit') {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', stderr] });
  return new Promise((resolve, reject) => {
    let buf = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before printing`)));
    child.stdout.setEncoding('utf8').on('data', function onData(d) {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve({ child, line: buf.slice(0, nl) });
    });
  });
}

/**
 * The simulator in a child process, as the real platform is another machine: its CPU does not compete with
 * the server's event loop. Same shape as startSimulator's result where the bench needs it.
 */
export async function simulatorChild(cli, latencyMs = 0, projects = undefined) {
  const args = [cli, 'simulator', '--port', '0', '--json'];
  if (latencyMs) args.push('--latency-ms', String(latencyMs));
  if (projects) args.push('--projects', String(projects));
  const { child, line } = await spawnWithLine(args, baseEnv(), 'ignore');
  const info = JSON.parse(line);
  const origin = new URL(info.baseUrl).origin;
  const stats = async () => (await fetch(`${origin}/__simulator/stats`)).json();
  return {
    ...info,
    origin,
    keys: { publicKey: info.publicKey, privateKey: info.privateKey },
    pid: child.pid,
    stats,
    close: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/**
 * The floor of one API call: a GET with HTTP digest auth (MD5, qop=auth) sent with undici directly, the
 * challenge fetched once and reused with a counting nc — what our client does, with nothing else around it.
 */
export function rawSignedGet(sim, connections = 1) {
  const pool = new Pool(sim.origin, { connections });
  const md5 = (s) => createHash('md5').update(s).digest('hex');
  let challenge;
  let nc = 0;
  const sign = (path) => {
    const { realm, nonce } = challenge;
    const ncHex = (++nc).toString(16).padStart(8, '0');
    const cnonce = randomBytes(8).toString('hex');
    const ha1 = md5(`${sim.keys.publicKey}:${realm}:${sim.keys.privateKey}`);
    const response = md5(`${ha1}:${nonce}:${ncHex}:${cnonce}:auth:${md5(`GET:${path}`)}`);
    return `Digest username="${sim.keys.publicKey}", realm="${realm}", nonce="${nonce}", uri="${path}", algorithm=MD5, qop=auth, nc=${ncHex}, cnonce="${cnonce}", response="${response}"`;
  };
  return {
    async get(path) {
      for (;;) {
        const headers = { accept: 'application/json' };
        const signedWith = challenge;
        if (signedWith) headers.authorization = sign(path);
        const r = await pool.request({ method: 'GET', path, headers });
        if (r.statusCode === 401) {
          const h = r.headers['www-authenticate'];
          await r.body.dump();
          if (signedWith && signedWith === challenge && !/stale=true/i.test(h))
            throw new Error('raw GET: credentials refused');
          if (challenge !== signedWith) continue; // another request fetched a newer challenge meanwhile
          challenge = {
            realm: /realm="([^"]*)"/.exec(h)[1],
            nonce: /nonce="([^"]*)"/.exec(h)[1],
          };
          nc = 0;
          continue;
        }
        if (r.statusCode !== 200) throw new Error(`raw GET ${path}: ${r.statusCode}`);
        return r.body.json();
      }
    },
    close: () => pool.close(),
  };
}

/**
 * Speaks raw JSON-RPC lines to a spawned stdio server: initialize, then tools/list. Resolves with the
 * tools/list answer, so the measuring side adds next to nothing.
 */
export function listToolsOverStdio(child) {
  const send = (m) => child.stdin.write(`${JSON.stringify(m)}\n`);
  return new Promise((resolve, reject) => {
    let buf = '';
    child.on('error', reject);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      buf += d;
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const msg = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (msg.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (msg.id === 2) resolve(msg);
      }
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    });
  });
}

// A free loopback port, and a throwaway Redis on one (the replica benches share the read cache through it).
export async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

export function findRedis() {
  for (const bin of ['/usr/bin/redis-server', '/usr/local/bin/redis-server', 'redis-server'])
    try {
      execFileSync(bin, ['--version'], { stdio: 'ignore' });
      return bin;
    } catch {}
  return undefined;
}

export async function startRedis(bin, dir) {
  const port = await freePort();
  const proc = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) resolve();
    });
    proc.once('exit', (c) => reject(new Error(`redis-server exited (${c})`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    close: async () => {
      proc.kill('SIGKILL');
      await exited(proc);
    },
  };
}
