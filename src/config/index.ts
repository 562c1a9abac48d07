// Every setting in one zod schema. Precedence: flags > environment (DBOPS_*) > config file > defaults.
// A bad value fails start-up with a message naming the setting, never a stack trace.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

const bool = z
  .preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])], {
      error: 'must be true or false (also accepted: 1, 0, yes, no; any case)',
    }),
  )
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const list = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean));

export const channels = ['elicitation', 'approval-page', 'token'] as const;
export type Channel = (typeof channels)[number];

function stateDir(): string {
  return process.env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state');
}
function configDir(): string {
  return process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config');
}

/** "ops.example.com:8080" parses as a URL of scheme "ops.example.com": say what is missing instead. */
const hasScheme = (s: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(s);

export const configSchema = z.object({
  baseUrl: z
    .url({
      protocol: /^https?$/,
      error: (issue) => {
        const v = typeof issue.input === 'string' ? issue.input.trim() : '';
        return v && !hasScheme(v)
          ? `"${v}" has no scheme: write https://${v} (or http://${v} for a plain-HTTP port)`
          : 'must be an http:// or https:// URL';
      },
    })
    .optional(),
  publicKey: z.string().min(1).optional(),
  privateKey: z.string().min(1).optional(),
  projectId: z.string().min(1).optional(),
  orgId: z.string().min(1).optional(),
  readOnly: bool.default(false),
  tools: list.default([]),
  disabledTools: list.default([]),
  /** Toolsets listed: names of tools/toolsets.ts, `all` (empty: all) and `dynamic` (discovery tools). */
  toolsets: list.transform((v) => v.map((s) => s.toLowerCase())).default([]),
  confirm: z.enum(['destructive', 'write', 'never']).default('destructive'),
  confirmVia: list.pipe(z.array(z.enum(channels)).min(1)).default([...channels]),
  approvalPort: int(0, 65535).default(0),
  approvalTtlMs: int(10_000, 86_400_000).default(600_000),
  approvalOpen: bool.default(false),
  approvalWaitMs: int(0, 3_600_000).default(120_000),
  tokenSecret: z.string().min(16).optional(),
  stateUrl: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  publicUrl: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// origin' })
    .transform((u) => new URL(u).origin)
    .optional(),
  stateDir: z
    .string()
    .min(1)
    .default(() => join(stateDir(), 'dbops-mcp')),
  auditLog: z
    .string()
    .min(1)
    .default(() => join(stateDir(), 'dbops-mcp', 'audit.log')),
  /** The audit log rotates at this size (0: never), keeping this many rotated files. */
  auditMaxBytes: int(0, 2 ** 40).default(10 * 1024 * 1024),
  auditKeep: int(1, 1_000).default(5),
  secretsDir: z
    .string()
    .min(1)
    .default(() => join(configDir(), 'dbops-mcp', 'secrets')),
  revealSecrets: bool.default(false),
  caFile: z.string().min(1).optional(),
  tlsInsecure: bool.default(false),
  timeoutMs: int(100, 600_000).default(30_000),
  maxRetries: int(0, 10).default(3),
  /** The platform's names: the spec's, the field's, or learned from its answers. */
  dialect: z.enum(['spec', 'field', 'auto']).default('auto'),
  cacheTtlMs: int(0, 600_000).default(5_000),
  rateLimit: int(0, 1_000_000).default(0),
  maxConcurrentRequests: int(0, 10_000).default(16),
  maxOutputChars: int(1_000, 1_000_000).default(12_000),
  feedPollMs: int(100, 3_600_000).default(30_000),
  httpToken: z.string().min(16).optional(),
  /** Named bearer tokens, one person each, stored hashed (`dbops-mcp token <name>` makes a line). */
  httpTokensFile: z.string().min(1).optional(),
  /** OAuth 2.1: the authorization server whose access tokens this server accepts. */
  oauthIssuer: z
    .url({ protocol: /^https?$/, error: 'must be the issuer URL (https://…), as its metadata names it' })
    .optional(),
  /** The `aud` tokens must carry (default: the URL clients connect to, or the public origin). */
  oauthAudience: z.string().min(1).optional(),
  /** A read scope and a write scope; a token without the write scope gets the read-only catalog. */
  oauthScopes: list
    .pipe(
      z.array(z.string()).refine((s) => s.length === 0 || s.length === 2, {
        error: 'must be two scopes, read then write (e.g. dbops:read,dbops:write)',
      }),
    )
    .default([]),
  /** The approval page's client at the issuer, for signing people in (authorization code + PKCE). */
  oauthClientId: z.string().min(1).optional(),
  oauthClientSecret: z.string().min(1).optional(),
  /**
   * The claim that names the person in an access token. Unset: `email` when `email_verified` is true, else
   * `sub` (an unverified address could be anyone's, including an approver's).
   */
  oauthPersonClaim: z
    .string()
    .regex(/^[A-Za-z_][\w.:-]{0,99}$/, { error: 'must be a claim name, such as sub or email' })
    .optional(),
  /** People who may approve anyone's request; with approvers, grants and deletions need a second person. */
  approvers: list.default([]),
  /** How long GET /readyz keeps the platform's answer (one probe per installation per this, per replica). */
  readyKeepMs: int(0, 600_000).default(30_000),
  httpMaxSessionsPerPerson: int(1, 100_000).default(20),
  httpMaxSessions: int(1, 100_000).default(100),
  logLevel: z.enum(['error', 'warn', 'info', 'debug']).default('info'),
  // Transport (flags; env DBOPS_TRANSPORT / DBOPS_HOST / DBOPS_PORT also work).
  transport: z.enum(['stdio', 'http']).default('stdio'),
  host: z.string().min(1).default('127.0.0.1'),
  port: int(0, 65535).default(3000),
  allowedOrigins: list.default([]),
  sessionIdleMs: int(1_000, 86_400_000).default(30 * 60_000),
  demo: bool.default(false),
  /** An unknown DBOPS_* variable stops start-up instead of a warning. */
  strictSettings: bool.default(false),
  /** A JSON file naming several installations (see loadPlatforms); unset: the one of DBOPS_BASE_URL. */
  platforms: z.string().min(1).optional(),
});

export type Config = z.output<typeof configSchema>;
type Key = keyof Config;
const keys = Object.keys(configSchema.shape) as Key[];

const envName = (key: string) => `DBOPS_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
const flagName = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Environment variable names of every setting, e.g. baseUrl → DBOPS_BASE_URL. */
export const settingNames = Object.fromEntries(
  keys.map((k) => [k, { env: envName(k), flag: `--${flagName(k)}` }]),
) as Record<Key, { env: string; flag: string }>;

const byFlag = new Map(keys.map((k) => [flagName(k), k]));
// Boolean settings may be given as a bare flag (--read-only).
const boolKeys = new Set(
  keys.filter((k) => {
    const s: z.ZodType = configSchema.shape[k];
    return s instanceof z.ZodDefault && s.unwrap() === bool;
  }),
);

export class ConfigError extends Error {}

/**
 * Reads flags (`--base-url X`, `--read-only`, `--no-read-only`), the environment and the optional JSON config
 * file (`--config FILE` or DBOPS_CONFIG). Unknown flags are errors: a typo must not silently fall back.
 */
export function loadConfig(argv: string[] = [], env: NodeJS.ProcessEnv = process.env): Config {
  const fromFlags: Record<string, unknown> = {};
  let configFile = env.DBOPS_CONFIG;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument "${arg}"`);
    const [rawName, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (rawName === 'config') {
      configFile = inline ?? argv[++i];
      continue;
    }
    const negated = rawName.startsWith('no-') && byFlag.has(rawName.slice(3));
    const key = byFlag.get(negated ? rawName.slice(3) : rawName);
    if (!key) throw new ConfigError(`unknown option --${rawName} (see --help)`);
    const isBool = boolKeys.has(key);
    if (negated) fromFlags[key] = false;
    else if (inline !== undefined) fromFlags[key] = inline;
    else if (isBool && (argv[i + 1] === undefined || argv[i + 1]?.startsWith('--'))) fromFlags[key] = true;
    else {
      const value = argv[++i];
      if (value === undefined) throw new ConfigError(`option --${rawName} needs a value`);
      fromFlags[key] = value;
    }
  }
  let fromFile: Record<string, unknown> = {};
  if (configFile) {
    try {
      fromFile = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
    } catch (e) {
      throw new ConfigError(`cannot read config file ${configFile}: ${(e as Error).message}`);
    }
    const unknown = Object.keys(fromFile).filter((k) => !(k in configSchema.shape));
    if (unknown.length) throw new ConfigError(`unknown setting(s) in ${configFile}: ${unknown.join(', ')}`);
  }
  const fromEnv: Record<string, unknown> = {};
  for (const key of keys) {
    const value = env[settingNames[key].env];
    if (value !== undefined && value !== '') fromEnv[key] = value;
  }
  const merged = { ...fromFile, ...fromEnv, ...fromFlags };
  const strict =
    ['1', 'true', 'yes'].includes(String(merged.strictSettings ?? '').toLowerCase()) ||
    merged.strictSettings === true;
  const unknown = unknownSettings(env);
  if (strict && unknown.length > 0)
    throw new ConfigError(`${unknown.join('; ')} (DBOPS_STRICT_SETTINGS is set)`);
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue?.path[0] ?? '');
    const names = settingNames[key as Key];
    const where = names ? `${names.env} / ${names.flag}` : key;
    throw new ConfigError(`invalid setting ${where}: ${issue?.message ?? 'invalid value'}`);
  }
  return parsed.data;
}

/** The valid names closest to `name` (by edit distance), for "did you mean" hints. */
export function nearest(name: string, valid: string[]): string[] {
  const scored = valid.map((v) => [v, editDistance(name, v)] as const).sort((a, b) => a[1] - b[1]);
  const best = scored[0]?.[1] ?? 0;
  return scored
    .filter(([, d]) => d === best)
    .slice(0, 3)
    .map(([v]) => v);
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (cur[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * DBOPS_* variables that are no setting (a misspelt name would otherwise be ignored in silence, e.g.
 * DBOPS_READONLY leaving the server writable), each as a message naming the nearest known settings.
 */
export function unknownSettings(env: NodeJS.ProcessEnv = process.env): string[] {
  const known = [...Object.values(settingNames).map((n) => n.env), 'DBOPS_CONFIG'];
  return Object.keys(env)
    .filter((k) => k.startsWith('DBOPS_') && !known.includes(k))
    .map((k) => `${k} is not a setting and is ignored; did you mean ${nearest(k, known).join(' or ')}?`);
}

/** One installation of DBOPS_PLATFORMS: where it is, its key, and what this server may do there. */
const platformSpec = z
  .strictObject({
    baseUrl: configSchema.shape.baseUrl.unwrap(),
    publicKey: z.string().min(1),
    privateKey: z.string().min(1).optional(),
    /** Read at start-up, so the key itself need not sit in the file. */
    privateKeyFile: z.string().min(1).optional(),
    projectId: z.string().min(1).optional(),
    orgId: z.string().min(1).optional(),
    readOnly: bool.default(false),
    rateLimit: configSchema.shape.rateLimit.optional(),
    maxConcurrentRequests: configSchema.shape.maxConcurrentRequests.optional(),
    caFile: z.string().min(1).optional(),
    tlsInsecure: bool.optional(),
    dialect: z.enum(['spec', 'field', 'auto']).optional(),
  })
  .refine((p) => (p.privateKey === undefined) !== (p.privateKeyFile === undefined), {
    error: 'give exactly one of privateKey and privateKeyFile',
  });

export type PlatformSpec = Omit<z.output<typeof platformSpec>, 'privateKeyFile'> & {
  name: string;
  privateKey: string;
};

const PLATFORM_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

const platformsFile = z.strictObject({
  default: z.string().optional(),
  platforms: z
    .record(z.string(), platformSpec)
    .refine((r) => Object.keys(r).length > 0, { error: 'name at least one platform' }),
});

/**
 * DBOPS_PLATFORMS: `{"default": "prod", "platforms": {"prod": {"baseUrl": …, "publicKey": …, "privateKeyFile": …,
 * "projectId"?, "orgId"?, "readOnly"?, "rateLimit"?, "maxConcurrentRequests"?, "caFile"?, "tlsInsecure"?,
 * "dialect"?}, "staging": {…}}}`. Errors name the file, the platform and the field; never a key.
 */
export function loadPlatforms(file: string): { default: string; platforms: PlatformSpec[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`cannot read DBOPS_PLATFORMS ${file}: ${(e as Error).message}`);
  }
  const parsed = platformsFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const [top, name, field] = issue?.path ?? [];
    const where =
      top === 'platforms' && name !== undefined
        ? `platform "${String(name)}"${field !== undefined ? `, ${String(field)}` : ''}`
        : String(top ?? 'the file');
    throw new ConfigError(`DBOPS_PLATFORMS ${file}, ${where}: ${issue?.message ?? 'invalid'}`);
  }
  const names = Object.keys(parsed.data.platforms);
  const misnamed = names.find((n) => !PLATFORM_NAME.test(n));
  if (misnamed !== undefined)
    throw new ConfigError(
      `DBOPS_PLATFORMS ${file}: "${misnamed}" cannot name a platform: use lower-case letters, digits, - and _ (32 at most)`,
    );
  const chosen = parsed.data.default ?? names[0]!;
  if (!names.includes(chosen))
    throw new ConfigError(`DBOPS_PLATFORMS ${file}: default "${chosen}" is not one of ${names.join(', ')}`);
  const platforms = Object.entries(parsed.data.platforms).map(([name, p]) => {
    const { privateKeyFile, ...rest } = p;
    let privateKey = p.privateKey ?? '';
    if (privateKeyFile)
      try {
        privateKey = readFileSync(privateKeyFile, 'utf8').trim();
      } catch (e) {
        throw new ConfigError(
          `DBOPS_PLATFORMS ${file}, platform "${name}": cannot read privateKeyFile: ${(e as Error).message}`,
        );
      }
    return { ...rest, name, privateKey };
  });
  return { default: chosen, platforms };
}

/**
 * Each setting in words: what it means and its default, rows grouped as a person reads them. The README's
 * settings table and `serve --help` are generated from this (scripts/gen-settings-doc.mjs; a test fails when
 * the README is stale), so a default cannot change in one place and not the other.
 */
export const settingsTable: ReadonlyArray<{ keys: readonly Key[]; meaning: string; byDefault: string }> = [
  {
    keys: ['baseUrl'],
    meaning: "the platform's URL (host root or the full `/api/public/v1.0` prefix); unset \u2192 demo mode",
    byDefault: 'unset',
  },
  {
    keys: ['publicKey', 'privateKey'],
    meaning: 'the API key (digest username and password)',
    byDefault: '\u2014',
  },
  {
    keys: ['projectId', 'orgId'],
    meaning: 'defaults for tools that take a project or an organization',
    byDefault: '\u2014',
  },
  {
    keys: ['readOnly'],
    meaning: 'register read tools only',
    byDefault: 'false',
  },
  {
    keys: ['tools', 'disabledTools'],
    meaning: 'comma lists of tool names or kinds (`read`, `write`, `destructive`)',
    byDefault: 'all',
  },
  {
    keys: ['toolsets'],
    meaning:
      'toolsets listed: `triage`, `alerts`, `windows`, `events`, `deployment`, `access`, `integrations`, `all`; `dynamic` starts with three discovery tools ([Choosing tools](#choosing-tools))',
    byDefault: 'all',
  },
  {
    keys: ['confirm'],
    meaning: 'which changes need consent: `destructive`, `write` or `never`',
    byDefault: 'destructive',
  },
  {
    keys: ['confirmVia'],
    meaning: 'consent channels in order: `elicitation`, `approval-page`, `token`',
    byDefault: 'all three, in that order',
  },
  {
    keys: ['approvalPort', 'approvalTtlMs'],
    meaning: 'approval page port under stdio; approval lifetime',
    byDefault: 'ephemeral, 600000',
  },
  {
    keys: ['approvalOpen', 'approvalWaitMs'],
    meaning: 'open the page in the desktop browser and wait for the decision',
    byDefault: 'false, 120000',
  },
  {
    keys: ['tokenSecret'],
    meaning:
      'HMAC key for confirmation tokens and for the sealed consent state of 2026-07-28 clients (16+ characters; the same on every replica)',
    byDefault:
      '`serve`: random per process; `call`: one kept in a 0600 file `call-token-secret` beside the audit log, so a token one `call` prints works in the next',
  },
  {
    keys: ['stateUrl'],
    meaning:
      'shared state for replicas: `redis://\u2026` or `rediss://\u2026` (Redis or Valkey); used tokens, approvals and their decisions, pending caps, 2025 session locations, subscription events and kept platform reads (`DBOPS_CACHE_TTL_MS`) live there. Needs `DBOPS_TOKEN_SECRET`',
    byDefault: 'unset: one process, file ledger + memory',
  },
  {
    keys: ['publicUrl'],
    meaning:
      "the origin people's browsers reach the server at (e.g. the load balancer, `https://mcp.example.internal`): approval links use it and its form posts are accepted",
    byDefault: 'the bind address',
  },
  {
    keys: ['auditLog'],
    meaning: 'audit log file',
    byDefault: '`$XDG_STATE_HOME/dbops-mcp/audit.log`',
  },
  {
    keys: ['auditMaxBytes', 'auditKeep'],
    meaning:
      'the audit log rotates at this size (0: never) to `audit.log.1` \u2026 keeping this many files; a writer racing the rotation loses no line',
    byDefault: '10485760, 5',
  },
  {
    keys: ['secretsDir'],
    meaning: 'where minted private keys are written (0600)',
    byDefault: '`$XDG_CONFIG_HOME/dbops-mcp/secrets`',
  },
  {
    keys: ['revealSecrets'],
    meaning: 'show minted secrets to the model',
    byDefault: 'false',
  },
  {
    keys: ['caFile', 'tlsInsecure'],
    meaning: 'private CA bundle; skip TLS verification (warns loudly)',
    byDefault: '\u2014, false',
  },
  {
    keys: ['timeoutMs', 'maxRetries'],
    meaning: 'per-request timeout; retries of idempotent calls',
    byDefault: '30000, 3',
  },
  {
    keys: ['strictSettings'],
    meaning:
      'a `DBOPS_*` variable that is no setting (a misspelt `DBOPS_READONLY`, say) stops start-up; without it each one is a warning naming the nearest setting, at every start',
    byDefault: 'false',
  },
  {
    keys: ['dialect'],
    meaning:
      "the platform's names: `spec` (the spec's: `INCIDENT_PAGING_A`, `teamChatCWebhookUrl`), `field` (what servers in the field use: `PAGER_DUTY`, `microsoftTeamsWebhookUrl`) or `auto` (learned from the names it answers with, or from a refused name, retried once). Input takes both either way; the demo's simulator speaks `field` when this is `field`",
    byDefault: 'auto',
  },
  {
    keys: ['cacheTtlMs'],
    meaning:
      'how long platform answers to reads are kept and shared between calls (projects, hosts and global alert configurations 12\u00d7 longer); 0 keeps none. Identical reads in flight always share one request; our own changes drop the reads they affect; with `DBOPS_STATE_URL` replicas share them',
    byDefault: '5000',
  },
  {
    keys: ['platforms'],
    meaning: 'a JSON file naming several installations (below); every tool then takes `platform`',
    byDefault: '\u2014 (one: `DBOPS_BASE_URL`)',
  },
  {
    keys: ['rateLimit', 'maxConcurrentRequests'],
    meaning:
      'request budget towards the platform: requests per minute (token bucket; 0 = no limit) and requests in flight (0 = no cap). A spent budget is answered at once, naming the setting and when it refills',
    byDefault: '0, 16',
  },
  {
    keys: ['maxOutputChars'],
    meaning:
      "the most one tool answer hands a model, text and `structuredContent` together, counted as the result's JSON (the text takes at most two thirds); a resource's text alone",
    byDefault: '12000',
  },
  {
    keys: ['feedPollMs'],
    meaning: 'poll interval of subscribed resources',
    byDefault: '30000',
  },
  {
    keys: ['httpToken'],
    meaning:
      'one bearer token for the HTTP transport: one person (a way to know people is required to bind beyond loopback; set one of this, `DBOPS_HTTP_TOKENS_FILE` or `DBOPS_OAUTH_ISSUER`)',
    byDefault: '\u2014',
  },
  {
    keys: ['httpTokensFile'],
    meaning:
      'named bearer tokens, one person each, stored hashed: lines `<name> sha256:<hash>`; `dbops-mcp token <name>` makes a token and its line ([docs/identity.md](docs/identity.md))',
    byDefault: '\u2014',
  },
  {
    keys: ['oauthIssuer'],
    meaning:
      'OAuth 2.1 resource server: the authorization server whose JWT access tokens are accepted (its metadata gives `jwks_uri`); serves `/.well-known/oauth-protected-resource`',
    byDefault: '\u2014',
  },
  {
    keys: ['oauthAudience'],
    meaning: 'the `aud` access tokens must carry',
    byDefault: 'the URL clients connect to (`DBOPS_PUBLIC_URL` + `/mcp`) or the public origin',
  },
  {
    keys: ['oauthScopes'],
    meaning:
      'a read scope and a write scope, e.g. `dbops:read,dbops:write`; a token without the write scope gets the read-only catalog',
    byDefault: '\u2014 (no scope check)',
  },
  {
    keys: ['oauthClientId', 'oauthClientSecret'],
    meaning:
      "the approval page's client at the issuer, for signing people in (authorization code with PKCE; the secret only for a confidential client)",
    byDefault: '\u2014',
  },
  {
    keys: ['oauthPersonClaim'],
    meaning:
      'the access-token claim that names the person; unset: `email` when `email_verified` is true, else `sub` (an unverified address could name anyone, an approver included)',
    byDefault: '`email` if verified, else `sub`',
  },
  {
    keys: ['approvers'],
    meaning:
      "people (as the server names them: token email, token-file name) who may decide anyone's pending request; with approvers set, grants of access, API keys and deletions need an approver other than the requester, on the approval page, on every channel (where people are not told apart they are refused)",
    byDefault: '\u2014',
  },
  {
    keys: ['readyKeepMs'],
    meaning:
      "how long `GET /readyz` keeps the platform's answer: one probe per installation per this, per replica, outside the tools' rate budget (anyone may ask `/readyz`)",
    byDefault: '30000',
  },
  {
    keys: ['httpMaxSessionsPerPerson'],
    meaning: 'HTTP sessions one person may hold at once (behind `DBOPS_HTTP_MAX_SESSIONS`)',
    byDefault: '20',
  },
  {
    keys: ['transport', 'host', 'port'],
    meaning: '`stdio` or `http`; HTTP bind address and port',
    byDefault: 'stdio, 127.0.0.1, 3000',
  },
  {
    keys: ['allowedOrigins'],
    meaning: 'extra browser origins allowed on the HTTP transport',
    byDefault: 'loopback origins only',
  },
  {
    keys: ['sessionIdleMs'],
    meaning: 'HTTP sessions idle this long are closed',
    byDefault: '1800000',
  },
  {
    keys: ['httpMaxSessions'],
    meaning:
      'HTTP sessions held at once; at the cap the least recently used idle one is closed, and with none idle a new session gets 503 with `Retry-After`',
    byDefault: '100',
  },
  {
    keys: ['stateDir'],
    meaning:
      'the single-use ledger of used confirmation tokens and executed approvals (outlives restarts; safe for several processes)',
    byDefault: '`$XDG_STATE_HOME/dbops-mcp`',
  },
  {
    keys: ['demo'],
    meaning: 'use the embedded simulator even when `DBOPS_BASE_URL` is set (`--demo`)',
    byDefault: 'false',
  },
  {
    keys: ['logLevel'],
    meaning: '`error`, `warn`, `info` or `debug` (stderr, JSON lines; also MCP logging)',
    byDefault: 'info',
  },
  {
    keys: [],
    meaning: 'proxies for the API client',
    byDefault: '\u2014',
  },
];

/** The five settings a person sets first (the README opens with them). */
export const firstSettings: readonly Key[] = ['baseUrl', 'publicKey', 'privateKey', 'projectId', 'readOnly'];

const envList = (keys: readonly Key[]) => keys.map((k) => `\`${settingNames[k].env}\``).join(', ');

/** The README's settings table, as generated from settingsTable. */
export function settingsMarkdown(): string {
  return [
    '| variable | meaning | default |',
    '|---|---|---|',
    ...settingsTable.map((r) => `| ${envList(r.keys)} | ${r.meaning} | ${r.byDefault} |`),
  ].join('\n');
}

/** The README's opening list: the five settings a person sets first, each with its meaning. */
export function firstSettingsMarkdown(): string {
  return settingsTable
    .filter((r) => r.keys.some((k) => firstSettings.includes(k)))
    .map((r) => `- ${envList(r.keys.filter((k) => firstSettings.includes(k)))}: ${r.meaning}`)
    .join('\n');
}

/** `serve --help`: every setting, its flag and its default, in plain text. */
export function settingsHelp(): string {
  const plain = (s: string) =>
    s
      .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
      .replace(/`/g, '')
      .replace(/\*\*/g, '');
  return settingsTable
    .map((r) => {
      const names = r.keys.map((k) => `${settingNames[k].env} (${settingNames[k].flag})`).join(', ');
      return `  ${names}\n      ${plain(r.meaning)}; default: ${plain(r.byDefault)}`;
    })
    .join('\n');
}

const BLOCKS = {
  table: ['<!-- settings: generated from src/config/ by npm run docs:settings -->', '<!-- /settings -->'],
  first: ['<!-- first settings: generated from src/config/ -->', '<!-- /first settings -->'],
} as const;

/** The README with its generated blocks replaced (each between its two markers). */
export function withSettings(readme: string, table: string, first: string): string {
  let out = readme;
  for (const [[open, close], body] of [
    [BLOCKS.table, table],
    [BLOCKS.first, first],
  ] as const) {
    const i = out.indexOf(open);
    const j = out.indexOf(close);
    if (i < 0 || j < i) throw new Error(`README.md has no "${open}" … "${close}" block`);
    out = `${out.slice(0, i + open.length)}\n${body}\n${out.slice(j)}`;
  }
  return out;
}
