// Replicas pass a 2025 session's requests on to the replica holding it, and only there: the address is the
// holder's registered origin plus the request's path, never something a client wrote into its request line
// or into a header, and a replica accepts "already forwarded" only from another replica.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentity } from '../../src/identity/index.js';
import { createLogger } from '../../src/log.js';
import { type RunningHttp, startHttp } from '../../src/mcp/http/index.js';
import type { SessionDirectory } from '../../src/state/sessions.js';

const logger = createLogger('error');
const key = createHmac('sha256', 'a shared secret of the replicas').update('forward').digest();

/** The shared store of a replica set, in memory. */
const entries = new Map<string, string>();
const directory: SessionDirectory = {
  hold: async (id, origin) => void entries.set(id, origin),
  holder: async (id) => entries.get(id),
  release: async (id) => void entries.delete(id),
};

let a: RunningHttp;
let b: RunningHttp;
let attacker: Server;
let attackerOrigin: string;
const attackerHits: string[] = [];

const replica = () =>
  startHttp({
    host: '127.0.0.1',
    port: 0,
    allowedOrigins: [],
    sessionIdleMs: 60_000,
    logger,
    identity: createIdentity({ oauthScopes: [] }, logger),
    newServer: () => new McpServer({ name: 'replica', version: '1' }),
    directory,
    forwardKey: key,
  });

beforeAll(async () => {
  attacker = createServer((req, res) => {
    attackerHits.push(`${req.method} ${req.url} auth=${req.headers.authorization ?? ''}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":2,"result":{}}');
  });
  await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', () => r()));
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  a = await replica();
  b = await replica();
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await new Promise<void>((r) => attacker.close(() => r()));
});

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function openSession(on: RunningHttp): Promise<string> {
  const res = await fetch(on.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  expect(res.status).toBe(200);
  await res.text();
  return res.headers.get('mcp-session-id') as string;
}

/** Sends a request line exactly as given (fetch and node:http would normalise it) and returns the status. */
function rawRequest(to: RunningHttp, target: string, extra: Record<string, string>): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
  const u = new URL(to.origin);
  const lines = [
    `POST ${target} HTTP/1.1`,
    `Host: ${u.host}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    'Mcp-Protocol-Version: 2025-11-25',
    'Authorization: Bearer the-clients-own-token',
    ...Object.entries(extra).map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname, () => socket.write(lines.join('\r\n')));
    let text = '';
    socket.on('data', (d) => {
      text += d.toString();
    });
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

describe('forwarding between replicas', () => {
  it('passes a request for a session held by another replica on to that replica', async () => {
    const sid = await openSession(a);
    const res = await fetch(b.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('"result"');
  });

  it('refuses absolute-form and scheme-relative request targets before anything else, and contacts no one', async () => {
    const sid = await openSession(a);
    const { host } = new URL(attackerOrigin);
    for (const target of [
      `${attackerOrigin}/mcp?x=1`,
      `//${host}/mcp`,
      `/\\${host}/mcp`,
      `http://${new URL(b.origin).host}/mcp`,
      '*',
    ])
      expect(await rawRequest(b, target, { 'Mcp-Session-Id': sid }), target).toBe(400);
    expect(attackerHits).toEqual([]);
  });

  it('forwards only to an origin a replica registered, not to one written into the shared store by others', async () => {
    entries.set('planted-session', attackerOrigin);
    const status = await rawRequest(b, '/mcp', { 'Mcp-Session-Id': 'planted-session' });
    expect(status).toBe(404);
    expect(attackerHits).toEqual([]);
  });

  it('does not take a client-sent forwarding header for another replica’s', async () => {
    // A client claiming "already forwarded" must not make B skip the hand-over (or trust anything else).
    const sid = await openSession(a);
    const status = await rawRequest(b, '/mcp', { 'Mcp-Session-Id': sid, 'X-Dbops-Forwarded': '1' });
    expect(status).toBe(200);
    const forged = `${Math.floor(Date.now() / 1000)}.${'A'.repeat(43)}`;
    expect(await rawRequest(b, '/mcp', { 'Mcp-Session-Id': sid, 'X-Dbops-Forwarded': forged })).toBe(200);
  });
});
