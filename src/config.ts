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
