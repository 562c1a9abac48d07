// Server side of HTTP Digest (RFC 7616) as the platform speaks it: MD5, qop=auth, one realm. Nonces live in
// a bounded table with a lifetime and an optional use limit so that clients meet `stale=true` for real.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const REALM = 'MMS Public API';
const MAX_NONCES = 10_000;

interface NonceLimits {
  /** Lifetime of a nonce in ms. */
  ttlMs: number;
  /** Uses allowed per nonce; 0 = unlimited. */
  maxUses: number;
}

type DigestResult =
  | { ok: true; username: string }
  /** `stale`: the credentials were right but the nonce is no longer usable. `badCredentials`: a failed attempt. */
  | { ok: false; stale: boolean; badCredentials: boolean };

export interface DigestVerifier {
  /** Issues a fresh nonce and returns the WWW-Authenticate header value. */
  challenge(stale: boolean): string;
  /**
   * Checks an Authorization header. `uri` is the request target as sent (path + query); `passwordOf`
   * returns the private key of a public key, or undefined when unknown.
   */
  verify(
    header: string | undefined,
    method: string,
    uri: string,
    passwordOf: (username: string) => string | undefined,
  ): DigestResult;
  /** Number of live nonces (for tests of the bound). */
  size(): number;
}

interface NonceEntry {
  created: number;
  uses: number;
  /** Highest count seen, and the counts seen within NC_WINDOW below it: a repeat is a replay. */
  maxNc: number;
  seen: Set<number>;
}

// Concurrent requests signed in order can arrive out of order; counts this far behind the highest are refused.
const NC_WINDOW = 64;

const md5 = (s: string): string => createHash('md5').update(s, 'utf8').digest('hex');

/**
 * Parses `Digest k=v, k="v", ...` tolerantly: any order, quoted or bare values, backslash escapes in
 * quoted strings, case-insensitive names. Returns undefined when the scheme is not Digest.
 */
export function parseDigestHeader(header: string): Record<string, string> | undefined {
  const m = /^\s*Digest\s+/i.exec(header);
  if (!m) return undefined;
  const out: Record<string, string> = {};
  const s = header.slice(m[0].length);
  let i = 0;
  while (i < s.length) {
    while (i < s.length && (s[i] === ',' || s[i] === ' ' || s[i] === '\t')) i++;
    const nameStart = i;
    while (i < s.length && s[i] !== '=' && s[i] !== ',') i++;
    const name = s.slice(nameStart, i).trim().toLowerCase();
    if (s[i] !== '=') continue; // a bare token without value: ignore it
    i++;
    while (s[i] === ' ' || s[i] === '\t') i++;
    let value = '';
    if (s[i] === '"') {
      i++;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '\\' && i + 1 < s.length) i++;
        value += s[i];
        i++;
      }
      i++; // closing quote
    } else {
      const start = i;
      while (i < s.length && s[i] !== ',') i++;
      value = s.slice(start, i).trim();
    }
    if (name) out[name] = value;
  }
  return out;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `clock` is a monotonic ms clock; nonce lifetimes follow real time even when the simulator's date is fixed. */
export function createDigestVerifier(
  limits: () => NonceLimits,
  clock: () => number = () => performance.now(),
): DigestVerifier {
  const nonces = new Map<string, NonceEntry>();

  function newNonce(): string {
    // 23 or 24 random bytes: base64 with and without a trailing '=', and often '+' or '/'.
    const bytes = randomBytes(24);
    const nonce = (bytes[0]! & 1 ? bytes.subarray(1) : bytes).toString('base64');
    nonces.set(nonce, { created: clock(), uses: 0, maxNc: 0, seen: new Set() });
    // Map keeps insertion order: the first keys are the oldest.
    for (const oldest of nonces.keys()) {
      if (nonces.size <= MAX_NONCES) break;
      nonces.delete(oldest);
    }
    return nonce;
  }

  function usable(entry: NonceEntry | undefined): entry is NonceEntry {
    if (!entry) return false;
    const { ttlMs, maxUses } = limits();
    if (clock() - entry.created > ttlMs) return false;
    return maxUses <= 0 || entry.uses < maxUses;
  }

  return {
    challenge(stale) {
      return `Digest realm="${REALM}", domain="", nonce="${newNonce()}", algorithm=MD5, qop="auth", stale=${stale}`;
    },

    verify(header, method, uri, passwordOf) {
      if (!header) return { ok: false, stale: false, badCredentials: false };
      const fail = { ok: false, stale: false, badCredentials: true } as const;
      const p = parseDigestHeader(header);
      if (!p) return fail;
      const { username, realm, nonce, response, cnonce } = p;
      const ncText = p['nc'];
      const qop = p['qop'];
      if (!username || !nonce || !response || !cnonce || ncText === undefined || p['uri'] === undefined) {
        return fail;
      }
      if (realm !== REALM || qop?.toLowerCase() !== 'auth') return fail;
      if (p['algorithm'] !== undefined && p['algorithm'].toUpperCase() !== 'MD5') return fail;
      if (p['uri'] !== uri) return fail;
      if (!/^[0-9a-f]{1,8}$/i.test(ncText)) return fail;
      const nc = Number.parseInt(ncText, 16);
      if (nc === 0) return fail;
      const password = passwordOf(username);
      if (password === undefined) return fail;
      const ha1 = md5(`${username}:${REALM}:${password}`);
      const ha2 = md5(`${method}:${uri}`);
      // The client's nc is hashed as sent (padded or not): that is what it signed.
      const expected = md5(`${ha1}:${nonce}:${ncText}:${cnonce}:${qop}:${ha2}`);
      if (!sameText(expected, response.toLowerCase())) return fail;
      const entry = nonces.get(nonce);
      if (!usable(entry)) {
        nonces.delete(nonce);
        return { ok: false, stale: true, badCredentials: false };
      }
      if (entry.seen.has(nc) || nc <= entry.maxNc - NC_WINDOW) return fail; // replayed, or too old to tell
      entry.seen.add(nc);
      if (nc > entry.maxNc) {
        entry.maxNc = nc;
        for (const old of entry.seen) if (old <= nc - NC_WINDOW) entry.seen.delete(old);
      }
      entry.uses++;
      return { ok: true, username };
    },

    size: () => nonces.size,
  };
}
