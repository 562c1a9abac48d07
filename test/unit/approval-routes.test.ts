// The approval routes over a real loopback server, with raw HTTP requests so that every header (Host,
// Origin, Cookie, Sec-Fetch-Site) is under the test's control.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApprovalService, createApprovalService } from '../../src/approval/index.js';
import { createIdentity } from '../../src/identity/index.js';
import { silentLogger } from '../../src/log.js';
import { createAuditLog } from '../../src/policy/audit.js';
import { pageForm, type Reply, raw } from '../helpers/http.js';

const hit = (
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> => raw(`${origin}${path}`, method, headers, body);

const services: ApprovalService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
});

async function setup(token?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'dbops-approval-routes-'));
  const service = createApprovalService({
    ttlMs: 600_000,
    audit: createAuditLog(join(dir, 'audit.log'), silentLogger),
    logger: silentLogger,
    ...(token ? { identity: createIdentity({ httpToken: token, oauthScopes: [] }, silentLogger) } : {}),
  });
  services.push(service);
  const origin = await service.listen();
  const pending = await service.channel.create({
    tool: 'set_alert_config_enabled',
    title: 'Enable or disable an alert configuration',
    hash: 'h1',
    args: { alertConfigId: 'abc', enabled: false },
    preview: { action: 'Disable alert configuration abc', target: { alertConfigId: 'abc' } },
  });
  const path = `/approvals/${pending.approvalId}`;
  return { service, origin, path, id: pending.approvalId };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = 'application/x-www-form-urlencoded';

describe('approval routes', () => {
  it('serves the page with a Strict HttpOnly cookie scoped to the approval and strict security headers', async () => {
    const { origin, path } = await setup();
    const { page, cookie } = await pageForm(`${origin}${path}`);
    expect(page.status).toBe(200);
    expect(String(page.headers['set-cookie'])).toMatch(
      new RegExp(`^dbops_csrf=[\\w-]+; Path=${path}; HttpOnly; SameSite=Strict; Max-Age=\\d+$`),
    );
    expect(cookie).toMatch(/^dbops_csrf=/);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('accepts the page’s own POST and redirects to the result', async () => {
    const { service, origin, path, id } = await setup();
    const { cookie, csrf } = await pageForm(`${origin}${path}`);
    const r = await hit(
      origin,
      'POST',
      path,
      { 'content-type': FORM, origin, cookie, 'sec-fetch-site': 'same-origin' },
      form({ csrf, decision: 'approve' }),
    );
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe(path);
    expect((await service.channel.get(id))?.state).toBe('approved');
    const after = await hit(origin, 'GET', path);
    expect(after.body).toContain('Approved.');
    const again = await hit(
      origin,
      'POST',
      path,
      { 'content-type': FORM, origin, cookie },
      form({ csrf, decision: 'decline' }),
    );
    expect(again.status).toBe(409);
    expect((await service.channel.get(id))?.state).toBe('approved');
  });

  it('refuses forged and incomplete POSTs and GET never decides', async () => {
    const { service, origin, path, id } = await setup();
    const { cookie, csrf } = await pageForm(`${origin}${path}`);
    const body = form({ csrf, decision: 'approve' });
    const cases: Array<Record<string, string>> = [
      { 'content-type': FORM, origin: 'https://evil.example', cookie }, // another site
      { 'content-type': FORM, origin, cookie, 'sec-fetch-site': 'cross-site' },
      { 'content-type': FORM, origin: 'null', cookie },
      { 'content-type': FORM, cookie }, // no Origin
      { 'content-type': FORM, origin }, // no cookie
      { 'content-type': FORM, origin, cookie: 'dbops_csrf=someone-elses-secret' },
    ];
    for (const headers of cases) expect((await hit(origin, 'POST', path, headers, body)).status).toBe(403);
    const wrongSecret = await hit(
      origin,
      'POST',
      path,
      { 'content-type': FORM, origin, cookie: 'dbops_csrf=guess' },
      form({ csrf: 'guess', decision: 'approve' }),
    );
    expect(wrongSecret.status).toBe(403);
    await hit(origin, 'GET', `${path}?decision=approve&csrf=${csrf}`);
    expect((await hit(origin, 'PUT', path, { origin, cookie }, body)).status).toBe(405);
    expect((await service.channel.get(id))?.state).toBe('pending');
  });

  it('refuses foreign Host names on loopback (DNS rebinding)', async () => {
    const { origin, path } = await setup();
    expect((await hit(origin, 'GET', path, { host: 'attacker.example:80' })).status).toBe(403);
    expect((await hit(origin, 'GET', '/approvals', { host: 'localhost' })).status).toBe(200);
  });

  it('answers 404 for unknown ids and lists pending approvals', async () => {
    const { origin } = await setup();
    expect((await hit(origin, 'GET', '/approvals/AAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    const list = await hit(origin, 'GET', '/approvals');
    expect(list.body).toContain('Disable alert configuration abc');
    expect((await hit(origin, 'GET', '/')).headers.location).toBe('/approvals');
  });

  it('needs the bearer token beyond loopback, exchanged once into a cookie', async () => {
    const token = 'a-long-bearer-token-123456';
    const { service, origin, path, id } = await setup(token);
    // Without the (SameSite=Strict) sign-in cookie: one navigation from the page itself, then the sign-in.
    const bounce = await hit(origin, 'GET', path);
    expect(bounce.status).toBe(200);
    expect(bounce.body).toContain(`<meta http-equiv="refresh" content="0;url=${path}?b=1">`);
    const anonymous = await hit(origin, 'GET', `${path}?b=1`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toContain('<label for="token">Access token</label>');
    expect((await hit(origin, 'GET', `${path}?token=wrong`)).status).toBe(401);

    const exchange = await hit(origin, 'GET', `${path}?token=${token}`);
    expect(exchange.status).toBe(303);
    expect(exchange.headers.location).toBe(path);
    const auth = String(exchange.headers['set-cookie']).split(';')[0]!;
    expect(String(exchange.headers['set-cookie'])).toContain('HttpOnly');

    const login = await hit(
      origin,
      'POST',
      '/approvals/login',
      { 'content-type': FORM, origin },
      form({ token, next: path }),
    );
    expect(login.status).toBe(303);

    const { page, cookie: csrfCookie, csrf } = await pageForm(`${origin}${path}`, { cookie: auth });
    expect(page.status).toBe(200);
    const decline = form({ csrf, decision: 'decline' });
    const without = await hit(
      origin,
      'POST',
      path,
      { 'content-type': FORM, origin, cookie: csrfCookie },
      decline,
    );
    expect(without.status).toBe(401);
    const r = await hit(
      origin,
      'POST',
      path,
      { 'content-type': FORM, origin, cookie: `${auth}; ${csrfCookie}` },
      decline,
    );
    expect(r.status).toBe(303);
    expect((await service.channel.get(id))?.state).toBe('declined');
  });
});
