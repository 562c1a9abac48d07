// Secrets in API results (integration keys, tokens, private keys, passwords) are masked before anything
// reaches the model, a log or the audit trail. Masking keeps the last 4 characters so a person can still
// tell two keys apart, as the platform itself does.

// Webhook URLs carry their credential in the path; other secrets are recognised by their names (below).
const SECRET_URLS = new Set(['url', 'webhookurl', 'teamchatcwebhookurl']);

// These keep no visible tail: a partial webhook secret or password is still too much.
const FULL_MASK = new Set(['password', 'secret', 'webhooksecret', 'tlspempassword', 'confirmationtoken']);

export function mask(value: string, full = false): string {
  if (full || value.length <= 8) return '********';
  return `******${value.slice(-4)}`;
}

// Any field named like a credential: privateKey, apiToken, routingKey, webhookSecret, tlsPemPassword, and the
// names of integration types the spec leaves undocumented (licenseKey, writeToken); public keys are
// identifiers, not secrets.
const SECRET_SHAPE = /(key|token|secret|password)$/i;
const NOT_SECRET = /publickey$/i;

export function isSecretKey(key: string): boolean {
  return SECRET_URLS.has(key.toLowerCase()) || (SECRET_SHAPE.test(key) && !NOT_SECRET.test(key));
}

/** A deep copy with every secret-named string field masked. URL fields keep their origin and last 4. */
export function redact<T>(value: T, depth = 0): T {
  if (depth > 12 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const lower = k.toLowerCase();
    if (typeof v === 'string' && v !== '' && isSecretKey(k)) {
      out[k] = lower.endsWith('url') ? maskUrl(v) : mask(v, FULL_MASK.has(lower));
    } else out[k] = redact(v, depth + 1);
  }
  return out as T;
}

function maskUrl(value: string): string {
  try {
    const u = new URL(value);
    // The path carries the credential: keep its last 4 characters (as the API shows) when it is long
    // enough that they give nothing away, so two webhooks — and a change of one — can be told apart.
    const rest = value.slice(u.origin.length).replace(/^\//, '');
    return `${u.origin}/******${rest.length > 8 ? rest.slice(-4) : ''}`;
  } catch {
    return mask(value);
  }
}
