// HTTP Digest authentication (RFC 7616), client side, without a library. The challenge is cached per
// origin and later requests are signed preemptively (fresh cnonce, increasing nc), so a warm client
// spends one HTTP request per API call instead of the challenge/response pair of naive clients.

import { createHash, randomBytes } from 'node:crypto';
import { abortable } from './abort.js';

type DigestAlgorithm = 'MD5' | 'MD5-sess' | 'SHA-256' | 'SHA-256-sess' | 'SHA-512-256' | 'SHA-512-256-sess';

export interface DigestChallenge {
  realm: string;
  nonce: string;
  algorithm: DigestAlgorithm;
  /** 'auth', or undefined for a legacy RFC 2069 challenge without qop. */
  qop: 'auth' | undefined;
  opaque?: string;
  stale: boolean;
}

interface DigestCredentials {
  username: string;
  password: string;
}

const HASHES: Record<string, string> = { MD5: 'md5', 'SHA-256': 'sha256', 'SHA-512-256': 'sha512-256' };
// Strongest first: when a server offers several challenges, the first supported one here wins.
const PREFERENCE: DigestAlgorithm[] = [
  'SHA-512-256',
  'SHA-512-256-sess',
  'SHA-256',
  'SHA-256-sess',
  'MD5',
  'MD5-sess',
];

interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
}

/**
 * Splits WWW-Authenticate values into challenges. Tolerant on purpose: any parameter order, values
 * quoted ("x"), single-quoted ('x', as printed in the vendor's docs) or bare, bare values holding
 * '+', '/' or '=' (nonces), several challenges in one header or across repeated headers.
 */
export function parseAuthenticate(header: string | string[] | undefined): AuthChallenge[] {
  const out: AuthChallenge[] = [];
  for (const h of Array.isArray(header) ? header : header === undefined ? [] : [header]) {
    let i = 0;
    let current: AuthChallenge | undefined;
    const skip = (chars: RegExp) => {
      while (i < h.length && chars.test(h[i]!)) i++;
    };
    while (i < h.length) {
      skip(/[\s,]/);
      if (i >= h.length) break;
      const start = i;
      while (i < h.length && !/[\s,="]/.test(h[i]!)) i++;
      const token = h.slice(start, i);
      skip(/\s/);
      if (h[i] === '=' && token) {
        i++;
        skip(/\s/);
        let value = '';
        if (h[i] === '"') {
          i++;
          while (i < h.length && h[i] !== '"') {
            if (h[i] === '\\' && i + 1 < h.length) i++;
            value += h[i];
            i++;
          }
          i++;
        } else {
          const vStart = i;
          while (i < h.length && h[i] !== ',') i++;
          value = h.slice(vStart, i).trim();
          if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) value = value.slice(1, -1);
        }
        if (current) current.params[token.toLowerCase()] = value;
      } else if (token) {
        current = { scheme: token.toLowerCase(), params: {} };
        out.push(current);
      } else {
        i++; // a stray quote or '=': skip it rather than loop forever
      }
    }
  }
  return out;
}

function toChallenge(params: Record<string, string>): DigestChallenge | undefined {
  const nonce = params.nonce;
  if (nonce === undefined || nonce === '') return undefined;
  const algoRaw = (params.algorithm ?? 'MD5').trim().toUpperCase();
  const algorithm = PREFERENCE.find((a) => a.toUpperCase() === algoRaw);
  if (!algorithm) return undefined;
  // "op" is how the vendor's documentation spells qop; accept both.
  const qopRaw = params.qop ?? params.op;
  const qops = (qopRaw ?? '')
    .split(',')
    .map((q) => q.trim().toLowerCase())
    .filter(Boolean);
  let qop: 'auth' | undefined;
  if (qops.includes('auth')) qop = 'auth';
  else if (qops.length > 0) return undefined; // auth-int only: not supported
  const challenge: DigestChallenge = {
    realm: params.realm ?? '',
    nonce,
    algorithm,
    qop,
    stale: (params.stale ?? '').trim().toLowerCase() === 'true',
  };
  if (params.opaque !== undefined) challenge.opaque = params.opaque;
  return challenge;
}

/** The strongest supported Digest challenge in the header(s), or undefined. */
export function parseDigestChallenge(header: string | string[] | undefined): DigestChallenge | undefined {
  const candidates = parseAuthenticate(header)
    .filter((c) => c.scheme === 'digest')
    .map((c) => toChallenge(c.params))
    .filter((c): c is DigestChallenge => c !== undefined);
  candidates.sort((a, b) => PREFERENCE.indexOf(a.algorithm) - PREFERENCE.indexOf(b.algorithm));
  return candidates[0];
}

/** nc is 8 hex digits; 0 is not a valid count. */
export function formatNc(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > 0xffffffff) throw new RangeError(`nonce count out of range: ${n}`);
  return n.toString(16).padStart(8, '0');
}

function newCnonce(): string {
  return randomBytes(16).toString('hex');
}

interface DigestInput extends DigestCredentials {
  algorithm: DigestAlgorithm;
  realm: string;
  nonce: string;
  qop: 'auth' | undefined;
  method: string;
  /** Request target as sent: path plus query string. */
  uri: string;
  nc: string;
  cnonce: string;
}

/** The `response` value of RFC 7616 section 3.4.1. */
export function digestResponse(d: DigestInput): string {
  const base = d.algorithm.replace(/-sess$/, '');
  const H = (s: string) =>
    createHash(HASHES[base] ?? 'md5')
      .update(s, 'utf8')
      .digest('hex');
  let ha1 = H(`${d.username}:${d.realm}:${d.password}`);
  if (d.algorithm.endsWith('-sess')) ha1 = H(`${ha1}:${d.nonce}:${d.cnonce}`);
  const ha2 = H(`${d.method}:${d.uri}`);
  return d.qop ? H(`${ha1}:${d.nonce}:${d.nc}:${d.cnonce}:${d.qop}:${ha2}`) : H(`${ha1}:${d.nonce}:${ha2}`);
}

const quote = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`;

/** The Authorization header value for one request. */
export function authorizationHeader(
  challenge: DigestChallenge,
  creds: DigestCredentials,
  req: { method: string; uri: string; nc: number; cnonce?: string },
): string {
  const cnonce = req.cnonce ?? newCnonce();
  const nc = formatNc(req.nc);
  const response = digestResponse({ ...creds, ...challenge, method: req.method, uri: req.uri, nc, cnonce });
  const parts = [
    `username=${quote(creds.username)}`,
    `realm=${quote(challenge.realm)}`,
    `nonce=${quote(challenge.nonce)}`,
    `uri=${quote(req.uri)}`,
    `algorithm=${challenge.algorithm}`,
    `response="${response}"`,
  ];
  if (challenge.qop) parts.push(`qop=${challenge.qop}`, `nc=${nc}`, `cnonce=${quote(cnonce)}`);
  if (challenge.opaque !== undefined) parts.push(`opaque=${quote(challenge.opaque)}`);
  return `Digest ${parts.join(', ')}`;
}

interface OriginState {
  challenge?: DigestChallenge;
  nc: number;
  /** Set while one request is fetching the first challenge; the others wait for it. */
  pending?: Promise<void>;
}

export interface Signed {
  header: string;
  nonce: string;
}

export interface DigestAuth {
  /**
   * The header for a request, from the cached challenge. On a cold origin the first caller gets
   * `release` (send unsigned, answer the challenge, `adopt` it once accepted, then `release`);
   * concurrent callers wait for that challenge instead of each collecting their own 401.
   */
  prepare(
    origin: string,
    method: string,
    uri: string,
    signal?: AbortSignal,
  ): Promise<Signed | { release: () => void }>;
  sign(origin: string, method: string, uri: string): Signed | undefined;
  /** Signs with a challenge fresh from a 401 that no other request knows yet (nc=1). */
  signFresh(challenge: DigestChallenge, method: string, uri: string): Signed;
  /**
   * Shares a challenge once a request signed with it (nc=1) was accepted, so later counts can never
   * overtake that first one. Skipped when another request already replaced the nonce this one
   * replaced (`replacing`), so concurrent renewals do not keep resetting the shared count.
   */
  adopt(origin: string, challenge: DigestChallenge, replacing?: string): void;
}

export function createDigestAuth(creds: DigestCredentials): DigestAuth {
  const states = new Map<string, OriginState>();
  const state = (origin: string) => {
    let s = states.get(origin);
    if (!s) {
      s = { nc: 0 };
      states.set(origin, s);
    }
    return s;
  };
  const sign = (origin: string, method: string, uri: string): Signed | undefined => {
    const s = state(origin);
    if (!s.challenge) return undefined;
    s.nc = s.nc >= 0xffffffff ? 1 : s.nc + 1;
    return {
      header: authorizationHeader(s.challenge, creds, { method, uri, nc: s.nc }),
      nonce: s.challenge.nonce,
    };
  };
  return {
    sign,
    signFresh(challenge, method, uri) {
      return {
        header: authorizationHeader(challenge, creds, { method, uri, nc: 1 }),
        nonce: challenge.nonce,
      };
    },
    adopt(origin, challenge, replacing) {
      const s = state(origin);
      const cached = s.challenge?.nonce;
      if (cached === challenge.nonce || (cached !== undefined && cached !== replacing)) return;
      s.challenge = challenge;
      s.nc = 1; // used by the request that proved it
    },
    async prepare(origin, method, uri, signal) {
      const s = state(origin);
      for (;;) {
        const signed = sign(origin, method, uri);
        if (signed) return signed;
        if (!s.pending) {
          let wake!: () => void;
          s.pending = new Promise<void>((resolve) => {
            wake = resolve;
          });
          const mine = s.pending;
          return {
            release: () => {
              if (s.pending === mine) s.pending = undefined;
              wake();
            },
          };
        }
        await abortable(s.pending, signal);
      }
    },
  };
}
