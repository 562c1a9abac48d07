// Confirmation tokens for clients that cannot elicit: an HMAC over tool, canonical arguments and expiry.
// Verified by signature (so replicas sharing DBOPS_TOKEN_SECRET accept each other's), single use within a
// process, and bound to the exact arguments: any other argument makes the token invalid.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_TTL_MS = 5 * 60_000;

export type TokenCheck = 'ok' | 'invalid' | 'expired' | 'mismatch' | 'used';

/** Compares a secret someone sent with the expected one in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const x = Buffer.from(given);
  const y = Buffer.from(expected);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function createTokenSigner(secret: string = randomBytes(32).toString('hex'), now = () => Date.now()) {
  const used = new Map<string, number>();
  const mac = (payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

  return {
    issue(tool: string, hash: string): { token: string; expiresAt: Date } {
      const exp = now() + TOKEN_TTL_MS;
      const payload = `${tool}.${hash}.${exp}.${randomBytes(9).toString('base64url')}`;
      return {
        token: `${Buffer.from(payload).toString('base64url')}.${mac(payload)}`,
        expiresAt: new Date(exp),
      };
    },
    /** Checks and, when valid, consumes the token. */
    redeem(token: string, tool: string, hash: string): TokenCheck {
      const [body, sig] = token.split('.', 2);
      if (!body || !sig) return 'invalid';
      const payload = Buffer.from(body, 'base64url').toString();
      if (!sameSecret(sig, mac(payload))) return 'invalid';
      const parts = payload.split('.');
      const exp = Number(parts[2]);
      if (parts.length !== 4 || !Number.isFinite(exp)) return 'invalid';
      if (parts[0] !== tool || parts[1] !== hash) return 'mismatch';
      if (exp <= now()) return 'expired';
      for (const [id, until] of used) if (until <= now()) used.delete(id);
      if (used.has(payload)) return 'used';
      used.set(payload, exp);
      return 'ok';
    },
  };
}

export type TokenSigner = ReturnType<typeof createTokenSigner>;
