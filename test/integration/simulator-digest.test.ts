// The digest verifier on its own: tolerant header parsing, stale vs. failed, the bound on the nonce table.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDigestVerifier, parseDigestHeader, REALM } from '../../src/simulator/digest-server.js';
import { parseChallenge, signDigest } from '../helpers/sim.js';

const keys = { publicKey: 'pubkeyab', privateKey: 'secret-value' };
const passwordOf = (u: string) => (u === keys.publicKey ? keys.privateKey : undefined);

describe('parseDigestHeader', () => {
  it('reads quoted and bare values in any order, with escapes and commas inside quotes', () => {
    expect(
      parseDigestHeader(
        'digest  NC=1,algorithm="MD5" , username="a\\"b", uri="/x?a=1,2", qop=auth,realm="MMS Public API"',
      ),
    ).toEqual({ nc: '1', algorithm: 'MD5', username: 'a"b', uri: '/x?a=1,2', qop: 'auth', realm: REALM });
  });

  it('refuses other schemes', () => {
    expect(parseDigestHeader('Basic YTpi')).toBeUndefined();
  });
});

describe('digest verifier', () => {
  function setup(limits = { ttlMs: 1000, maxUses: 0 }) {
    let t = 0;
    const v = createDigestVerifier(
      () => limits,
      () => t,
    );
    return { v, advance: (ms: number) => (t += ms) };
  }
  const sign = (challenge: string, nc = '00000001', k = keys, uri = '/api/public/v1.0/x') =>
    signDigest({ method: 'GET', uri, keys: k, challenge: parseChallenge(challenge), nc });

  it('accepts a correct response and refuses a wrong one', () => {
    const { v } = setup();
    const c = v.challenge(false);
    expect(v.verify(sign(c), 'GET', '/api/public/v1.0/x', passwordOf)).toEqual({
      ok: true,
      username: keys.publicKey,
    });
    const bad = sign(v.challenge(false), '1', { ...keys, privateKey: 'nope' });
    expect(v.verify(bad, 'GET', '/api/public/v1.0/x', passwordOf)).toEqual({
      ok: false,
      stale: false,
      badCredentials: true,
    });
    expect(v.verify(undefined, 'GET', '/x', passwordOf)).toMatchObject({ ok: false, badCredentials: false });
  });

  it('computes the response of RFC 7616 with MD5 and qop=auth', () => {
    // Worked by hand from the RFC's formula, independent of the helper's signer.
    const { v } = setup();
    const nonce = parseChallenge(v.challenge(false)).nonce ?? '';
    const md5 = (s: string) => createHash('md5').update(s).digest('hex');
    const ha1 = md5(`${keys.publicKey}:${REALM}:${keys.privateKey}`);
    const ha2 = md5('DELETE:/api/public/v1.0/y?z=1');
    const response = md5(`${ha1}:${nonce}:00000001:abc:auth:${ha2}`);
    const header = `Digest username="${keys.publicKey}", realm="${REALM}", nonce="${nonce}", uri="/api/public/v1.0/y?z=1", response="${response}", qop=auth, nc=00000001, cnonce="abc"`;
    expect(v.verify(header, 'DELETE', '/api/public/v1.0/y?z=1', passwordOf).ok).toBe(true);
    // Same header for another method is refused: the method is signed.
    const again = setup();
    expect(again.v.verify(header, 'GET', '/api/public/v1.0/y?z=1', passwordOf).ok).toBe(false);
  });

  it('marks an expired nonce stale only when the credentials are right', () => {
    const { v, advance } = setup({ ttlMs: 1000, maxUses: 0 });
    const c = v.challenge(false);
    advance(1001);
    expect(v.verify(sign(c), 'GET', '/api/public/v1.0/x', passwordOf)).toMatchObject({
      ok: false,
      stale: true,
    });
    const c2 = v.challenge(false);
    advance(1001);
    const wrong = sign(c2, '1', { ...keys, privateKey: 'x' });
    expect(v.verify(wrong, 'GET', '/api/public/v1.0/x', passwordOf)).toMatchObject({
      ok: false,
      stale: false,
    });
  });

  it('treats an unknown nonce with correct credentials as stale (e.g. after a restart)', () => {
    const a = setup();
    const b = setup();
    expect(b.v.verify(sign(a.v.challenge(false)), 'GET', '/api/public/v1.0/x', passwordOf)).toMatchObject({
      ok: false,
      stale: true,
    });
  });

  it('keeps at most 10,000 nonces, dropping the oldest', () => {
    const { v } = setup({ ttlMs: 1e9, maxUses: 0 });
    const first = v.challenge(false);
    for (let i = 0; i < 10_050; i++) v.challenge(false);
    expect(v.size()).toBe(10_000);
    expect(v.verify(sign(first), 'GET', '/api/public/v1.0/x', passwordOf)).toMatchObject({
      ok: false,
      stale: true,
    });
    const recent = v.challenge(false);
    expect(v.verify(sign(recent), 'GET', '/api/public/v1.0/x', passwordOf).ok).toBe(true);
  });

  it('refuses other algorithms, a missing qop and a malformed nc', () => {
    const { v } = setup();
    const ok = sign(v.challenge(false));
    for (const tampered of [
      ok.replace('algorithm=MD5', 'algorithm=SHA-256'),
      ok.replace(', qop=auth', ''),
      ok.replace('nc=00000001', 'nc=xyz'),
      ok.replace('nc=00000001', 'nc=123456789'),
    ]) {
      expect(v.verify(tampered, 'GET', '/api/public/v1.0/x', passwordOf).ok).toBe(false);
    }
  });
});
