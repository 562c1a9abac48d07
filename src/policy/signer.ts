// The signer: keys derived from DBOPS_TOKEN_SECRET and the installation, single-use claims in the ledger, and
// the confirmation tokens of the `token` channel for clients that cannot elicit: an HMAC over tool, canonical arguments, expiry and the
// person who was asked. Verified by signature (so replicas sharing DBOPS_TOKEN_SECRET and the state store
// accept each other's), single use through the ledger (a file store by default, so a used token stays used
// across processes and restarts), bound to the exact arguments, to the person asked and to the installation
// (an id created once in the state store: a server with another store, whose ledger never saw the token
// used, refuses it), and parsed strictly: anything but the exact format the server issued is invalid.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Ledger, memoryLedger } from '../state/ledger.js';

export const CONFIRMATION_TTL_MS = 5 * 60_000;

type ConfirmationCheck = 'ok' | 'invalid' | 'expired' | 'mismatch' | 'used' | 'not-yours';

/** Compares a secret someone sent with the expected one in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const x = Buffer.from(given);
  const y = Buffer.from(expected);
  return x.length === y.length && timingSafeEqual(x, y);
}

// base64url(payload) "." base64url(HMAC-SHA256) — the signature is exactly 43 characters.
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{1,800})\.([A-Za-z0-9_-]{43})$/;
// tool "." argsHash "." expiry (ms) "." nonce (12) "." the person asked (16)
const PAYLOAD_SHAPE =
  /^([a-z][a-z0-9_]*)\.([A-Za-z0-9_-]{1,64})\.(\d{1,16})\.([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{16})$/;

/** Who a token was issued to, as it travels in the token: a digest of their identity. */
const personTag = (person: string) =>
  createHash('sha256').update(`person:${person}`).digest('base64url').slice(0, 16);

/**
 * `installation`: the id created once in the state store (src/state/installation.ts); every key is bound to
 * it with the secret, so replicas sharing the store derive the same keys and a server with another does not.
 */
export function createSigner(
  secret: string = randomBytes(32).toString('hex'),
  now = () => Date.now(),
  ledger: Ledger = memoryLedger(now),
  installation: string = randomBytes(16).toString('hex'),
) {
  const key = createHmac('sha256', secret).update(`dbops-mcp:installation:${installation}`).digest();
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

  return {
    installation,
    /** A key for another purpose derived from the secret and the installation (its replicas derive the same). */
    derive: (purpose: string) => createHmac('sha256', key).update(`dbops-mcp:${purpose}`).digest(),
    /** Claims a single-use key in the ledger: true the first time (across every process sharing it). */
    consume: (key: string, expiresAtMs: number, issuedAtMs?: number) =>
      ledger.claim(key, expiresAtMs, issuedAtMs),
    /** A token for `person` (the one asked) to confirm this tool with these arguments. */
    issue(tool: string, hash: string, person = ''): { token: string; expiresAt: Date } {
      const exp = now() + CONFIRMATION_TTL_MS;
      const payload = `${tool}.${hash}.${exp}.${randomBytes(9).toString('base64url')}.${personTag(person)}`;
      return {
        token: `${Buffer.from(payload).toString('base64url')}.${mac(payload)}`,
        expiresAt: new Date(exp),
      };
    },
    /** Checks and, when valid, consumes the token (once across every process sharing the ledger). */
    async redeem(token: string, tool: string, hash: string, person = ''): Promise<ConfirmationCheck> {
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
      if (parts[5] !== personTag(person)) return 'not-yours';
      if (exp <= now()) return 'expired';
      return (await ledger.claim(`token:${payload}`, exp, exp - CONFIRMATION_TTL_MS)) ? 'ok' : 'used';
    },
  };
}

export type Signer = ReturnType<typeof createSigner>;
