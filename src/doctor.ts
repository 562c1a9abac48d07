// `dbops-mcp doctor`: checks a configuration end to end before any client connects, one step at a time, each
// failure with the fix for its real cause (a URL without a scheme, https against a plain-http port, a wrong key,
// a misspelt setting, a taken port, a state directory another server holds). Demo mode checks the embedded
// simulator. Exit 0 when all pass, 1 otherwise. `serve` runs the cheap ones (startupChecks) at start-up and
// prints a one-line summary when one fails.
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { createApiClient } from './api/client.js';
import { createDigestAuth, parseDigestChallenge } from './api/digest.js';
import { ApiError, sanitizeText } from './api/errors.js';
import { errorCodeOf, isPlainHttpOnTls, normaliseBaseUrl } from './api/transport.js';
import { type Config, ConfigError, loadConfig, loadPlatforms, unknownSettings } from './config/index.js';
import { createIdentity, type Identity } from './identity/index.js';
import { personClaimText } from './identity/oauth.js';
import { silentLogger } from './log.js';
import { catalog, toolsets } from './mcp/catalog.js';
import { isLoopback } from './net.js';
import {
  type ClientSets,
  clientSets,
  enabledTools,
  parseToolsets,
  toolsetOf,
  unknownToolsets,
} from './policy/toolsets.js';
import { liveOwner } from './state/owner.js';
import { maxKindOf } from './tool/index.js';

export interface Check {
  step: string;
  ok: boolean;
  /** What was found. */
  detail: string;
  /** What to do, when the step failed. */
  fix?: string;
}

const MAX_SKEW_S = 60;
const pass = (step: string, detail: string): Check => ({ step, ok: true, detail });
const fail = (step: string, detail: string, fix: string): Check => ({ step, ok: false, detail, fix });

/** Why a connection failed, in the words of the fix (never "set DBOPS_CA_FILE" for a plain-http port). */
function connectionProblem(url: URL, e: unknown): { detail: string; fix: string } {
  const code = errorCodeOf(e) ?? '';
  const err = e as { cause?: { message?: string }; message?: string };
  const text = `${err.cause?.message ?? ''} ${err.message ?? ''}`.trim();
  if (url.protocol === 'https:' && isPlainHttpOnTls(e))
    return {
      detail: `${url.host} answers plain HTTP, not TLS`,
      fix: `Use http://${url.host} in DBOPS_BASE_URL (or enable TLS on the platform)`,
    };
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|HOSTNAME_MISMATCH|DEPTH_ZERO/i.test(code))
    return {
      detail: `the TLS certificate of ${url.host} is not trusted (${code})`,
      fix: 'Point DBOPS_CA_FILE at the CA bundle that signed it (DBOPS_TLS_INSECURE=true only to test)',
    };
  if (code === 'ECONNREFUSED')
    return { detail: `nothing listens on ${url.host}`, fix: 'Check the host and port in DBOPS_BASE_URL' };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return { detail: `${url.hostname} does not resolve`, fix: 'Check the host name in DBOPS_BASE_URL' };
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return {
      detail: `${url.host} did not answer in time (${code})`,
      fix: 'Check DBOPS_BASE_URL, the network path and proxies (HTTPS_PROXY, NO_PROXY)',
    };
  return {
    detail: `${code || 'connection failed'}: ${sanitizeText(text, 200)}`,
    fix: 'Check DBOPS_BASE_URL and the network',
  };
}

function settingsCheck(args: string[], env: NodeJS.ProcessEnv): { checks: Check[]; config?: Config } {
  const checks: Check[] = [];
  const raw = env.DBOPS_BASE_URL?.trim();
  if (raw && !/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    checks.push(
      fail(
        'URL',
        `DBOPS_BASE_URL "${raw}" has no scheme`,
        `Write it with its scheme: https://${raw} (or http://${raw})`,
      ),
    );
    return { checks };
  }
  for (const warning of unknownSettings(env))
    checks.push(
      fail('settings', warning, 'Rename the variable (or remove it); an unknown one changes nothing'),
    );
  try {
    const config = loadConfig(args, env);
    if (!checks.length)
      checks.push(pass('settings', 'every DBOPS_* variable is a known setting with a valid value'));
    return { checks, config };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    checks.push(fail('settings', e.message, 'Correct the value as the message says'));
    return { checks };
  }
}

interface Target {
  baseUrl: string;
  publicKey?: string;
  privateKey?: string;
  demo: boolean;
  close(): Promise<void>;
}

/** The platform to check: DBOPS_BASE_URL, or in demo mode the embedded simulator with its demo key. */
async function targetOf(config: Config): Promise<Target> {
  if (config.baseUrl && !config.demo)
    return {
      baseUrl: normaliseBaseUrl(config.baseUrl),
      publicKey: config.publicKey,
      privateKey: config.privateKey,
      demo: false,
      close: async () => {},
    };
  const { startSimulator } = await import('./simulator/index.js');
  const sim = await startSimulator({
    dataset: 'demo',
    port: 0,
    dialect: config.dialect === 'field' ? 'field' : 'spec',
  });
  return { baseUrl: sim.baseUrl, ...sim.keys, demo: true, close: () => sim.close() };
}

type Probe = { statusCode: number; headers: Record<string, string | string[] | undefined> };

/** One GET of {prefix}/groups, signed or not, answered or failed as the network made it. */
async function probe(config: Config, base: URL, authorization?: string, timeoutMs = 10_000): Promise<Probe> {
  const dispatcher = new Agent({
    connect: {
      ...(config.caFile ? { ca: readFileSync(config.caFile) } : {}),
      rejectUnauthorized: !config.tlsInsecure,
      timeout: timeoutMs,
    },
  });
  try {
    const answer = await request(new URL(`${base.pathname}/groups?itemsPerPage=1`, base), {
      dispatcher,
      headers: authorization ? { authorization } : {},
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    await answer.body.dump();
    return { statusCode: answer.statusCode, headers: answer.headers };
  } finally {
    await dispatcher.close().catch(() => {});
  }
}

/** The connection step alone: the URL answers, over trusted TLS when https. */
async function urlCheck(
  config: Config,
  base: URL,
  timeoutMs?: number,
): Promise<{ check: Check; answer?: Probe }> {
  try {
    const answer = await probe(config, base, undefined, timeoutMs);
    return {
      check: pass(
        'URL and TLS',
        `${base.origin} answers${base.protocol === 'https:' ? ' over trusted TLS' : ''}`,
      ),
      answer,
    };
  } catch (e) {
    if (config.caFile && (e as NodeJS.ErrnoException).path === config.caFile)
      return {
        check: fail(
          'URL and TLS',
          `cannot read ${config.caFile}: ${(e as Error).message}`,
          'Point DBOPS_CA_FILE at a readable PEM file',
        ),
      };
    const p = connectionProblem(base, e);
    return { check: fail('URL and TLS', p.detail, p.fix) };
  }
}

const header = (p: Probe, name: RegExp) =>
  Object.entries(p.headers)
    .find(([k]) => name.test(k))?.[1]
    ?.toString();

/** The platform: reachable, a digest challenge, the key, its roles, the version header and the clock. */
async function platformChecks(config: Config): Promise<Check[]> {
  const target = await targetOf(config);
  const checks: Check[] = [];
  try {
    const base = new URL(target.baseUrl);
    const url = await urlCheck(config, base);
    checks.push(url.check);
    const challengeAnswer = url.answer;
    if (!challengeAnswer) return checks;

    const challengeHeader = challengeAnswer.headers['www-authenticate'];
    const challenge = parseDigestChallenge(challengeHeader);
    if (challengeAnswer.statusCode !== 401 || !challenge) {
      checks.push(
        fail(
          'digest challenge',
          `GET ${base.pathname}/groups without a key answered ${challengeAnswer.statusCode}, not 401 with a Digest challenge`,
          'DBOPS_BASE_URL must point at the platform (its host root or its /api/public/v1.0 prefix), not a proxy or another service',
        ),
      );
      return checks;
    }
    checks.push(pass('digest challenge', `realm "${sanitizeText(challenge.realm, 80)}"`));

    if (!target.publicKey || !target.privateKey) {
      checks.push(
        fail(
          'API key',
          'DBOPS_PUBLIC_KEY / DBOPS_PRIVATE_KEY are not set',
          'Set both (an API key of the platform)',
        ),
      );
      return checks;
    }
    // One signed read, made here, so its answer's headers (version, date) are at hand.
    const uri = `${base.pathname}/groups?itemsPerPage=1`;
    const signed = createDigestAuth({ username: target.publicKey, password: target.privateKey }).signFresh(
      challenge,
      'GET',
      uri,
    );
    let authed: Probe;
    try {
      authed = await probe(config, base, signed.header);
    } catch (e) {
      const p = connectionProblem(base, e);
      checks.push(fail('API key', p.detail, p.fix));
      return checks;
    }
    if (authed.statusCode === 401) {
      checks.push(
        fail(
          'API key',
          'the platform refused the key (401)',
          'Check DBOPS_PUBLIC_KEY and DBOPS_PRIVATE_KEY (the private key is shown once, when the key is made)',
        ),
      );
      return checks;
    }
    if (authed.statusCode === 403) {
      checks.push(
        fail(
          'API key',
          "the platform refused this machine's address for the key (403)",
          "Add this machine's address to the key's access list",
        ),
      );
      return checks;
    }
    if (authed.statusCode >= 300) {
      checks.push(
        fail(
          'API key',
          `an authenticated GET /groups answered ${authed.statusCode}`,
          'Check DBOPS_BASE_URL and the platform',
        ),
      );
      return checks;
    }

    const version =
      header(authed, /^x-.*-service-version$/i) ?? header(challengeAnswer, /^x-.*-service-version$/i);
    checks.push(
      pass(
        'server version',
        version ? sanitizeText(version, 160) : 'the platform sends no X-…-Service-Version header',
      ),
    );
    const date = Date.parse(header(authed, /^date$/i) ?? '');
    if (!Number.isNaN(date)) {
      const skew = Math.round((Date.now() - date) / 1000);
      checks.push(
        Math.abs(skew) > MAX_SKEW_S
          ? fail(
              'clock',
              `this machine's clock is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the platform's`,
              'Synchronise the clock (NTP): acknowledgements, maintenance windows and confirmation tokens depend on it',
            )
          : pass('clock', `within ${Math.abs(skew)} s of the platform's (more than ${MAX_SKEW_S} s fails)`),
      );
    }
    checks.push(...(await keyChecks(config, target)));
    return checks;
  } finally {
    await target.close();
  }
}

/** The key through the client the tools use: what it sees, its roles, and the tools those roles allow. */
async function keyChecks(config: Config, target: Target): Promise<Check[]> {
  const api = createApiClient({
    baseUrl: target.baseUrl,
    publicKey: target.publicKey ?? '',
    privateKey: target.privateKey ?? '',
    timeoutMs: Math.min(config.timeoutMs, 15_000),
    maxRetries: 0,
    cacheTtlMs: 0,
    caFile: config.caFile,
    tlsInsecure: config.tlsInsecure,
    dialect: config.dialect,
  });
  try {
    let projects: Awaited<ReturnType<typeof api.projects.list>>;
    try {
      projects = await api.projects.list({ itemsPerPage: 500 });
    } catch (e) {
      const status = e instanceof ApiError ? e.status : 0;
      return [
        fail(
          'API key',
          sanitizeText((e as Error).message, 300),
          status === 401 ? 'Check DBOPS_PUBLIC_KEY and DBOPS_PRIVATE_KEY' : 'See the message',
        ),
      ];
    }
    const checks = [
      pass(
        'API key',
        `${target.demo ? 'the demo key is ' : ''}accepted; it sees ${projects.totalCount} project(s)`,
      ),
    ];
    const names = new Map(projects.results.map((p) => [p.id, sanitizeText(String(p.name ?? p.id), 60)]));
    const orgIds = [...new Set(projects.results.map((p) => p.orgId).filter((o): o is string => Boolean(o)))];
    if (config.orgId && !orgIds.includes(config.orgId)) orgIds.unshift(config.orgId);
    const roles = await keyRoles(api, target.publicKey ?? '', orgIds);
    checks.push(
      roles === undefined
        ? pass(
            'key roles',
            "not readable with this key (the organization's key list needs a role in that organization); the platform will refuse what the key may not do",
          )
        : roleCheck(config, roles, names),
    );
    return checks;
  } finally {
    await api.close();
  }
}

interface Role {
  roleName?: string;
  groupId?: string;
  orgId?: string;
}

async function keyRoles(
  api: ReturnType<typeof createApiClient>,
  publicKey: string,
  orgIds: string[],
): Promise<Role[] | undefined> {
  for (const orgId of orgIds.slice(0, 20)) {
    try {
      const keys = await api.apiKeys.listForOrg(orgId, { itemsPerPage: 500 });
      const mine = keys.results.find((k) => k.publicKey === publicKey);
      if (mine) return (mine.roles ?? []) as Role[];
    } catch {
      // Not readable with this key: try the next organization, then say so.
    }
  }
  return undefined;
}

/** Roles that only read (ORG_MEMBER alone grants no change either). */
const readsOnly = (r: string) => /READ_ONLY$/.test(r) || r === 'ORG_MEMBER';

/**
 * Which of the offered tools the key's roles allow: every read tool; the change tools only with a role that
 * writes, and then where that role reaches (a project, an organization, everywhere for a global role). A key
 * that only reads fails unless DBOPS_READ_ONLY matches it, since its change tools would all be refused.
 */
function roleCheck(config: Config, roles: Role[], projectNames: Map<string, string>): Check {
  const where = (r: Role) =>
    r.groupId
      ? `project ${projectNames.get(r.groupId) ?? r.groupId}`
      : r.orgId
        ? 'its organization'
        : 'every organization';
  const named = (rs: Role[]) => rs.map((r) => `${r.roleName} (${where(r)})`).join(', ');
  const list = named(roles) || 'none';
  const tools = offeredTools(config);
  const reads = tools.filter((t) => maxKindOf(t) === 'read');
  const changes = tools.filter((t) => maxKindOf(t) !== 'read');
  const writers = roles.filter((r) => r.roleName && !readsOnly(r.roleName));
  if (!writers.length) {
    if (changes.length)
      return fail(
        'key roles',
        `${list} only read: the ${reads.length} read tools work, and the platform would refuse all ${changes.length} change tools offered (${changes
          .slice(0, 3)
          .map((t) => t.name)
          .join(', ')}…)`,
        'Set DBOPS_READ_ONLY=true (only read tools are offered), or give the key a role that writes',
      );
    return pass('key roles', `${list}: the ${reads.length} read tools offered all work`);
  }
  const reach =
    writers.length === roles.length
      ? 'these roles reach'
      : `${named(writers)} reach${writers.length > 1 ? '' : 'es'}`;
  return pass(
    'key roles',
    `${list}: the ${reads.length} read tools work${changes.length ? `, and the ${changes.length} change tools where ${reach}` : ''}`,
  );
}

function stateDirCheck(config: Config, withOwner = true): Check {
  const dir = config.stateDir;
  try {
    mkdirSync(dir, { recursive: true });
    const owner = statSync(dir).uid;
    if (typeof process.getuid === 'function' && owner !== process.getuid())
      return fail(
        'state directory',
        `${dir} belongs to another user (uid ${owner}), not to this one (uid ${process.getuid()})`,
        'Give the server a DBOPS_STATE_DIR of its own user (it keeps used tokens and approvals there)',
      );
    accessSync(dir, constants.W_OK);
    const probe = join(dir, `.doctor-${randomBytes(4).toString('hex')}`);
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (e) {
    return fail(
      'state directory',
      `${dir} is not writable: ${(e as Error).message}`,
      'Point DBOPS_STATE_DIR at a directory this user can create and write',
    );
  }
  const other = withOwner ? liveOwner(dir) : undefined;
  if (other && !config.stateUrl) {
    const who = `pid ${other.pid} on ${other.host}${other.serves ? `, serving ${other.serves}` : ''}`;
    if (config.transport === 'http')
      return fail(
        'state directory',
        `${dir} is held by a running dbops-mcp HTTP server (${who}); a second one would not see its approvals, so it refuses to start`,
        'Give this server its own DBOPS_STATE_DIR, or share approvals through DBOPS_STATE_URL (Redis) on every server; stop the other first if it is this one',
      );
    return pass('state directory', `${dir} is writable and ours (also used by the HTTP server, ${who})`);
  }
  return pass('state directory', `${dir} is writable and ours`);
}

async function redisCheck(url: string): Promise<Check> {
  const { createClient } = await import('@redis/client');
  const host = new URL(url).host;
  const client = createClient({ url, socket: { connectTimeout: 3_000, reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return pass('state store', `${host} answers PING`);
  } catch (e) {
    return fail(
      'state store',
      `Redis at ${host} (DBOPS_STATE_URL) does not answer: ${sanitizeText((e as Error).message, 200)}`,
      'Start Redis there, or correct DBOPS_STATE_URL',
    );
  } finally {
    await client.close().catch(() => {});
  }
}

function portCheck(host: string, port: number): Promise<Check> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', (e: NodeJS.ErrnoException) =>
      resolve(
        e.code === 'EADDRINUSE'
          ? fail('HTTP port', `${host}:${port} is taken by another process`, portFix(port))
          : fail(
              'HTTP port',
              `${host}:${port}: ${e.message}`,
              'Check --host (DBOPS_HOST) and --port (DBOPS_PORT)',
            ),
      ),
    );
    s.listen(port, host, () => s.close(() => resolve(pass('HTTP port', `${host}:${port} is free`))));
  });
}

/** The fix for a taken HTTP port, shared with serve's own message. */
export const portFix = (port: number) =>
  `Stop what listens there, or pick a free port with --port ${port + 1} (or DBOPS_PORT=${port + 1})`;

export async function runDoctor(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Check[]> {
  const { checks, config } = settingsCheck(args, env);
  if (!config) return checks;
  const checked = (c: Config) =>
    platformChecks(c).catch((e: unknown) => [
      fail('platform', sanitizeText((e as Error).message, 300), 'See the message'),
    ]);
  if (config.platforms) {
    // Each installation of DBOPS_PLATFORMS on its own, its checks named after it.
    let several: ReturnType<typeof loadPlatforms>;
    try {
      several = loadPlatforms(config.platforms);
    } catch (e) {
      checks.push(fail('platforms', (e as Error).message, 'Correct the file as the message says'));
      return checks;
    }
    for (const p of several.platforms) {
      const one: Config = {
        ...config,
        ...p,
        demo: false,
        caFile: p.caFile ?? config.caFile,
        tlsInsecure: p.tlsInsecure ?? config.tlsInsecure,
        dialect: p.dialect ?? config.dialect,
        readOnly: p.readOnly || config.readOnly,
      };
      for (const c of await checked(one)) checks.push({ ...c, step: `${p.name}: ${c.step}` });
    }
  } else checks.push(...(await checked(config)));
  checks.push(toolsetsCheck(config));
  checks.push(stateDirCheck(config));
  if (config.stateUrl) checks.push(await redisCheck(config.stateUrl));
  if (config.transport === 'http') {
    checks.push(await identityCheck(config));
    checks.push(await portCheck(config.host, config.port));
  } else if (config.approvers.length > 0) checks.push(await identityCheck(config));
  return checks;
}

/** The toolsets a client starts with (DBOPS_TOOLSETS; dynamic mode offers every tool the settings allow). */
function startView(config: Config): ClientSets | undefined {
  if (unknownToolsets(config.toolsets, toolsets)) return undefined;
  const choice = parseToolsets(config.toolsets, toolsets);
  return choice.dynamic ? undefined : clientSets(choice, config.toolsets);
}

/** The tools the server offers: the settings, then the toolsets (all of them in dynamic mode). */
const offeredTools = (config: Config) => enabledTools(config, catalog, toolsets, startView(config));

/** Which toolsets are listed and how many tools each brings; an unknown name fails with the valid ones. */
function toolsetsCheck(config: Config): Check {
  const step = 'toolsets';
  const refused = unknownToolsets(config.toolsets, toolsets);
  if (refused)
    return fail(step, `DBOPS_TOOLSETS: ${refused}`, 'Name toolsets from the list (or all, or dynamic)');
  const choice = parseToolsets(config.toolsets, toolsets);
  const allowed = enabledTools(config, catalog);
  const view = clientSets(choice, config.toolsets);
  const count = (set: string) => allowed.filter((t) => toolsetOf(toolsets, t.name) === set).length;
  const shown = toolsets.sets
    .filter((s) => view.enabled === 'all' || view.enabled.has(s.name))
    .map((s) => `${s.name} ${count(s.name)}`);
  const listed = enabledTools(config, catalog, toolsets, view).length;
  const setting = `DBOPS_TOOLSETS=${config.toolsets.join(',') || 'all'}`;
  if (choice.dynamic)
    return pass(
      step,
      `${setting}: clients start with list_toolsets, get_toolset_tools, enable_toolset and ${
        shown.length
          ? `${listed} tools (${shown.join(', ')}, ${toolsets.everySet.join(', ')})`
          : toolsets.everySet.join(', ')
      }; each client enables what it needs of ${allowed.length} tools (${toolsets.sets.map((s) => `${s.name} ${count(s.name)}`).join(', ')})`,
    );
  return pass(step, `${setting}: ${listed} of ${allowed.length} tools listed (${shown.join(', ')})`);
}

/** How the HTTP server will know who asks: the tokens file parses, the issuer's metadata and keys answer. */
async function identityCheck(config: Config): Promise<Check> {
  const step = 'identity';
  let identity: Identity;
  try {
    identity = createIdentity(config, silentLogger);
  } catch (e) {
    return fail(
      step,
      sanitizeText((e as Error).message, 300),
      'Correct the file or setting as the message says',
    );
  }
  const approvers = config.approvers.length > 0;
  // Four eyes needs people told apart: here nobody but the asker could approve, so those changes are refused.
  const noFourEyes = (who: string) =>
    fail(
      step,
      `${who}, and DBOPS_APPROVERS is set: grants of access, API keys and deletions will be refused, since nobody but the person asking could approve them`,
      'Give each person a token of their own (DBOPS_HTTP_TOKENS_FILE or DBOPS_OAUTH_ISSUER), or unset DBOPS_APPROVERS',
    );
  const fourEyes = approvers ? `; four eyes: ${config.approvers.length} approver(s)` : '';
  if (approvers && config.transport !== 'http') return noFourEyes("stdio: this machine's user alone");
  switch (identity.mode) {
    case 'none':
      if (approvers) return noFourEyes("this machine's user alone (loopback, no token)");
      return isLoopback(config.host)
        ? pass(step, "this machine's user alone (loopback, no token)")
        : fail(
            step,
            `nobody is told apart and ${config.host} is beyond loopback: the server will refuse to start`,
            'Set DBOPS_OAUTH_ISSUER, DBOPS_HTTP_TOKENS_FILE or DBOPS_HTTP_TOKEN, or bind 127.0.0.1',
          );
    case 'http-token':
      if (approvers) return noFourEyes('one person, the holder of DBOPS_HTTP_TOKEN');
      return pass(step, 'one person, the holder of DBOPS_HTTP_TOKEN');
    case 'token-file':
      return pass(step, `named tokens from ${config.httpTokensFile}${fourEyes}`);
    case 'oauth': {
      const oauth = identity.oauth!;
      try {
        const meta = await oauth.metadata();
        const res = await fetch(meta.jwks_uri, { signal: AbortSignal.timeout(5_000) });
        const keys = res.ok ? ((await res.json()) as { keys?: unknown[] }).keys : undefined;
        if (!keys?.length)
          return fail(
            step,
            `the issuer's keys (${sanitizeText(meta.jwks_uri, 200)}) answered ${res.status} with no key`,
            'Check the issuer: tokens cannot be verified without its published keys',
          );
        const signIn = config.oauthClientId ? ', the approval page signs people in' : '';
        return pass(
          step,
          `OAuth: issuer ${config.oauthIssuer} and its ${keys.length} signing key(s) answer${signIn}; a person is ${personClaimText(config.oauthPersonClaim)}${fourEyes}`,
        );
      } catch (e) {
        return fail(
          step,
          sanitizeText((e as Error).message, 300),
          'Make DBOPS_OAUTH_ISSUER exactly the issuer its metadata names (/.well-known/oauth-authorization-server or openid-configuration), reachable from this server',
        );
      }
    }
  }
}

/**
 * The cheap checks `serve` runs at start-up, in the background: the platform URL answers (one unsigned GET,
 * a few seconds at most) and the state directory is writable. Settings were checked by the start-up itself,
 * the port by binding it.
 */
export async function startupChecks(config: Config, timeoutMs = 5_000): Promise<Check[]> {
  const checks: Check[] = [];
  if (config.baseUrl && !config.demo) {
    const base = new URL(normaliseBaseUrl(config.baseUrl));
    checks.push((await urlCheck(config, base, timeoutMs)).check);
  }
  // Its owner is this server (serve claimed it before these run).
  checks.push(stateDirCheck(config, false));
  return checks;
}

/** One line for a start-up log: the first failed check and its fix, or undefined when all passed. */
export function summaryLine(checks: Check[]): string | undefined {
  const failed = checks.filter((c) => !c.ok);
  const first = failed[0];
  if (!first) return undefined;
  return `${failed.length} of ${checks.length} start-up checks failed: ${first.step}: ${first.detail}. Fix: ${first.fix}. Run "dbops-mcp doctor" (same settings) for every check.`;
}

export function formatChecks(checks: Check[]): string {
  const lines = checks.map(
    (c) => `${c.ok ? '✓' : '✗'} ${c.step}: ${c.detail}${c.fix ? `\n    fix: ${c.fix}` : ''}`,
  );
  const failed = checks.filter((c) => !c.ok).length;
  lines.push(failed ? `${failed} of ${checks.length} checks failed.` : `All ${checks.length} checks passed.`);
  return lines.join('\n');
}
