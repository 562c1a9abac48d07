// The issuer's keys as they change: kept between tokens, fetched again when a token names a key not seen yet
// (the issuer rotated its keys), and the issuer's metadata read through either well-known address. A tiny
// issuer stands in (metadata and JWKS only); its tokens are signed here, as rotation needs keys we control.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuth, metadataUrls } from '../../src/identity/oauth.js';
import { silentLogger } from '../../src/log.js';

type Key = Parameters<SignJWT['sign']>[0];
let server: Server;
let issuer: string;
let published: JWK[] = [];
let keyFetches = 0;
const AUD = 'https://ops-mcp.example.com/mcp';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/.well-known/openid-configuration') {
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    }
    if (req.url === '/jwks') {
      keyFetches++;
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify({ keys: published }));
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

async function key(kid: string) {
  const pair = await generateKeyPair('ES256', { extractable: true });
  return {
    kid,
    sign: pair.privateKey as Key,
    jwk: { ...(await exportJWK(pair.publicKey)), kid, alg: 'ES256' },
  };
}
const token = (k: { kid: string; sign: Key }, email: string, claims: Record<string, unknown> = {}) =>
  new SignJWT({ sub: `u-${email}`, email, email_verified: true, ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: k.kid })
    .setIssuer(issuer)
    .setAudience(AUD)
    .setExpirationTime('5m')
    .sign(k.sign);

/** This server as a resource server of the test issuer, keys fetched again whenever asked. */
const resourceServer = (more: { personClaim?: string } = {}) =>
  createOAuth({
    issuer,
    audiences: () => [AUD],
    scopes: [],
    logger: silentLogger,
    keysCooldownMs: 0,
    ...more,
  });

describe('the issuer and its keys', () => {
  it('looks for the metadata where RFC 8414 and OpenID put it, path included', () => {
    expect(metadataUrls('https://sso.example.com/realms/ops')).toEqual([
      'https://sso.example.com/.well-known/oauth-authorization-server/realms/ops',
      'https://sso.example.com/realms/ops/.well-known/openid-configuration',
    ]);
  });

  it('keeps the keys between tokens and fetches them again when the issuer rotates them', async () => {
    const [k1, k2] = [await key('k1'), await key('k2')];
    published = [k1.jwk];
    const oauth = resourceServer();
    expect((await oauth.verify(await token(k1, 'priya@example.com'))).name).toBe('priya@example.com');
    expect((await oauth.verify(await token(k1, 'lee@example.com'))).name).toBe('lee@example.com');
    expect(keyFetches).toBe(1);
    // Rotated: the old key is gone, a new one signs. The first token with it fetches the keys again.
    published = [k2.jwk];
    expect((await oauth.verify(await token(k2, 'sam@example.com'))).name).toBe('sam@example.com');
    expect(keyFetches).toBe(2);
    // A key the issuer never published is refused, saying so.
    const stranger = await key('k9');
    await expect(oauth.verify(await token(stranger, 'mallory@example.com'))).rejects.toThrow(
      /signed with a key the issuer does not publish/,
    );
  });
});

describe('who a token names (finding 5 of trust round 4)', () => {
  const verifier = async (personClaim?: string) => {
    const k = await key('kp');
    published = [k.jwk];
    return { k, oauth: resourceServer(personClaim ? { personClaim } : {}) };
  };

  it('takes an address only when the issuer verified it, else the subject', async () => {
    const { k, oauth } = await verifier();
    // Where users may set their own address, an unverified one naming an approver is not that approver.
    const forged = await oauth.verify(
      await token(k, 'bob@example.com', { email_verified: false, sub: 'u-mallory' }),
    );
    expect(forged).toMatchObject({ person: `${issuer}#sub:u-mallory`, name: 'u-mallory' });
    expect(forged.address).toBeUndefined();
    const unsaid = await token(k, 'bob@example.com', { email_verified: undefined, sub: 'u-2' });
    expect((await oauth.verify(unsaid)).address).toBeUndefined();
    const verified = await token(k, 'bob@example.com', { sub: 'u-bob' });
    expect(await oauth.verify(verified)).toMatchObject({
      person: `${issuer}#sub:u-bob`,
      name: 'bob@example.com',
      address: 'bob@example.com',
    });
    // preferred_username is whatever the user typed: never taken by default.
    const named = await token(k, 'x@example.com', {
      email_verified: false,
      preferred_username: 'bob@example.com',
      sub: 'u-3',
    });
    expect((await oauth.verify(named)).address).toBeUndefined();
  });

  it('one person is the issuer and sub, whatever else the token carries (finding 2 of trust round 5)', async () => {
    const { k, oauth } = await verifier();
    const bySub = await oauth.verify(
      await token(k, '', { email: undefined, email_verified: undefined, sub: 'bob-7f3a' }),
    );
    const byMail = await oauth.verify(await token(k, ' Bob@Example.com ', { sub: 'bob-7f3a' }));
    expect(bySub.person).toBe(byMail.person);
    expect(byMail.address).toBe('Bob@Example.com');
    // A sub shaped like an address is a sub: never an address approvers are listed by.
    const posing = await oauth.verify(await token(k, '', { email: undefined, sub: 'bob@example.com' }));
    expect(posing.address).toBeUndefined();
  });

  it('takes the claim DBOPS_OAUTH_PERSON_CLAIM names, and refuses a token without it, saying which', async () => {
    const { k, oauth } = await verifier('upn');
    expect((await oauth.verify(await token(k, 'a@example.com', { upn: 'alice@corp' }))).address).toBe(
      'alice@corp',
    );
    await expect(oauth.verify(await token(k, 'a@example.com', { sub: 'u-1' }))).rejects.toThrow(
      /no "upn" claim \(DBOPS_OAUTH_PERSON_CLAIM\)/,
    );
  });
});
