// Test access to the simulator: start one on an ephemeral loopback port, and call it through a deliberately
// simple digest client of its own (challenge, then one signed request) — an independent check of the
// server that shares no code with the product's client in src/api/.

import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Simulator, type StartSimulatorOptions, startSimulator } from '../../src/simulator/index.js';

export type { Simulator };

export function startTestSimulator(options: StartSimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ host: '127.0.0.1', port: 0, dataset: 'demo', ...options });
}

export interface Keys {
  publicKey: string;
  privateKey: string;
}

export interface DigestAnswer {
  status: number;
  headers: Headers;
  /** Parsed body, or undefined when the body is empty or not JSON. */
  json: any;
  text: string;
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** Parses a WWW-Authenticate Digest challenge into lower-cased names and unquoted values. */
export function parseChallenge(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of header.replace(/^\s*Digest\s+/i, '').matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|([^,\s]*))/g)) {
    out[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? '';
  }
  return out;
}

export interface SignOptions {
  method: string;
  /** Path and query exactly as sent. */
  uri: string;
  keys: Keys;
  challenge: Record<string, string>;
  /** As it goes on the wire, e.g. '00000001' or '1'. */
  nc?: string;
  cnonce?: string;
  /** Override the realm sent back (tests of refusals). */
  realm?: string;
}

/** Builds an Authorization header answering a challenge (RFC 7616, MD5, qop=auth). */
export function signDigest(o: SignOptions): string {
  const nc = o.nc ?? '00000001';
  const cnonce = o.cnonce ?? randomBytes(8).toString('hex');
  const realm = o.realm ?? o.challenge['realm'] ?? '';
  const nonce = o.challenge['nonce'] ?? '';
  const ha1 = md5(`${o.keys.publicKey}:${realm}:${o.keys.privateKey}`);
  const ha2 = md5(`${o.method}:${o.uri}`);
  const response = md5(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`);
  return (
    `Digest username="${o.keys.publicKey}", realm="${realm}", nonce="${nonce}", uri="${o.uri}", ` +
    `algorithm=MD5, qop=auth, nc=${nc}, cnonce="${cnonce}", response="${response}"`
  );
}

export interface FetchOptions {
  /** A string is sent as is (to test malformed JSON); anything else is JSON-encoded. */
  body?: unknown;
  keys?: Keys;
  headers?: Record<string, string>;
}

/** Where a call goes: anything with the prefix URL and a key pair (a Simulator qualifies). */
export interface Target {
  baseUrl: string;
  keys: Keys;
}

export async function rawFetch(
  url: string,
  method: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<DigestAnswer> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  const res = await fetch(url, {
    method,
    body,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...options.headers },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/**
 * One API call with digest auth: an unsigned request, then — when challenged — the same request signed.
 * `pathAndQuery` is relative to the prefix, e.g. '/groups/abc/alertConfigs?pageNum=2'.
 */
export async function digestFetch(
  sim: Target,
  method: string,
  pathAndQuery: string,
  options: FetchOptions = {},
): Promise<DigestAnswer> {
  const url = new URL(sim.baseUrl + pathAndQuery);
  const first = await rawFetch(url.href, method, options);
  const header = first.headers.get('www-authenticate');
  if (first.status !== 401 || !header) return first;
  const authorization = signDigest({
    method,
    uri: url.pathname + url.search,
    keys: options.keys ?? sim.keys,
    challenge: parseChallenge(header),
  });
  return rawFetch(url.href, method, {
    ...options,
    headers: { ...options.headers, Authorization: authorization },
  });
}

export interface CliSimulator extends Target {
  child: ChildProcess;
  orgId: string;
  projectIds: string[];
  /** Everything the process wrote on stderr so far. */
  stderr(): string;
  /** Everything it wrote on stdout (the JSON line and nothing else). */
  stdout(): string;
  /** Sends SIGTERM and resolves with the exit code (SIGKILL after 5 s). */
  stop(): Promise<number | null>;
}

const cliPath = new URL('../../dist/src/cli.js', import.meta.url).pathname;

/**
 * Runs `node dist/src/cli.js simulator --json --port 0 ...args` (build first) and resolves once its JSON
 * line arrived on stdout. Rejects when the process exits first or says nothing within 15 s.
 */
export function spawnCliSimulator(args: string[] = []): Promise<CliSimulator> {
  const child = spawn(process.execPath, [cliPath, 'simulator', '--json', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`simulator CLI did not start in 15 s; stderr: ${err}`));
    }, 15_000);
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`simulator CLI exited with ${code} before starting; stderr: ${err}`));
    });
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      const info = JSON.parse(out.slice(0, nl)) as {
        baseUrl: string;
        publicKey: string;
        privateKey: string;
        orgId: string;
        projectIds: string[];
      };
      resolve({
        child,
        baseUrl: info.baseUrl,
        keys: { publicKey: info.publicKey, privateKey: info.privateKey },
        orgId: info.orgId,
        projectIds: info.projectIds,
        stderr: () => err,
        stdout: () => out,
        stop() {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
          }
          return exit;
        },
      });
    });
  });
}

/** The environment of a spawned server pointed at `sim`, with its state, audit log and secrets in a fresh folder. */
export function serverEnv(sim: Simulator, prefix = 'dbops-server-'): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    PATH: process.env.PATH ?? '',
    DBOPS_BASE_URL: sim.baseUrl,
    DBOPS_PUBLIC_KEY: sim.keys.publicKey,
    DBOPS_PRIVATE_KEY: sim.keys.privateKey,
    DBOPS_PROJECT_ID: sim.projectIds[0]!,
    DBOPS_ORG_ID: sim.orgId,
    DBOPS_AUDIT_LOG: join(dir, 'audit.log'),
    DBOPS_SECRETS_DIR: join(dir, 'secrets'),
    DBOPS_STATE_DIR: join(dir, 'state'),
    DBOPS_CONFIRM_VIA: 'token',
    DBOPS_LOG_LEVEL: 'warn',
    // Tests change the platform behind the server's back and read at once; the read cache has tests of its own.
    DBOPS_CACHE_TTL_MS: '0',
  };
}
