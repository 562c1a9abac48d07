// A replicated deployment on loopback, made of real parts: N server processes (the built CLI, HTTP transport)
// sharing one redis-server (DBOPS_STATE_URL) and one DBOPS_TOKEN_SECRET, in front of them a plain
// round-robin proxy (no affinity of any kind), behind them one platform (the simulator). The proxy logs which
// replica answered each request and skips replicas that do not answer (a dead one), as a load balancer would.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Simulator } from './sim.js';

export interface Hop {
  replica: number;
  method: string;
  path: string;
  /** The JSON-RPC method and tool name of an MCP POST, when it has one. */
  rpc?: string;
  tool?: string;
}

export interface Replica {
  index: number;
  url: string;
  proc: ChildProcess;
  auditLog: string;
  alive: boolean;
}

export interface ReplicaSet {
  /** The load balancer's /mcp URL and origin (DBOPS_PUBLIC_URL of every replica). */
  url: string;
  origin: string;
  replicas: Replica[];
  hops: Hop[];
  /** The replica the proxy sends the next request to (round-robin moves on by one per request). */
  next(i: number): void;
  /** SIGKILL: no clean-up of any kind. */
  kill(i: number): Promise<void>;
  /** Audit lines of every replica with this outcome. */
  audited(outcome: string): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startReplicas(opts: {
  n: number;
  redisUrl: string;
  sim: Simulator;
  env?: Record<string, string>;
}): Promise<ReplicaSet> {
  const hops: Hop[] = [];
  const replicas: Replica[] = [];
  let turn = 0;

  const proxy: Server = createServer(async (req, res) => {
    const body = await readAll(req);
    for (let tries = 0; tries < replicas.length; tries++) {
      const r = replicas[turn % replicas.length] as Replica;
      turn++;
      if (!r.alive) continue;
      const hop: Hop = {
        replica: r.index,
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        ...rpcOf(body),
      };
      const ok = await new Promise<boolean>((resolve) => {
        const out = request(
          new URL(req.url ?? '/', r.url),
          { method: req.method, headers: req.headers },
          (answer) => {
            hops.push(hop);
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            resolve(true);
          },
        );
        out.once('error', () => resolve(false));
        res.once('close', () => out.destroy());
        out.end(body);
      });
      if (ok) return;
    }
    res.writeHead(502).end('no replica answered');
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  // Started together, not one after another: each spends most of its start-up loading modules.
  const base = mkdtempSync(join(tmpdir(), 'dbops-replicas-'));
  const started = Array.from({ length: opts.n }, (_, i) =>
    startReplica(i, join(base, `r${i}`), origin, opts),
  );
  replicas.push(...(await Promise.all(started)));

  return {
    url: `${origin}/mcp`,
    origin,
    replicas,
    hops,
    next(i) {
      turn = i;
    },
    async kill(i) {
      const r = replicas[i] as Replica;
      if (!r.alive) return;
      const gone = new Promise((done) => r.proc.once('exit', done));
      r.proc.kill('SIGKILL');
      await gone;
    },
    audited(outcome) {
      return replicas.flatMap((r) => {
        let text = '';
        try {
          text = readFileSync(r.auditLog, 'utf8');
        } catch {}
        return text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((e) => e.outcome === outcome);
      });
    },
    async close() {
      await Promise.all(
        replicas
          .filter((r) => r.alive)
          .map((r) => {
            const gone = new Promise((done) => r.proc.once('exit', done));
            r.proc.kill('SIGTERM');
            return gone;
          }),
      );
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    },
  };
}

/** One server process of the set, resolved once it prints the address it serves on. */
async function startReplica(
  index: number,
  dir: string,
  origin: string,
  opts: { redisUrl: string; sim: Simulator; env?: Record<string, string> },
): Promise<Replica> {
  const auditLog = join(dir, 'audit.log');
  const proc = spawn(
    process.execPath,
    ['dist/bin/dbops-mcp.js', 'serve', '--transport', 'http', '--port', '0'],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        DBOPS_BASE_URL: opts.sim.baseUrl,
        DBOPS_PUBLIC_KEY: opts.sim.keys.publicKey,
        DBOPS_PRIVATE_KEY: opts.sim.keys.privateKey,
        DBOPS_PROJECT_ID: opts.sim.projectIds[0] ?? '',
        DBOPS_ORG_ID: opts.sim.orgId,
        DBOPS_STATE_URL: opts.redisUrl,
        DBOPS_TOKEN_SECRET: 'replicas-share-this-secret-0123456789',
        DBOPS_PUBLIC_URL: origin,
        DBOPS_AUDIT_LOG: auditLog,
        DBOPS_STATE_DIR: join(dir, 'state'),
        DBOPS_SECRETS_DIR: join(dir, 'secrets'),
        DBOPS_FEED_POLL_MS: '200',
        DBOPS_LOG_LEVEL: 'warn',
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    proc.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Streamable HTTP at (http:\/\/\S+)\/mcp/.exec(out);
      if (m) resolve(m[1] as string);
    });
    proc.once('exit', (code) => reject(new Error(`replica ${index} exited (${code}): ${err}`)));
  });
  const replica: Replica = { index, url, proc, auditLog, alive: true };
  proc.once('exit', () => {
    replica.alive = false;
  });
  return replica;
}

function rpcOf(body: Buffer): { rpc?: string; tool?: string } {
  try {
    const m = JSON.parse(body.toString()) as { method?: string; params?: { name?: string } };
    return { ...(m.method ? { rpc: m.method } : {}), ...(m.params?.name ? { tool: m.params.name } : {}) };
  } catch {
    return {};
  }
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
