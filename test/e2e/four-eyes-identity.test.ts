// Trust, fifth round, findings 2 and 9: one person, one identity. Under OAuth a person is the issuer and the
// token's sub; an address is how they are shown and how approvers are listed. bob asked with a token naming
// him by sub and approved his own request with one that adds his verified email (in any case, with a trailing
// space); a token whose sub is "bob@example.com" was the approver bob; an approver with a read-only token
// decided others' changes. A tiny issuer (metadata and keys) stands in; its tokens are signed here and
// verified by the server with jose like any other.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentity } from '../../src/identity/index.js';
import { silentLogger } from '../../src/log.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { raw, rawInitialize } from '../helpers/http.js';
import { client, teamServer } from '../helpers/team.js';

type Key = Parameters<SignJWT['sign']>[0];
const AUD = 'https://ops-mcp.example.com/mcp';
const READ = 'dbops:read';
const WRITE = 'dbops:write';
let sim: Simulator;
let idp: Server;
let issuer: string;
let signing: { sign: Key; jwk: JWK };

beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
  const pair = await generateKeyPair('ES256', { extractable: true });
  signing = {
    sign: pair.privateKey as Key,
    jwk: { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' },
  };
  idp = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration')
      return res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    if (req.url === '/jwks') return res.end(JSON.stringify({ keys: [signing.jwk] }));
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await sim?.close();
  await new Promise((r) => idp?.close(r));
});

const token = (claims: Record<string, unknown>, scope = `${READ} ${WRITE}`) =>
  new SignJWT({ scope, ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(issuer)
    .setAudience(AUD)
    .setExpirationTime('10m')
    .sign(signing.sign);
const verified = (sub: string, email: string, scope?: string) =>
  token({ sub, email, email_verified: true }, scope);

/** A team server whose people are the issuer's: bob and dana approve. */
async function oauthTeam() {
  const identity = createIdentity(
    { oauthIssuer: issuer, oauthAudience: AUD, oauthScopes: [READ, WRITE] },
    silentLogger,
  );
  return teamServer(sim, { identity, approvers: ['bob@example.com', 'Dana@Example.com'] });
}

const decide = (origin: string, id: string, bearer: string, decision = 'approve') =>
  raw(
    `${origin}/approvals/${id}`,
    'POST',
    { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    JSON.stringify({ decision }),
  );
const keyArgs = () => ({ desc: `identity key ${Math.random()}`, roles: ['GROUP_READ_ONLY'] });
const keysIn = (desc: string) => sim.store.data.apiKeys.filter((k) => k.desc === desc).length;
const approvalIdOf = (r: { structured?: Record<string, unknown> }) =>
  String((r.structured?.confirmation as { approvalId?: string } | undefined)?.approvalId);

describe('finding 2: an approver cannot approve his own request under a second spelling of himself', () => {
  it('bob by sub, then bob by email in any spelling: one person; a sub that looks like his address is nobody', async () => {
    const s = await oauthTeam();
    const bySub = await token({ sub: 'bob-7f3a' });
    const bob = await client('pinned', s.http.url, () => bySub);
    try {
      const args = keyArgs();
      const asked = await bob.call('create_project_api_key', args);
      expect(asked.structured?.outcome, asked.text).toBe('approval_pending');
      const id = approvalIdOf(asked);
      for (const email of ['bob@example.com', 'Bob@Example.com', 'bob@example.com ']) {
        const r = await decide(s.http.origin, id, await verified('bob-7f3a', email));
        expect(r.status, `${email}: ${r.body}`).toBe(403);
        expect(JSON.parse(r.body).error).toBe('four_eyes');
      }
      // A token whose sub is bob's address, with no email, is not the approver bob: it sees nothing.
      const posing = await decide(s.http.origin, id, await token({ sub: 'bob@example.com' }));
      expect([403, 404]).toContain(posing.status);
      expect((await s.approvals.channel.get(id))?.state).toBe('pending');
      expect(keysIn(args.desc)).toBe(0);
      // Dana, an approver listed as "Dana@Example.com", decides with her own token.
      const dana = await decide(s.http.origin, id, await verified('dana-1', ' dana@example.com'));
      expect(dana.status, dana.body).toBe(200);
      const done = await bob.call('create_project_api_key', {
        ...args,
        projectId: sim.projectIds[0],
        approvalId: id,
      });
      expect(done.structured?.outcome, done.text).toBe('executed');
      expect(keysIn(args.desc)).toBe(1);
    } finally {
      await bob.close();
      await s.close();
    }
  });

  it("two tokens of bob's with other subs but his verified address are one person", async () => {
    const s = await oauthTeam();
    const agentToken = await verified('bob-agent', 'bob@example.com');
    const agent = await client('pinned', s.http.url, () => agentToken);
    try {
      const args = keyArgs();
      const id = approvalIdOf(await agent.call('create_project_api_key', args));
      const r = await decide(s.http.origin, id, await verified('bob-laptop', 'BOB@example.com'));
      expect(r.status, r.body).toBe(403);
      expect(JSON.parse(r.body).error).toBe('four_eyes');
      expect(keysIn(args.desc)).toBe(0);
    } finally {
      await agent.close();
      await s.close();
    }
  });
});

describe('finding 9: an approver whose token cannot change decides nothing', () => {
  it("dana with a read-only token can see alice's request but neither approve nor decline it", async () => {
    const s = await oauthTeam();
    const aliceToken = await verified('alice-1', 'alice@example.com');
    const alice = await client('pinned', s.http.url, () => aliceToken);
    try {
      const args = keyArgs();
      const id = approvalIdOf(await alice.call('create_project_api_key', args));
      const readOnly = await verified('dana-1', 'dana@example.com', READ);
      for (const decision of ['approve', 'decline']) {
        const r = await decide(s.http.origin, id, readOnly, decision);
        expect(r.status, r.body).toBe(403);
        expect(JSON.parse(r.body)).toMatchObject({ error: 'read_only' });
        expect(JSON.parse(r.body).detail).toContain('DBOPS_OAUTH_SCOPES');
      }
      expect((await s.approvals.channel.get(id))?.state).toBe('pending');
      expect(keysIn(args.desc)).toBe(0);
    } finally {
      await alice.close();
      await s.close();
    }
  });
});

describe('finding 9: what a session sees follows the token of each request; echoed headers are bounded', () => {
  it('a 2025 session opened with a write token lists reads only once its requests carry a read-only token', async () => {
    const s = await oauthTeam();
    let bearer = await verified('alice-1', 'alice@example.com');
    const c = new V1Client({ name: 'scopes', version: '1' });
    await c.connect(
      new V1Http(new URL(s.http.url), {
        fetch: (input, init) => {
          const headers = new Headers(init?.headers);
          headers.set('authorization', `Bearer ${bearer}`);
          return fetch(input, { ...init, headers });
        },
      }),
    );
    try {
      const names = async () => (await c.listTools()).tools.map((t) => t.name);
      expect(await names()).toContain('set_alert_config_enabled');
      bearer = await verified('alice-1', 'alice@example.com', READ);
      const after = await names();
      expect(after).toContain('list_open_alerts');
      expect(after).not.toContain('set_alert_config_enabled');
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('a 14 KB X-MCP-Toolsets of unknown names draws a short refusal', async () => {
    const s = await oauthTeam();
    try {
      const header = Array.from({ length: 1400 }, (_, i) => `nope${i}`).join(',');
      expect(header.length).toBeGreaterThan(10_000);
      const r = await rawInitialize(s.http.url, {
        authorization: `Bearer ${await verified('alice-1', 'alice@example.com')}`,
        'x-mcp-toolsets': header,
      });
      expect(r.body).toContain('unknown toolset');
      expect(r.body.length).toBeLessThan(2_000);
    } finally {
      await s.close();
    }
  });
});

describe("finding 8: a client's self-chosen name is sanitized and bounded where it enters", () => {
  it('no bidi or invisible characters, and at most 60 characters, in the audit and on the approval page', async () => {
    const s = await teamServer(sim);
    const name = `\u202E\u200Bbob (approver) `.repeat(20);
    const alice = await client('v1', s.http.url, () => s.people.alice.token, name, false);
    try {
      const id = approvalIdOf(await alice.call('create_project_api_key', keyArgs()));
      const lines = readFileSync(s.t.config.auditLog, 'utf8').trim().split('\n');
      const last = JSON.parse(lines.at(-1) as string) as { client: string; approvalId?: string };
      expect(last.approvalId).toBe(id);
      expect(last.client.length).toBeLessThanOrEqual(60);
      expect(last.client).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F]/);
      const page = await raw(`${s.http.origin}/approvals/${id}`, 'GET', {
        authorization: `Bearer ${s.people.bob.token}`,
        accept: 'application/json',
      });
      const shown = JSON.parse(page.body).requester.client as string;
      expect(shown.length).toBeLessThanOrEqual(60);
      expect(shown).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F]/);
    } finally {
      await alice.close();
      await s.close();
    }
  });
});
