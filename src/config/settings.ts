// Each setting in words, beside the schema (schema.ts) it documents: what it means, its default and an example.
import type { SettingKey as Key } from './schema.js';

/** One row of the settings table: one setting, or a few read together. */
export interface SettingRow {
  /** The settings the row describes, in the order its default and example name them. */
  keys: readonly Key[];
  /** Variables that are no setting of ours but read all the same (the proxies). */
  others?: readonly string[];
  meaning: string;
  /**
   * The default in words, only where the schema's is no plain value a person writes (none, a list, a path on
   * this machine); otherwise the table shows the schema's own (defaultText), so the two cannot drift.
   */
  byDefault?: string;
  /**
   * A value each setting could take, as written in the environment; none for a boolean (it would say
   * nothing).
   */
  example?: Readonly<Partial<Record<Key, string>>>;
}

/**
 * Each setting in words: what it means, its default and an example, rows grouped as a person reads them. The
 * settings table of docs/settings.md, the README's first settings, `serve --help` and the doctor's hints are
 * generated from this (scripts/gen-settings-doc.mjs; a test fails when they are stale), so a default cannot change in one
 * place and not the other.
 */
export const settingsTable: readonly SettingRow[] = [
  {
    keys: ['baseUrl'],
    meaning: "the platform's URL (host root or the full `/api/public/v1.0` prefix); unset \u2192 demo mode",
    byDefault: 'unset',
    example: { baseUrl: 'https://ops.example.com' },
  },
  {
    keys: ['publicKey', 'privateKey'],
    meaning: 'the API key (digest username and password)',
    byDefault: '\u2014',
    example: { publicKey: 'abcdefgh', privateKey: '$(cat /run/secrets/dbops-private-key)' },
  },
  {
    keys: ['projectId', 'orgId'],
    meaning: 'defaults for tools that take a project or an organization',
    byDefault: '\u2014',
    example: { projectId: '09c5e5335e3468205c5422b1', orgId: '5e3a1b2c3d4e5f6a7b8c9d0e' },
  },
  {
    keys: ['readOnly'],
    meaning: 'register read tools only',
  },
  {
    keys: ['tools', 'disabledTools'],
    meaning: 'lists of tool names or kinds (`read`, `write`, `destructive`)',
    byDefault: 'all',
    example: { tools: 'read,acknowledge_alert', disabledTools: 'destructive' },
  },
  {
    keys: ['toolsets'],
    meaning:
      'toolsets listed: `triage`, `alerts`, `windows`, `events`, `deployment`, `access`, `integrations`, `all`; `dynamic` starts with four discovery tools ([toolsets.md](toolsets.md))',
    byDefault: 'all',
    example: { toolsets: 'triage,alerts' },
  },
  {
    keys: ['confirm'],
    meaning: 'which changes need consent: `destructive`, `write` or `never`',
    example: { confirm: 'write' },
  },
  {
    keys: ['confirmVia'],
    meaning: 'consent channels in order: `elicitation`, `approval-page`, `token`',
    byDefault: 'all three, in that order',
    example: { confirmVia: 'approval-page,token' },
  },
  {
    keys: ['approvalPort', 'approvalTtlMs'],
    meaning: 'approval page port under stdio (0: an ephemeral one); approval lifetime',
    example: { approvalPort: '8765', approvalTtlMs: '900000' },
  },
  {
    keys: ['approvalOpen', 'approvalWaitMs'],
    meaning: 'open the page in the desktop browser and wait for the decision',
    example: { approvalWaitMs: '300000' },
  },
  {
    keys: ['tokenSecret'],
    meaning:
      'HMAC key for confirmation tokens and for the sealed consent state of 2026-07-28 clients (16+ characters; the same on every replica)',
    byDefault:
      '`serve`: random per process; `call`: one kept in a 0600 file `call-token-secret` beside the audit log, so a token one `call` prints works in the next',
    example: { tokenSecret: '$(openssl rand -hex 32)' },
  },
  {
    keys: ['stateUrl'],
    meaning:
      'shared state for replicas: `redis://\u2026` or `rediss://\u2026` (Redis or Valkey); used tokens, approvals and their decisions, pending caps, 2025 session locations, subscription events and kept platform reads (`DBOPS_CACHE_TTL_MS`) live there. Needs `DBOPS_TOKEN_SECRET`',
    byDefault: 'unset: one process, file ledger + memory',
    example: { stateUrl: 'rediss://redis.example.internal:6380/0' },
  },
  {
    keys: ['publicUrl'],
    meaning:
      "the origin people's browsers reach the server at (e.g. the load balancer, `https://mcp.example.internal`): approval links use it and its form posts are accepted",
    byDefault: 'the bind address',
    example: { publicUrl: 'https://mcp.example.internal' },
  },
  {
    keys: ['auditLog'],
    meaning: 'audit log file',
    byDefault: '`$XDG_STATE_HOME/dbops-mcp/audit.log`',
    example: { auditLog: '/var/log/dbops-mcp/audit.log' },
  },
  {
    keys: ['auditMaxBytes', 'auditKeep'],
    meaning:
      'the audit log rotates at this size (0: never) to `audit.log.1` \u2026 keeping this many files; a writer racing the rotation loses no line',
    example: { auditMaxBytes: '52428800', auditKeep: '10' },
  },
  {
    keys: ['secretsDir'],
    meaning: 'where minted private keys are written (0600)',
    byDefault: '`$XDG_CONFIG_HOME/dbops-mcp/secrets`',
    example: { secretsDir: '/etc/dbops-mcp/secrets' },
  },
  {
    keys: ['revealSecrets'],
    meaning: 'show minted secrets to the model',
  },
  {
    keys: ['caFile', 'tlsInsecure'],
    meaning: 'private CA bundle; skip TLS verification (warns loudly)',
    byDefault: '\u2014, false',
    example: { caFile: '/etc/ssl/certs/ops-ca.pem' },
  },
  {
    keys: ['timeoutMs', 'maxRetries'],
    meaning: 'per-request timeout; retries of idempotent calls',
    example: { timeoutMs: '60000', maxRetries: '1' },
  },
  {
    keys: ['strictSettings'],
    meaning:
      'a `DBOPS_*` variable that is no setting (a misspelt `DBOPS_READONLY`, say) stops start-up; without it each one is a warning naming the nearest setting, at every start',
  },
  {
    keys: ['dialect'],
    meaning:
      "the platform's names: `spec` (the spec's: `INCIDENT_PAGING_A`, `teamChatCWebhookUrl`), `field` (what servers in the field use: `PAGER_DUTY`, `microsoftTeamsWebhookUrl`) or `auto` (learned from the names it answers with, or from a refused name, retried once). Input takes both either way; the demo's simulator speaks `field` when this is `field`",
    example: { dialect: 'field' },
  },
  {
    keys: ['cacheTtlMs'],
    meaning:
      'how long platform answers to reads are kept and shared between calls (projects, hosts and global alert configurations 12\u00d7 longer); 0 keeps none. Identical reads in flight always share one request; our own changes drop the reads they affect; with `DBOPS_STATE_URL` replicas share them',
    example: { cacheTtlMs: '15000' },
  },
  {
    keys: ['platforms'],
    meaning:
      'a JSON file naming several installations ([installations.md](installations.md)); every tool then takes `platform`',
    byDefault: '\u2014 (one: `DBOPS_BASE_URL`)',
    example: { platforms: '/etc/dbops-mcp/platforms.json' },
  },
  {
    keys: ['rateLimit', 'maxConcurrentRequests'],
    meaning:
      'request budget towards the platform: requests per minute (token bucket; 0 = no limit) and requests in flight (0 = no cap). A spent budget is answered at once, naming the setting and when it refills',
    example: { rateLimit: '120', maxConcurrentRequests: '4' },
  },
  {
    keys: ['installationReadMs'],
    meaning:
      'how long a read across every project (`projectId: "all"`, `triage_installation`, `find_user`) may take: past it the answer gives the projects read, marked partial, and names the ones missing',
    example: { installationReadMs: '30000' },
  },
  {
    keys: ['maxOutputChars'],
    meaning:
      "the most one tool answer hands a model, text and `structuredContent` together, counted as the result's JSON (the text takes at most two thirds); a resource's text alone",
    example: { maxOutputChars: '24000' },
  },
  {
    keys: ['feedPollMs'],
    meaning: 'poll interval of subscribed resources',
    example: { feedPollMs: '60000' },
  },
  {
    keys: ['httpToken'],
    meaning:
      'one bearer token for the HTTP transport: one person (a way to know people is required to bind beyond loopback; set one of this, `DBOPS_HTTP_TOKENS_FILE` or `DBOPS_OAUTH_ISSUER`)',
    byDefault: '\u2014',
    example: { httpToken: '$(openssl rand -hex 32)' },
  },
  {
    keys: ['httpTokensFile'],
    meaning:
      'named bearer tokens, one person each, stored hashed: lines `<name> sha256:<hash>`; `dbops-mcp token <name>` makes a token and its line ([identity.md](identity.md))',
    byDefault: '\u2014',
    example: { httpTokensFile: '/etc/dbops-mcp/tokens' },
  },
  {
    keys: ['oauthIssuer'],
    meaning:
      'OAuth 2.1 resource server: the authorization server whose JWT access tokens are accepted (its metadata gives `jwks_uri`); serves `/.well-known/oauth-protected-resource`',
    byDefault: '\u2014',
    example: { oauthIssuer: 'https://sso.example.com/realms/ops' },
  },
  {
    keys: ['oauthAudience'],
    meaning: 'the `aud` access tokens must carry',
    byDefault: 'the URL clients connect to (`DBOPS_PUBLIC_URL` + `/mcp`) or the public origin',
    example: { oauthAudience: 'https://mcp.example.internal/mcp' },
  },
  {
    keys: ['oauthScopes'],
    meaning:
      'a read scope and a write scope, e.g. `dbops:read,dbops:write`; a token without the write scope gets the read-only catalog',
    byDefault: '\u2014 (no scope check)',
    example: { oauthScopes: 'dbops:read,dbops:write' },
  },
  {
    keys: ['oauthClientId', 'oauthClientSecret'],
    meaning:
      "the approval page's client at the issuer, for signing people in (authorization code with PKCE; the secret only for a confidential client)",
    byDefault: '\u2014',
    example: {
      oauthClientId: 'dbops-approvals',
      oauthClientSecret: '$(cat /run/secrets/dbops-oauth-client)',
    },
  },
  {
    keys: ['oauthPersonClaim'],
    meaning:
      'the access-token claim a person is shown and listed as an approver by (a person is always the issuer and `sub`); unset: `email` when `email_verified` is true (an unverified address could name anyone, an approver included), and a token without it is shown by its `sub`, which never matches an approver',
    byDefault: '`email` if verified',
    example: { oauthPersonClaim: 'preferred_username' },
  },
  {
    keys: ['approvers'],
    meaning:
      "people who may decide anyone's pending request, by address (an OAuth token's verified email, or DBOPS_OAUTH_PERSON_CLAIM; a tokens-file name), compared trimmed and case-folded; with approvers set, the changes of `DBOPS_FOUR_EYES` need an approver other than the requester, on the approval page, on every channel (where people are not told apart they are refused)",
    byDefault: '\u2014',
    example: { approvers: 'dana.okafor@example.com,priya@example.com' },
  },
  {
    keys: ['fourEyes'],
    meaning:
      'with `DBOPS_APPROVERS` set, the risk categories that need an approver other than the asker: `grant`, `key`, `deletion`, `disable-alerting`, `integration`, `window-pages`, `window-long` (the table: docs/approval.md)',
    byDefault: 'all seven',
    example: { fourEyes: 'grant,key,deletion,integration' },
  },
  {
    keys: ['longWindowHours'],
    meaning:
      "`window-long`'s limit: a maintenance window longer than this many hours (created, or widened to it) is that risk",
    example: { longWindowHours: '72' },
  },
  {
    keys: ['readyKeepMs'],
    meaning:
      "how long `GET /readyz` keeps the platform's answer: one probe per installation per this, per replica, outside the tools' rate budget (anyone may ask `/readyz`)",
    example: { readyKeepMs: '10000' },
  },
  {
    keys: ['httpMaxSessionsPerPerson'],
    meaning: 'HTTP sessions one person may hold at once (behind `DBOPS_HTTP_MAX_SESSIONS`)',
    example: { httpMaxSessionsPerPerson: '5' },
  },
  {
    keys: ['transport', 'host', 'port'],
    meaning: '`stdio` or `http`; HTTP bind address and port',
    example: { transport: 'http', host: '0.0.0.0', port: '8080' },
  },
  {
    keys: ['allowedOrigins'],
    meaning: 'extra browser origins allowed on the HTTP transport',
    byDefault: 'loopback origins only',
    example: { allowedOrigins: 'https://chat.example.com' },
  },
  {
    keys: ['sessionIdleMs'],
    meaning: 'HTTP sessions idle this long are closed',
    example: { sessionIdleMs: '600000' },
  },
  {
    keys: ['httpMaxSessions'],
    meaning:
      'HTTP sessions held at once; at the cap the least recently used idle one is closed, and with none idle a new session gets 503 with `Retry-After`',
    example: { httpMaxSessions: '500' },
  },
  {
    keys: ['stateDir'],
    meaning:
      'the single-use ledger of used confirmation tokens and executed approvals (outlives restarts; safe for several processes)',
    byDefault: '`$XDG_STATE_HOME/dbops-mcp`',
    example: { stateDir: '/var/lib/dbops-mcp' },
  },
  {
    keys: ['demo'],
    meaning: 'use the embedded simulator even when `DBOPS_BASE_URL` is set (`--demo`)',
  },
  {
    keys: ['logLevel'],
    meaning: '`error`, `warn`, `info` or `debug` (stderr, JSON lines; also MCP logging)',
    example: { logLevel: 'debug' },
  },
  {
    keys: [],
    others: ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'],
    meaning: 'proxies for the API client',
    byDefault: '\u2014',
  },
];

/** The five settings a person sets first (the README opens with them). */
export const firstSettings: readonly Key[] = ['baseUrl', 'publicKey', 'privateKey', 'projectId', 'readOnly'];
