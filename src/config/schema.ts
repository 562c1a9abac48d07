// Every setting in one zod schema, and its names: `baseUrl` is the environment variable DBOPS_BASE_URL and the
// flag --base-url. A bad value fails start-up with a message naming the setting, never a stack trace.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/** true/false, also 1/0 and yes/no in any case (the bare flag `--read-only` is true). */
export const bool = z
  .preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])], {
      error: 'must be true or false (also accepted: 1, 0, yes, no; any case)',
    }),
  )
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
/**
 * The one reading of a list, for every setting that takes one, the bundle's fields and the X-MCP-Toolsets
 * header: names separated by commas, spaces or both ("triage, windows", "triage windows").
 */
export const splitList = (v: string | readonly string[]): string[] =>
  (typeof v === 'string' ? [v] : v).flatMap((s) => s.split(/[\s,]+/)).filter(Boolean);
/** A list setting (DBOPS_TOOLSETS, DBOPS_TOOLS, DBOPS_APPROVERS, …): a string or an array, read by splitList. */
export const listSetting = z.union([z.string(), z.array(z.string())]).transform(splitList);
const list = listSetting;

/** The consent channels DBOPS_CONFIRM_VIA may name (each a module registered in src/policy/channels/). */
export const channels = ['elicitation', 'approval-page', 'token'] as const;
export type Channel = (typeof channels)[number];
/** The channels used when DBOPS_CONFIRM_VIA is unset, in order: a channel added later is off until configured. */
const defaultChannels: readonly Channel[] = ['elicitation', 'approval-page', 'token'];

/** The risks a change can carry that may need a second person (DBOPS_FOUR_EYES); src/policy/decide.ts decides them. */
export const riskCategories = [
  'grant',
  'key',
  'deletion',
  'disable-alerting',
  'integration',
  'window-pages',
  'window-long',
] as const;
export type RiskCategory = (typeof riskCategories)[number];

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
  confirmVia: list.pipe(z.array(z.enum(channels)).min(1)).default([...defaultChannels]),
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
  /** A read across every project answers with what it has after this long, marked partial. */
  installationReadMs: int(1_000, 600_000).default(20_000),
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
  /** The risk categories that need a second person under DBOPS_APPROVERS (all by default). */
  fourEyes: list.pipe(z.array(z.enum(riskCategories))).default([...riskCategories]),
  /** window-long: a maintenance window longer than this many hours. */
  longWindowHours: z.coerce.number().positive().max(8_760).default(24),
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
/** A setting's name in the schema (camelCase): `baseUrl`. */
export type SettingKey = keyof Config;
type Key = SettingKey;
export const settingKeys = Object.keys(configSchema.shape) as Key[];

const envName = (key: string) => `DBOPS_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
/** `baseUrl` → `base-url` (the flag without its dashes). */
export const flagName = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Environment variable names of every setting, e.g. baseUrl → DBOPS_BASE_URL. */
export const settingNames = Object.fromEntries(
  settingKeys.map((k) => [k, { env: envName(k), flag: `--${flagName(k)}` }]),
) as Record<Key, { env: string; flag: string }>;

export class ConfigError extends Error {}
