// Digest auth around one attempt: sign ahead with a challenge already known (preemptive), answer a challenge
// when one comes back (at most one re-sign), and share a challenge a request proved with the others.

import { createDigestAuth, type DigestChallenge, parseDigestChallenge, type Signed } from './digest.js';
import type { Method, RawResponse, Send, TransportStats } from './transport-http.js';

/** One attempt: the request plus the digest round trips it needs. */
export type Exchange = (
  method: Method,
  target: string,
  body: string | undefined,
  auth: boolean,
  signal: AbortSignal,
) => Promise<RawResponse>;

interface SignedExchangeOptions {
  origin: string;
  publicKey: string;
  privateKey: string;
  /** false = answer a challenge on every request (two round trips per call), for benchmarks. */
  preemptive: boolean;
  send: Send;
  stats: TransportStats;
}

function hasErrorCode(body: string): boolean {
  try {
    const o = JSON.parse(body) as unknown;
    return !!o && typeof o === 'object' && typeof (o as { errorCode?: unknown }).errorCode === 'string';
  } catch {
    return false;
  }
}

export function createSignedExchange(o: SignedExchangeOptions): Exchange {
  const { origin, preemptive, send, stats } = o;
  const digest = createDigestAuth({ username: o.publicKey, password: o.privateKey });

  return async (method, target, body, auth, signal) => {
    if (!auth) return send(method, target, body, undefined, signal);
    let signed: Signed | undefined;
    let release: (() => void) | undefined;
    if (preemptive) {
      const p = await digest.prepare(origin, method, target, signal);
      if ('release' in p) release = p.release;
      else signed = p;
    }
    try {
      let res = await send(method, target, body, signed?.header, signal);
      let fresh: { challenge: DigestChallenge; replacing: string | undefined } | undefined;
      for (;;) {
        // A 401 with an errorCode (USER_UNAUTHORIZED, NOT_IN_GROUP…) is about roles, not credentials.
        const refused = res.status === 401 && !hasErrorCode(res.body);
        const challenge = refused ? parseDigestChallenge(res.headers['www-authenticate']) : undefined;
        if (!challenge) {
          // Accepted: share the challenge this request proved (see DigestAuth.adopt).
          if (fresh && preemptive && !refused) digest.adopt(origin, fresh.challenge, fresh.replacing);
          return res;
        }
        stats.challenges++;
        // Signed, refused, and neither stale nor a new nonce: the credentials are wrong. One re-sign at most.
        if (signed && (fresh || (!challenge.stale && challenge.nonce === signed.nonce))) return res;
        // A new nonce after a signed request may also mean that a concurrent request with a higher nc
        // arrived first; a fresh nonce, known to no other request yet, cannot be overtaken.
        fresh = { challenge, replacing: signed?.nonce };
        signed = digest.signFresh(challenge, method, target);
        res = await send(method, target, body, signed.header, signal);
      }
    } finally {
      release?.();
    }
  };
}
