// Who asks, who approves — against a real authorization server. `oidc-provider` runs in this process and
// issues the tokens: client credentials for each person's agent (JWT access tokens for our resource, the
// person's email in them) and authorization code with PKCE for the approval page's sign-in, driven in
// Chromium through the provider's own login and consent pages. The MCP v2 client makes the calls with those
// tokens. Hand-made tokens appear only where a token must be broken (expired, unsigned, not yet valid); they
// are signed with the provider's own key so that nothing but the broken claim differs.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client,
  ClientCredentialsProvider,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/index.js';
import { silentLogger } from '../../src/log.js';
import type { RunningHttp } from '../../src/mcp/http/index.js';
import { createRuntime, type Runtime } from '../../src/mcp/runtime.js';
import { hasChromium, withChromium } from '../helpers/browser.js';
import { raw, rawInitialize } from '../helpers/http.js';
import { startTestHttp } from '../helpers/mcp.js';

const READ = 'dbops:read';
const WRITE = 'dbops:write';
const TOOL = 'set_alert_config_enabled';

/** Each agent is one person's: its client id at the issuer, and the email its tokens carry. */
const PEOPLE: Record<string, { email: string; scope: string }> = {
  'alice-agent': { email: 'alice@example.com', scope: `${READ} ${WRITE}` },
  'bob-agent': { email: 'bob@example.com', scope: `${READ} ${WRITE}` },
  'carol-agent': { email: 'carol@example.com', scope: READ },
};
const SECRET = 'agent-secret-0123456789';

let idp: Server;
let issuer: string;
let key: { privateKey: SigningKey; jwk: JWK };
type SigningKey = Parameters<SignJWT['sign']>[0];
let runtime: Runtime;
let http: RunningHttp;
let auditLog: string;
/** Resource servers the issuer knows: ours, and one other (for a token of another audience). */
let resource = '';
const OTHER = 'https://other.example/mcp';

beforeAll(async () => {
  // The issuer's address first: our server needs it, the issuer needs our callback address.
  idp = createServer();
  await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
  const pair = await generateKeyPair('RS256', { extractable: true });
  key = {
    privateKey: pair.privateKey as SigningKey,
    jwk: { ...(await exportJWK(pair.privateKey)), kid: 'k1', alg: 'RS256', use: 'sig' },
  };

  const dir = mkdtempSync(join(tmpdir(), 'dbops-identity-'));
  auditLog = join(dir, 'audit.log');
  runtime = await createRuntime(
    configSchema.parse({
      demo: true,
      transport: 'http',
      port: 0,
      confirmVia: 'approval-page',
      oauthIssuer: issuer,
      oauthScopes: `${READ},${WRITE}`,
      oauthClientId: 'approval-page',
      approvers: 'bob@example.com',
      auditLog,
      secretsDir: join(dir, 'secrets'),
      stateDir: join(dir, 'state'),
    }),
    silentLogger,
  );
  http = await startTestHttp(runtime.deps, {
    logger: silentLogger,
    identity: runtime.identity,
    routes: runtime.approvals?.routes,
  });
  runtime.approvals?.useOrigin(http.origin);
  resource = http.url;

  const provider = new Provider(issuer, {
    jwks: { keys: [key.jwk] },
    clients: [
      ...Object.keys(PEOPLE).map((id) => ({
        client_id: id,
        client_secret: SECRET,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        scope: PEOPLE[id]!.scope,
      })),
      {
        client_id: 'approval-page',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [`${http.origin}/approvals/callback`],
      },
    ],
    scopes: ['openid', 'email', 'profile', READ, WRITE],
    claims: { email: ['email', 'email_verified'], profile: ['preferred_username'] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== resource && indicator !== OTHER) throw new Error(`unknown resource ${indicator}`);
          return {
            scope: `${READ} ${WRITE}`,
            audience: indicator,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 600,
          };
        },
      },
    },
    // The person in every access token: the agent's owner, or the signed-in account.
    extraTokenClaims: (_ctx: unknown, token: { clientId?: string; accountId?: string }) =>
      token.accountId
        ? { email: `${token.accountId}@example.com`, email_verified: true }
        : { email: PEOPLE[token.clientId ?? '']?.email, email_verified: true },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub, email: `${sub}@example.com`, email_verified: true }),
    }),
  } as unknown as ConstructorParameters<typeof Provider>[1]);
  idp.on('request', provider.callback());
}, 60_000);

afterAll(async () => {
  await http?.close();
  await runtime?.close();
  idp?.closeAllConnections();
  await new Promise((r) => idp?.close(r));
});

/** A client-credentials token from the issuer, for our resource unless another is named. */
async function tokenFor(agent: string, opts: { scope?: string; resource?: string } = {}): Promise<string> {
  const res = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${agent}:${SECRET}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      scope: opts.scope ?? PEOPLE[agent]!.scope,
      resource: opts.resource ?? resource,
    }),
  });
  const body = (await res.json()) as { access_token?: string; error_description?: string };
  if (!body.access_token) throw new Error(`no token for ${agent}: ${body.error_description}`);
  return body.access_token;
}

async function mcp(token: string, name: string) {
  const c = new Client({ name, version: '7.1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const call = async (tool: string, args: Record<string, unknown>) => {
    const r = await c.callTool({ name: tool, arguments: args });
    return {
      text: (r.content as Array<{ text?: string }>).map((x) => x.text ?? '').join('\n'),
      structured: r.structuredContent as Record<string, unknown>,
      isError: r.isError === true,
    };
  };
  return { c, call };
}

const post = (headers: Record<string, string>) => rawInitialize(http.url, headers);

/** A token like the issuer's, signed with its own key, with one claim changed. */
const forged = (claims: Record<string, unknown>, alg = 'RS256') =>
  new SignJWT({
    sub: 'alice',
    email: 'alice@example.com',
    email_verified: true,
    scope: `${READ} ${WRITE}`,
    ...claims,
  })
    .setProtectedHeader({ alg, kid: 'k1' })
    .setIssuer(issuer)
    .setAudience(resource)
    .setIssuedAt()
    .setExpirationTime((claims.exp as number | undefined) ?? '5m')
    .sign(key.privateKey);

describe('the server as an OAuth resource server', () => {
  it('publishes its Protected Resource Metadata with exactly the URL clients connect to, and points to it on 401', async () => {
    const meta = await raw(`${http.origin}/.well-known/oauth-protected-resource/mcp`, 'GET');
    expect(meta.status).toBe(200);
    const doc = JSON.parse(meta.body) as Record<string, unknown>;
    expect(doc).toMatchObject({
      resource: http.url,
      authorization_servers: [issuer],
      scopes_supported: [READ, WRITE],
    });
    expect(
      JSON.parse((await raw(`${http.origin}/.well-known/oauth-protected-resource`, 'GET')).body),
    ).toEqual(doc);

    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe(
      `Bearer resource_metadata="${http.origin}/.well-known/oauth-protected-resource/mcp", scope="${READ} ${WRITE}"`,
    );
  });

  it('lets the MCP SDK client sign in by itself: 401, the metadata, the issuer, a client-credentials token for this resource', async () => {
    const c = new Client(
      { name: 'sdk-oauth', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await c.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        authProvider: new ClientCredentialsProvider({
          clientId: 'alice-agent',
          clientSecret: SECRET,
          scope: `${READ} ${WRITE}`,
          expectedIssuer: issuer,
        }),
      }),
    );
    const tools = (await c.listTools()).tools.map((t) => t.name);
    expect(tools).toContain(TOOL);
    await c.close();
  });

  it('refuses a token for another audience, an expired one, an unsigned one and one not valid yet, each saying why', async () => {
    const other = await tokenFor('alice-agent', { resource: OTHER });
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ iss: issuer, aud: resource, exp: now + 300, email: 'mallory@example.com' }),
    ).toString('base64url')}.`;
    const cases: Array<[string, RegExp]> = [
      [other, /issued for another audience \("https:\/\/other\.example\/mcp"\)/],
      [await forged({ exp: now - 120 }), /expired at .*get a new one/],
      [unsigned, /not signed/],
      [await forged({ nbf: now + 600 }), /not valid yet/],
      [`${(await forged({})).slice(0, -4)}AAAA`, /signature does not verify/],
    ];
    for (const [token, why] of cases) {
      const r = await post({ authorization: `Bearer ${token}` });
      expect(r.status, String(why)).toBe(401);
      expect(JSON.parse(r.body).detail).toMatch(why);
      expect(r.headers['www-authenticate']).toMatch(/^Bearer resource_metadata=".*", error="invalid_token"/);
    }
  });

  it('answers 403 insufficient_scope to a token with neither scope, and never takes an access token from a URL', async () => {
    const r = await post({ authorization: `Bearer ${await forged({ scope: 'openid' })}` });
    expect(r.status).toBe(403);
    expect(r.headers['www-authenticate']).toMatch(/error="insufficient_scope"/);
    expect(JSON.parse(r.body).detail).toContain(`neither scope "${READ}"`);
    const inUrl = await raw(`${http.origin}/approvals?token=${await tokenFor('bob-agent')}&b=1`, 'GET');
    expect(inUrl.status).toBe(401);
    expect(inUrl.headers['set-cookie']).toBeUndefined();
  });

  it('gives a token without the write scope the read-only catalog', async () => {
    const carol = await mcp(await tokenFor('carol-agent'), 'carol-cli');
    const tools = (await carol.c.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('list_open_alerts');
    expect(tools).not.toContain(TOOL);
    const refused = await carol.call(TOOL, { alertConfigId: 'x', enabled: false });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(`lacks the "${WRITE}" scope`);
    await carol.c.close();
  });

  it('binds a 2025 session to the person who opened it', async () => {
    const alice = await tokenFor('alice-agent');
    const opened = await post({ authorization: `Bearer ${alice}` });
    expect(opened.status).toBe(200);
    const session = String(opened.headers['mcp-session-id']);
    const bob = await tokenFor('bob-agent');
    const stolen = await raw(
      http.url,
      'POST',
      {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${bob}`,
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
      },
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    );
    expect(stolen.status).toBe(403);
    expect(stolen.body).toContain('opened by another person');
  });
});

describe.skipIf(!hasChromium)('two people, one server: who asks, who approves', () => {
  const chromium = withChromium();

  it('alice asks, sees only her own request and cannot approve it; bob signs in with the issuer and approves; the audit says who', async () => {
    const aliceToken = await tokenFor('alice-agent');
    const bobToken = await tokenFor('bob-agent');
    const carolToken = await tokenFor('carol-agent');
    const alice = await mcp(aliceToken, 'alice-cli');

    // A deletion: four eyes.
    const windows = await alice.call('list_maintenance_windows', {});
    const window = (windows.structured.results as Array<Record<string, unknown>>)[0]!;
    const args = { maintenanceWindowId: window.id };
    const first = await alice.call('delete_maintenance_window', args);
    expect(first.structured.outcome).toBe('approval_pending');
    const { approvalId, url } = first.structured.confirmation as { approvalId: string; url: string };
    // The model is told the truth: the person who asked cannot approve this one themselves.
    for (const said of [first.text, first.structured.nextStep as string])
      expect(said).toContain('an approver other than the person who asked (DBOPS_APPROVERS)');

    // The page's JSON for scripts, with the same tokens as /mcp: each viewer sees their own, approvers all.
    const list = async (token: string) =>
      JSON.parse(
        (await raw(`${http.origin}/approvals?format=json`, 'GET', { authorization: `Bearer ${token}` })).body,
      ) as { approvals: Array<{ id: string; requester: { person: string; client: string } }> };
    expect((await list(aliceToken)).approvals.map((a) => a.id)).toEqual([approvalId]);
    expect((await list(aliceToken)).approvals[0]!.requester).toEqual({
      person: 'alice@example.com',
      client: 'alice-cli 7.1',
    });
    expect((await list(carolToken)).approvals).toEqual([]);
    expect((await list(bobToken)).approvals.map((a) => a.id)).toEqual([approvalId]);
    const carolPeeks = await raw(`${http.origin}/approvals/${approvalId}?format=json`, 'GET', {
      authorization: `Bearer ${carolToken}`,
    });
    expect(carolPeeks.status).toBe(404);

    // Four eyes: a deletion, and alice asked for it.
    const selfApproval = await raw(
      `${http.origin}/approvals/${approvalId}`,
      'POST',
      { authorization: `Bearer ${aliceToken}`, 'content-type': 'application/json' },
      JSON.stringify({ decision: 'approve' }),
    );
    expect(selfApproval.status).toBe(403);
    expect(JSON.parse(selfApproval.body)).toMatchObject({ error: 'four_eyes' });
    // The link alice's assistant showed her shows her request and nothing more: deciding needs a sign-in.
    expect(url).toMatch(new RegExp(`/approvals/${approvalId}\\?as=[\\w-]{43}$`));
    const viaLink = await raw(url, 'GET');
    expect(viaLink.status).toBe(200);
    expect(viaLink.body).toContain('This link shows the request only');
    expect(viaLink.body).not.toContain('value="approve"');
    expect(viaLink.body).not.toContain('value="decline"');
    // One character changed (never to itself: a link whose first character was 'A' stayed valid, 1 run in 64).
    const tampered = await raw(
      url.replace(/as=(.)/, (_, c: string) => `as=${c === 'A' ? 'B' : 'A'}`),
      'GET',
    );
    expect(tampered.status).toBe(200); // the bounce: no viewer yet
    expect(tampered.body).toContain('http-equiv="refresh"');

    // Bob, in a browser: the link alice's assistant showed, the issuer's sign-in, then the page.
    const page = await chromium().newPage();
    await page.goto(`${http.origin}/approvals/${approvalId}`);
    await page.getByRole('link', { name: /Sign in with/ }).click();
    await page.locator('input[name=login]').fill('bob');
    await page.locator('input[name=password]').fill('any');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${http.origin}/approvals/${approvalId}`);
    const main = await page.locator('main').innerText();
    expect(main).toContain('requested by alice@example.com with alice-cli 7.1');
    expect(main).toContain('Signed in as bob@example.com (approver)');
    const cookie = (await chromium().cookies(`${http.origin}/approvals/${approvalId}`)).find(
      (c) => c.name === 'dbops_auth',
    )!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Approve' }).click(),
    ]);
    await page.waitForLoadState();
    expect(await page.locator('main').innerText()).toContain('Approved');

    // Only alice's own client resumes it; then the audit names both people.
    const done = await alice.call('delete_maintenance_window', { ...args, approvalId });
    expect(done.structured.outcome).toBe('executed');
    const entries = readFileSync(auditLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => e.approvalId === approvalId);
    expect(entries.map((e) => e.outcome)).toEqual(['approval_pending', 'confirmed', 'executed']);
    for (const e of entries)
      expect(e).toMatchObject({ requester: 'alice@example.com', client: 'alice-cli 7.1' });
    expect(entries.at(-1)).toMatchObject({ channel: 'approval-page', approver: 'bob@example.com' });
    expect(entries[1]).toMatchObject({ approver: 'bob@example.com' });
    expect(readFileSync(auditLog, 'utf8')).not.toContain(aliceToken.slice(-20));
    await alice.c.close();
  }, 90_000);
});
