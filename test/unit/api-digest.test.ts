import { describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  createDigestAuth,
  type DigestChallenge,
  digestResponse,
  formatNc,
  parseAuthenticate,
  parseDigestChallenge,
} from '../../src/api/digest.js';

// RFC 7616 section 3.9.1.
const rfc = {
  username: 'Mufasa',
  password: 'Circle of Life',
  realm: 'http-auth@example.org',
  nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
  cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
  method: 'GET',
  uri: '/dir/index.html',
  nc: '00000001',
  qop: 'auth' as const,
};

describe('digest response (RFC 7616 vectors)', () => {
  it('MD5', () => {
    expect(digestResponse({ ...rfc, algorithm: 'MD5' })).toBe('8ca523f5e9506fed4657c9700eebdbec');
  });
  it('SHA-256', () => {
    expect(digestResponse({ ...rfc, algorithm: 'SHA-256' })).toBe(
      '753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1',
    );
  });
  it('builds the Authorization header with every directive', () => {
    const ch: DigestChallenge = {
      realm: rfc.realm,
      nonce: rfc.nonce,
      algorithm: 'SHA-256',
      qop: 'auth',
      opaque: 'FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS',
      stale: false,
    };
    const h = authorizationHeader(ch, rfc, { method: 'GET', uri: rfc.uri, nc: 1, cnonce: rfc.cnonce });
    expect(h).toMatch(/^Digest /);
    expect(h).toContain('username="Mufasa"');
    expect(h).toContain('realm="http-auth@example.org"');
    expect(h).toContain(`nonce="${rfc.nonce}"`);
    expect(h).toContain('uri="/dir/index.html"');
    expect(h).toContain('algorithm=SHA-256');
    expect(h).toContain('response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"');
    expect(h).toContain('qop=auth');
    expect(h).toContain('nc=00000001');
    expect(h).toContain(`cnonce="${rfc.cnonce}"`);
    expect(h).toContain('opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"');
    expect(h).not.toContain('Circle of Life');
  });
  it('computes a legacy (no qop) response', () => {
    // RFC 2069: H(HA1:nonce:HA2), no nc/cnonce in the header.
    const ch: DigestChallenge = { realm: 'r', nonce: 'n', algorithm: 'MD5', qop: undefined, stale: false };
    const h = authorizationHeader(ch, { username: 'u', password: 'p' }, { method: 'GET', uri: '/x', nc: 1 });
    expect(h).not.toContain('nc=');
    expect(h).not.toContain('qop=');
  });
});

describe('challenge parsing', () => {
  it('reads the challenge of a real server (unquoted algorithm and stale, nonce with + and /)', () => {
    const c = parseDigestChallenge(
      'Digest realm="MMS Public API", domain="", nonce="I+xG4xb7bUgq8uMBCuAxZPI+VDDcJ9q1", algorithm=MD5, qop="auth", stale=false',
    );
    expect(c).toEqual({
      realm: 'MMS Public API',
      nonce: 'I+xG4xb7bUgq8uMBCuAxZPI+VDDcJ9q1',
      algorithm: 'MD5',
      qop: 'auth',
      stale: false,
    });
  });
  it("accepts the docs' spelling: op= and single-quoted values", () => {
    const c = parseDigestChallenge(
      "Digest realm=MMS, domain='', nonce=abc/def+g==, algorithm=MD5, op='auth', stale=false",
    );
    expect(c?.qop).toBe('auth');
    expect(c?.nonce).toBe('abc/def+g==');
    expect(c?.realm).toBe('MMS');
  });
  it('accepts any order, extra spaces, and case-insensitive names and values', () => {
    const c = parseDigestChallenge(
      'Digest   STALE=TRUE ,qop="auth,auth-int",  nonce = "n+/=",Realm="r" , algorithm="md5"',
    );
    expect(c).toMatchObject({ realm: 'r', nonce: 'n+/=', algorithm: 'MD5', qop: 'auth', stale: true });
  });
  it('keeps escaped quotes and commas inside quoted values', () => {
    const c = parseDigestChallenge('Digest realm="a \\"quoted\\", realm", nonce="x"');
    expect(c?.realm).toBe('a "quoted", realm');
  });
  it('prefers SHA-256 when a server offers it next to MD5, across headers and within one', () => {
    const one =
      'Digest realm="r", nonce="m", algorithm=MD5, qop="auth", Digest realm="r", nonce="s", algorithm=SHA-256, qop="auth"';
    expect(parseDigestChallenge(one)?.algorithm).toBe('SHA-256');
    const two = [
      'Digest realm="r", nonce="m", algorithm=MD5, qop=auth',
      'Digest realm="r", nonce="s", algorithm=SHA-256',
    ];
    expect(parseDigestChallenge(two)?.nonce).toBe('s');
  });
  it('ignores other schemes and challenges it cannot answer', () => {
    expect(parseDigestChallenge('Basic realm="x"')).toBeUndefined();
    expect(parseDigestChallenge('Digest realm="x", nonce="n", qop="auth-int"')).toBeUndefined();
    expect(parseDigestChallenge('Digest realm="x", nonce="n", algorithm=SHA-999')).toBeUndefined();
    expect(parseDigestChallenge('Digest realm="x"')).toBeUndefined();
    expect(parseDigestChallenge(undefined)).toBeUndefined();
    expect(parseDigestChallenge('Bearer, Digest realm="x", nonce="n"')?.nonce).toBe('n');
  });
  it('defaults algorithm to MD5 and stale to false, keeps opaque', () => {
    expect(parseDigestChallenge('Digest realm="x", nonce="n", opaque="o", qop=auth')).toEqual({
      realm: 'x',
      nonce: 'n',
      algorithm: 'MD5',
      qop: 'auth',
      opaque: 'o',
      stale: false,
    });
  });
  it('never loops on garbage', () => {
    for (const junk of ['"', '=', ',,,', 'Digest ="x"', 'Digest realm="unterminated', '= = =']) {
      expect(() => parseAuthenticate(junk)).not.toThrow();
    }
  });
});

describe('nonce count', () => {
  it('is 8 lowercase hex digits and never 0', () => {
    expect(formatNc(1)).toBe('00000001');
    expect(formatNc(255)).toBe('000000ff');
    expect(formatNc(0xffffffff)).toBe('ffffffff');
    expect(() => formatNc(0)).toThrow(RangeError);
  });
});

describe('challenge cache', () => {
  const ch = (nonce: string): DigestChallenge => ({
    realm: 'r',
    nonce,
    algorithm: 'MD5',
    qop: 'auth',
    stale: false,
  });

  it('signs with an increasing nc and a fresh cnonce per request', async () => {
    const auth = createDigestAuth({ username: 'u', password: 'p' });
    const first = await auth.prepare('http://h', 'GET', '/a');
    expect('release' in first).toBe(true);
    // The probe answered the challenge with nc=1 and was accepted: later requests continue from 2.
    expect(auth.signFresh(ch('n1'), 'GET', '/a').header).toContain('nc=00000001');
    auth.adopt('http://h', ch('n1'));
    if ('release' in first) first.release();
    const a = auth.sign('http://h', 'GET', '/a')!;
    const b = auth.sign('http://h', 'GET', '/a')!;
    expect(a.header).toContain('nc=00000002');
    expect(b.header).toContain('nc=00000003');
    const cnonce = (h: string) => /cnonce="([^"]+)"/.exec(h)?.[1];
    expect(cnonce(a.header)).not.toBe(cnonce(b.header));
    // Origins do not share challenges.
    expect(auth.sign('http://other', 'GET', '/a')).toBeUndefined();
  });

  it('adopts a renewed challenge only in place of the nonce it replaced', () => {
    const auth = createDigestAuth({ username: 'u', password: 'p' });
    auth.adopt('http://h', ch('n1'));
    auth.adopt('http://h', ch('n2'), 'n1'); // renewed n1: shared from now on
    expect(auth.sign('http://h', 'GET', '/a')).toMatchObject({ nonce: 'n2' });
    auth.adopt('http://h', ch('n3'), 'n1'); // a late renewal of n1: n2 already replaced it
    const next = auth.sign('http://h', 'GET', '/a')!;
    expect(next.nonce).toBe('n2');
    expect(next.header).toContain('nc=00000003');
  });

  it('lets one cold request fetch the challenge while the others wait for it', async () => {
    const auth = createDigestAuth({ username: 'u', password: 'p' });
    const probe = await auth.prepare('http://h', 'GET', '/x');
    const waiting = [1, 2, 3].map(() => auth.prepare('http://h', 'GET', '/x'));
    let settled = false;
    void Promise.all(waiting).then(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    auth.adopt('http://h', ch('n'));
    if ('release' in probe) probe.release();
    const signed = await Promise.all(waiting);
    expect(signed.map((s) => ('header' in s ? /nc=(\w+)/.exec(s.header)?.[1] : 'probe'))).toEqual([
      '00000002',
      '00000003',
      '00000004',
    ]);
  });

  it('hands the probe to a waiter when the first probe failed, and honours abort while waiting', async () => {
    const auth = createDigestAuth({ username: 'u', password: 'p' });
    const probe = await auth.prepare('http://h', 'GET', '/x');
    const ac = new AbortController();
    const aborted = auth.prepare('http://h', 'GET', '/x', ac.signal);
    const next = auth.prepare('http://h', 'GET', '/x');
    ac.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    if ('release' in probe) probe.release(); // failed without learning anything
    expect('release' in (await next)).toBe(true);
  });
});
