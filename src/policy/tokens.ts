// Confirmation tokens for clients that cannot elicit: an HMAC over tool, canonical arguments and expiry.
// Verified by signature (so replicas sharing DBOPS_TOKEN_SECRET accept each other's), single use through the
// ledger (a file store by default, so a used token stays used across processes and restarts), bound to the
// exact arguments, and parsed strictly: anything but the exact format the server issued is invalid.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Ledger, memoryLedger } from '../state/ledger.js';

export const TOKEN_TTL_MS = 5 * 60_000;

export type TokenCheck = 'ok' | 'invalid' | 'expired' | 'mismatch' | 'used';

/** Compares a secret someone sent with the expected one in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const x = Buffer.from(given);
  const y = Buffer.from(expected);
  return x.length === y.length && timingSafeEqual(x, y);
}

// base64url(payload) "." base64url(HMAC-SHA256) — the signature is exactly 43 characters.
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{1,800})\.([A-Za-z0-9_-]{43})$/;
// tool "." argsHash "." expiry (ms) "." nonce (12)
const PAYLOAD_SHAPE = /^([a-z][a-z0-9_]*)\.([A-Za-z0-9_-]{1,64})\.(\d{1,16})\.([A-Za-z0-9_-]{12})$/;

export function createTokenSigner(
  secret: string = randomBytes(32).toString('hex'),
  now = () => Date.now(),
  ledger: Ledger = memoryLedger(now),
) {
  const mac = (payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

  return {
    /** A key for another purpose derived from the secret (replicas sharing the secret derive the same). */
    derive: (purpose: string) => createHmac('sha256', secret).update(`dbops-mcp:${purpose}`).digest(),
    /** Claims a single-use key in the ledger: true the first time (across every process sharing it). */
    consume: (key: string, expiresAtMs: number, issuedAtMs?: number) =>
      ledger.claim(key, expiresAtMs, issuedAtMs),
    issue(tool: string, hash: string): { token: string; expiresAt: Date } {
      const exp = now() + TOKEN_TTL_MS;
      const payload = `${tool}.${hash}.${exp}.${randomBytes(9).toString('base64url')}`;
      return {
        token: `${Buffer.from(payload).toString('base64url')}.${mac(payload)}`,
        expiresAt: new Date(exp),
      };
    },
    /** Checks and, when valid, consumes the token (once across every process sharing the ledger). */
    async redeem(token: string, tool: string, hash: string): Promise<TokenCheck> {
      const shape = TOKEN_SHAPE.exec(token);
      if (!shape) return 'invalid';
      const [, body, sig] = shape as unknown as [string, string, string];
      const payload = Buffer.from(body, 'base64url').toString();
      // Only the canonical encoding of the payload is accepted: no padding bits or aliases.
      if (Buffer.from(payload).toString('base64url') !== body) return 'invalid';
      if (!sameSecret(sig, mac(payload))) return 'invalid';
      const parts = PAYLOAD_SHAPE.exec(payload);
      if (!parts) return 'invalid';
      const exp = Number(parts[3]);
      if (parts[1] !== tool || parts[2] !== hash) return 'mismatch';
      if (exp <= now()) return 'expired';
      return (await ledger.claim(`token:${payload}`, exp, exp - TOKEN_TTL_MS)) ? 'ok' : 'used';
    },
  };
}

export type TokenSigner = ReturnType<typeof createTokenSigner>;
