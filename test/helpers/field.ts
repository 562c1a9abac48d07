// A stand-in for a server in the field: it answers our requests with response bodies copied from the vendor's
// own client tests (test/fixtures/field, sources in its README), behind the field's digest challenge
// (realm "MMS Public API", qop="auth") and with its service-version header. What the fixtures do not cover is
// answered as an older or restricted server does: 404 RESOURCE_NOT_FOUND.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDigestVerifier } from '../../src/simulator/digest-server.js';

const dir = new URL('../fixtures/field/', import.meta.url);
export const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`${name}.json`, dir), 'utf8'));

const seg = '[^/]+';
const ROUTES: Array<[method: string, path: RegExp, fixture: string | null]> = [
  ['GET', /^\/groups$/, 'projects'],
  ['GET', new RegExp(`^/groups/${seg}/alertConfigs$`), 'alert-configs'],
  ['GET', new RegExp(`^/groups/${seg}/alertConfigs/${seg}$`), 'alert-config'],
  ['PATCH', new RegExp(`^/groups/${seg}/alertConfigs/${seg}$`), 'alert-config-enabled'],
  ['GET', new RegExp(`^/groups/${seg}/alertConfigs/${seg}/alerts$`), 'alert-config-alerts'],
  ['GET', /^\/alertConfigs\/matchers\/fieldNames$/, 'matcher-field-names'],
  ['PATCH', new RegExp(`^/groups/${seg}/alerts/${seg}$`), 'alert-acknowledged'],
  ['PATCH', new RegExp(`^/globalAlerts/${seg}$`), 'global-alert-acknowledged'],
  ['GET', new RegExp(`^/groups/${seg}/automationStatus(/full)?$`), 'automation-status'],
  ['GET', new RegExp(`^/groups/${seg}/events$`), 'project-events'],
  ['GET', new RegExp(`^/groups/${seg}/events/${seg}$`), 'project-event'],
  ['GET', new RegExp(`^/groups/${seg}/hosts$`), 'hosts'],
  ['GET', new RegExp(`^/groups/${seg}/hosts/${seg}/disks/${seg}$`), 'disk-partition'],
  ['GET', new RegExp(`^/groups/${seg}/maintenanceWindows$`), 'maintenance-windows'],
  ['GET', new RegExp(`^/groups/${seg}/maintenanceWindows/${seg}$`), 'maintenance-window'],
  ['POST', new RegExp(`^/groups/${seg}/maintenanceWindows$`), 'maintenance-window-created'],
  ['PATCH', new RegExp(`^/groups/${seg}/maintenanceWindows/${seg}$`), 'maintenance-window-updated'],
  ['DELETE', new RegExp(`^/groups/${seg}/maintenanceWindows/${seg}$`), null],
  ['GET', /^\/users\/byName\/[^/]+$/, 'user-by-name'],
  ['GET', new RegExp(`^/users/${seg}$`), 'user'],
  ['PATCH', new RegExp(`^/users/${seg}$`), 'user'],
  ['POST', /^\/users$/, 'user-created'],
  ['POST', /^\/unauth\/users$/, 'first-user'],
  ['POST', new RegExp(`^/orgs/${seg}/apiKeys$`), 'org-api-key-created'],
  ['POST', new RegExp(`^/groups/${seg}/apiKeys$`), 'org-api-key-created'],
  ['GET', new RegExp(`^/groups/${seg}/agents$`), 'agent-links'],
  ['GET', new RegExp(`^/groups/${seg}/agents/${seg}$`), 'agents-by-type'],
  ['GET', new RegExp(`^/orgs/${seg}$`), 'org'],
  ['GET', new RegExp(`^/groups/${seg}/integrations$`), 'integrations'],
  ['PUT', new RegExp(`^/groups/${seg}/integrations/${seg}$`), 'integration-replaced'],
];

export const FIELD_KEYS = { publicKey: 'fieldkey', privateKey: '1c2f3a4b-5d6e-7f80-9a1b-2c3d4e5f6a7b' };
export const FIELD_VERSION = 'gitHash=0123456789abcdef; versionString=7.0.12.100.20240101T0000Z';

export interface FieldServer {
  baseUrl: string;
  /** Method and path (after the API prefix) of every request, in order. */
  requests: string[];
  /** Those the fixtures do not hold, answered 404 as an older or restricted server would. */
  notFound: string[];
  close(): Promise<void>;
}

export async function startFieldServer(): Promise<FieldServer> {
  const digest = createDigestVerifier(() => ({ ttlMs: 300_000, maxUses: 0 }));
  const requests: string[] = [];
  const notFound: string[] = [];
  const prefix = '/api/public/v1.0';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://field.invalid');
    const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
    const send = (status: number, body?: unknown) => {
      res.setHeader('X-MongoDB-Service-Version', FIELD_VERSION);
      if (body === undefined) return void res.writeHead(status).end();
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    req.resume();
    req.on('end', () => {
      if (path !== '/unauth/users') {
        const check = digest.verify(req.headers.authorization, req.method ?? 'GET', req.url ?? '/', (u) =>
          u === FIELD_KEYS.publicKey ? FIELD_KEYS.privateKey : undefined,
        );
        if (!check.ok) {
          res.setHeader('WWW-Authenticate', digest.challenge(check.stale));
          return send(401, {
            reason: 'Unauthorized',
            error: 401,
            detail: 'You are not authorized for this resource.',
          });
        }
      }
      requests.push(`${req.method} ${path}`);
      const route = ROUTES.find(([m, p]) => m === req.method && p.test(path));
      if (!route) notFound.push(`${req.method} ${path}`);
      if (!route)
        return send(404, {
          error: 404,
          errorCode: 'RESOURCE_NOT_FOUND',
          reason: 'Not Found',
          detail: `Cannot find resource ${url.pathname}.`,
        });
      if (route[2] === null) return send(204);
      send(200, fixture(route[2]));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    notFound,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
