// Secrets in API results (integration keys, tokens, private keys, passwords) are masked before anything
// reaches the model, a log or the audit trail. Masking keeps the last 4 characters so a person can still
// tell two keys apart, as the platform itself does.

// Webhook URLs carry their credential in the path: `url` (the spec's WEBHOOK) and any field whose name says
// webhook URL (teamChatCWebhookUrl in the spec, microsoftTeamsWebhookUrl and webhookUrl in the field).
const SECRET_URL = /^(url|.*webhookurl)$/;

// These keep no visible tail: a partial webhook secret or password is still too much.
const FULL_MASK = /(password|passwd|passphrase|secret|confirmationtoken)$/;

export function mask(value: string, full = false): string {
  if (full || value.length <= 8) return '********';
  return `******${value.slice(-4)}`;
}

// Any field whose name says credential is masked, known or not, under either dialect's names: privateKey,
// apiToken, serviceKey, datadogApiKey, opsGenieApiKey, victorOpsRoutingKey, licenseKey, writeToken,
// webhookSecret, tlsPemPassword, client_secret, api-key… Names are compared without case or separators.
// Public keys are identifiers, not secrets; a key *name* (keyName, keyId) is not a key.
const SECRET_SHAPE =
  /(key|token|secret|password|passwd|passphrase|credentials?|licen[cs]e)$|secret|password|apikey|privatekey/;
const NOT_SECRET = /publickey$|(keyname|keyid|keys?type)$|^(monkey|turnkey)$/;

const normalized = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

// Answers repeat a few field names thousands of times: each name is judged once (a bounded memo).
const judged = new Map<string, boolean>();

export function isSecretKey(key: string): boolean {
  let secret = judged.get(key);
  if (secret === undefined) {
    const k = normalized(key);
    secret = SECRET_URL.test(k) || (SECRET_SHAPE.test(k) && !NOT_SECRET.test(k));
    if (judged.size >= 10_000) judged.clear();
    judged.set(key, secret);
  }
  return secret;
}

/** A deep copy with every secret-named string field masked. URL fields keep their origin and last 4. */
export function redact<T>(value: T, depth = 0): T {
  if (depth > 12 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if ((typeof v === 'string' && v !== '') || typeof v === 'number') {
      if (isSecretKey(k)) {
        const name = normalized(k);
        const text = String(v);
        out[k] = name.endsWith('url') ? maskUrl(text) : mask(text, FULL_MASK.test(name));
        continue;
      }
    }
    out[k] = redact(v, depth + 1);
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

/**
 * A value the server masked before sending it (`********-****-****-db2c132ca78d`, `******7890`): asterisks,
 * maybe dashes, then at most a short visible tail. It is no secret and no usable key.
 */
export function isMaskedValue(value: string): boolean {
  return /^\*{4,}[*-]*[A-Za-z0-9]{0,16}$/.test(value);
}
