// Network settings of the client over loopback: a private CA (caFile), skipping verification
// (tlsInsecure, with a loud warning) and proxies from the environment.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { createLogger } from '../../src/log.js';
import { hasOpenssl, selfSignedCert } from '../helpers/tls.js';

const dir = mkdtempSync(join(tmpdir(), 'dbops-client-tls-'));
const clients: ApiClient[] = [];
const servers: Server[] = [];

function listen(server: Server): Promise<number> {
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}
// An API stand-in that needs no auth: enough to exercise the connection layer.
const answer = (_req: unknown, res: import('node:http').ServerResponse) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ ok: true }));
};

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasOpenssl)('TLS', () => {
  let httpsPort = 0;
  const certFile = join(dir, 'cert.pem');
  beforeAll(async () => {
    const made = selfSignedCert(dir);
    const server = createHttpsServer(
      { key: readFileSync(made.keyFile), cert: readFileSync(certFile) },
      answer,
    );
    httpsPort = await listen(server as unknown as Server);
  });

  it('refuses an unknown CA with a message pointing at DBOPS_CA_FILE, and does not retry it', async () => {
    const c = createApiClient({ baseUrl: `https://127.0.0.1:${httpsPort}`, publicKey: 'p', privateKey: 'k' });
    clients.push(c);
    const e = (await c.request({ method: 'GET', path: '/x' }).catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(0);
    expect(e.message).toContain('DBOPS_CA_FILE');
    expect(c.stats.requests).toBe(1);
  });

  it('trusts a private CA from caFile', async () => {
    const c = createApiClient({
      baseUrl: `https://127.0.0.1:${httpsPort}`,
      publicKey: 'p',
      privateKey: 'k',
      caFile: certFile,
    });
    clients.push(c);
    expect(await c.request({ method: 'GET', path: '/x' })).toEqual({ ok: true });
  });

  it('tlsInsecure connects, with a loud warning', async () => {
    const lines: string[] = [];
    const c = createApiClient({
      baseUrl: `https://127.0.0.1:${httpsPort}`,
      publicKey: 'p',
      privateKey: 'k',
      tlsInsecure: true,
      logger: createLogger('warn', (l) => lines.push(l)),
    });
    clients.push(c);
    expect(await c.request({ method: 'GET', path: '/x' })).toEqual({ ok: true });
    expect(lines.some((l) => l.includes('"level":"warn"') && l.includes('VERIFICATION IS DISABLED'))).toBe(
      true,
    );
  });

  it('says clearly when the CA file cannot be read', () => {
    expect(() =>
      createApiClient({
        baseUrl: 'https://h',
        publicKey: 'p',
        privateKey: 'k',
        caFile: join(dir, 'missing.pem'),
      }),
    ).toThrow(/Cannot read the CA file .*DBOPS_CA_FILE.*ENOENT/);
  });
});

describe('proxy from the environment', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('sends requests through HTTP_PROXY, and not for hosts in NO_PROXY', async () => {
    const apiPort = await listen(createHttpServer(answer));
    const seen: string[] = [];
    // A forward proxy: absolute-form requests are relayed, CONNECT is tunnelled.
    const proxy = createHttpServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const up = httpRequest(req.url!, { method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      });
      req.pipe(up);
    });
    proxy.on('connect', (req, socket, head) => {
      seen.push(`CONNECT ${req.url}`);
      const [host, port] = req.url!.split(':');
      const up = connect(Number(port), host!, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        up.write(head);
        up.pipe(socket);
        socket.pipe(up);
      });
      up.on('error', () => socket.destroy());
      socket.on('error', () => up.destroy());
    });
    const proxyPort = await listen(proxy);
    process.env.HTTP_PROXY = `http://127.0.0.1:${proxyPort}`;
    delete process.env.NO_PROXY;
    delete process.env.no_proxy;
    const viaProxy = createApiClient({
      baseUrl: `http://127.0.0.1:${apiPort}`,
      publicKey: 'p',
      privateKey: 'k',
    });
    clients.push(viaProxy);
    expect(await viaProxy.request({ method: 'GET', path: '/x' })).toEqual({ ok: true });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toContain(`127.0.0.1:${apiPort}`);

    seen.length = 0;
    process.env.NO_PROXY = '127.0.0.1';
    const direct = createApiClient({
      baseUrl: `http://127.0.0.1:${apiPort}`,
      publicKey: 'p',
      privateKey: 'k',
    });
    clients.push(direct);
    expect(await direct.request({ method: 'GET', path: '/x' })).toEqual({ ok: true });
    expect(seen).toEqual([]);
  });
});
