// One HTTP exchange with the platform: the keep-alive pool (proxy and TLS settings), the request's headers,
// the rate budget around it, and the counters and timings it leaves behind.

import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { Dispatcher } from 'undici';
import type { Logger } from '../log.js';
import type { Budget } from './budget.js';
import { errorCodeOf } from './transport-errors.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type Query = Record<string, string | number | boolean | string[] | undefined>;

export interface TransportStats {
  /** HTTP requests actually sent (challenges and retries included). */
  requests: number;
  retries: number;
  /** Digest challenges (401 with WWW-Authenticate) received. */
  challenges: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends one request (already signed, or needing no signature) and reads the whole answer. */
export type Send = (
  method: Method,
  target: string,
  body: string | undefined,
  authorization: string | undefined,
  signal: AbortSignal,
) => Promise<RawResponse>;

export function queryString(q: Query | undefined): string {
  if (!q) return '';
  const parts: string[] = [];
  const enc = encodeURIComponent;
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) parts.push(`${enc(k)}=${enc(String(item))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

const PROXY_ENV = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

interface LazyDispatcher {
  get(): Promise<Dispatcher>;
  close(): Promise<void>;
}

/** The TLS options of DBOPS_CA_FILE and DBOPS_TLS_INSECURE (a CA file that cannot be read fails start-up). */
function tlsOptions(cfg: { caFile?: string; tlsInsecure?: boolean; logger: Logger }): {
  ca?: string[];
  rejectUnauthorized?: boolean;
} {
  const tls: { ca?: string[]; rejectUnauthorized?: boolean } = {};
  if (cfg.caFile) {
    let pem: string;
    try {
      pem = readFileSync(cfg.caFile, 'utf8');
    } catch (e) {
      throw new Error(
        `Cannot read the CA file ${cfg.caFile} (DBOPS_CA_FILE): ${errorCodeOf(e) ?? String(e)}`,
      );
    }
    // Added to the public roots rather than replacing them, so a proxy with a public cert still works.
    tls.ca = [...rootCertificates, pem];
  }
  if (cfg.tlsInsecure) {
    tls.rejectUnauthorized = false;
    cfg.logger.warn(
      'TLS CERTIFICATE VERIFICATION IS DISABLED (DBOPS_TLS_INSECURE). Anyone on the network path can read and alter API traffic, including credentials. Use DBOPS_CA_FILE instead.',
    );
  }
  return tls;
}

/**
 * One keep-alive pool per origin (undici Agent), through the environment's proxy when one is set. Settings are
 * checked at once (a bad CA file fails start-up); undici itself is loaded on the first request, which keeps
 * it off the server's cold start (tools/list needs no HTTP).
 */
export function createDispatcher(cfg: {
  caFile?: string;
  tlsInsecure?: boolean;
  logger: Logger;
}): LazyDispatcher {
  const tls = tlsOptions(cfg);
  const opts = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connect: tls };
  let dispatcher: Promise<Dispatcher> | undefined;
  return {
    get: () =>
      (dispatcher ??= import('undici').then(({ Agent, EnvHttpProxyAgent }) => {
        if (!PROXY_ENV.some((k) => process.env[k])) return new Agent(opts);
        cfg.logger.debug('using the proxy settings of the environment');
        return new EnvHttpProxyAgent({ ...opts, requestTls: tls, proxyTls: tls.ca ? { ca: tls.ca } : {} });
      })),
    close: async () => {
      if (dispatcher) await (await dispatcher).close();
    },
  };
}

interface SenderOptions {
  origin: string;
  /** The API prefix's path, left out of the path the budget sees. */
  basePath: string;
  dispatcher: LazyDispatcher;
  budget: Budget;
  stats: TransportStats;
  onResponse?: (method: string, status: number | 'error', ms: number) => void;
}

/** Sends within the rate budget (a slot is taken before and given back after each exchange). */
export function createSender(o: SenderOptions): Send {
  const sendNow: Send = async (method, target, body, authorization, signal) => {
    o.stats.requests++;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'dbops-mcp' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (authorization) headers.authorization = authorization;
    const started = performance.now();
    try {
      const res = await (await o.dispatcher.get()).request({
        origin: o.origin,
        path: target,
        method,
        headers,
        body,
        signal,
      });
      const response = { status: res.statusCode, headers: res.headers, body: await res.body.text() };
      o.onResponse?.(method, response.status, performance.now() - started);
      return response;
    } catch (error) {
      o.onResponse?.(method, 'error', performance.now() - started);
      throw error;
    }
  };
  return async (method, target, body, authorization, signal) => {
    const done = await o.budget.acquire(method, target.slice(o.basePath.length), signal);
    try {
      return await sendNow(method, target, body, authorization, signal);
    } finally {
      done();
    }
  };
}
