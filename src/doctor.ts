// `dbops-mcp doctor`: checks a configuration end to end before any client connects, one step at a time, each
// failure with the fix for its real cause (a URL without a scheme, https against a plain-http port, a wrong key,
// a misspelt setting, a taken port). Demo mode checks the embedded simulator. Exit 0 when all pass, 1 otherwise.
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { ApiError } from './api/errors.js';
import { normaliseBaseUrl } from './api/transport.js';
import { type Config, ConfigError, loadConfig, unknownSettings } from './config.js';
import { silentLogger } from './log.js';

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
  const err = e as { code?: string; cause?: { code?: string; message?: string }; message?: string };
  const code = err.cause?.code ?? err.code ?? '';
  const text = `${err.cause?.message ?? ''} ${err.message ?? ''}`;
  if (
    url.protocol === 'https:' &&
    (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|EPROTO/i.test(`${code} ${text}`))
  )
    return {
      detail: `${url.host} answers plain HTTP, not TLS`,
      fix: `Use http://${url.host} in DBOPS_BASE_URL (or enable TLS on the platform)`,
    };
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/i.test(code))
    return {
      detail: `the TLS certificate of ${url.host} is not trusted (${code})`,
      fix: 'Point DBOPS_CA_FILE at the CA bundle that signed it (DBOPS_TLS_INSECURE=true only to test)',
    };
  if (code === 'ECONNREFUSED')
    return { detail: `nothing listens on ${url.host}`, fix: 'Check the host and port in DBOPS_BASE_URL' };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return { detail: `${url.hostname} does not resolve`, fix: 'Check the host name in DBOPS_BASE_URL' };
  return {
    detail: `${code || 'connection failed'}: ${text.trim()}`,
    fix: 'Check DBOPS_BASE_URL and the network',
  };
}

async function settingsCheck(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ checks: Check[]; config?: Config }> {
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

/** The platform: reachable, a digest challenge, the key, its roles, the version header and the clock. */
async function platformChecks(config: Config): Promise<Check[]> {
  const { createRuntime } = await import('./mcp/runtime.js');
  // The state store is checked on its own (below): a down one must not hold up the platform's checks.
  const runtime = await createRuntime({ ...config, transport: 'stdio', stateUrl: undefined }, silentLogger);
  const api = runtime.deps.api;
  const checks: Check[] = [];
  try {
    const base = new URL(normaliseBaseUrl(api.baseUrl));
    const dispatcher = new Agent({
      connect: {
        ...(config.caFile ? { ca: (await import('node:fs')).readFileSync(config.caFile) } : {}),
        rejectUnauthorized: !config.tlsInsecure,
      },
    });
    let probe: Awaited<ReturnType<typeof request>>;
    try {
      probe = await request(new URL(`${base.pathname.replace(/\/$/, '')}/groups`, base), {
        dispatcher,
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      await probe.body.dump();
    } catch (e) {
      const p = connectionProblem(base, e);
      checks.push(fail('URL and TLS', p.detail, p.fix));
      return checks;
    } finally {
      await dispatcher.close().catch(() => {});
    }
    checks.push(
      pass('URL and TLS', `${base.origin} answers${base.protocol === 'https:' ? ' over trusted TLS' : ''}`),
    );

    const challenge = String(probe.headers['www-authenticate'] ?? '');
    if (probe.statusCode !== 401 || !/^Digest /i.test(challenge)) {
      checks.push(
        fail(
          'digest challenge',
          `GET ${base.pathname}/groups without a key answered ${probe.statusCode}, not 401 with a Digest challenge`,
          'DBOPS_BASE_URL must point at the platform (its host root or its /api/public/v1.0 prefix)',
        ),
      );
      return checks;
    }
    checks.push(pass('digest challenge', /realm="([^"]*)"/.exec(challenge)?.[1] ?? 'Digest'));

    const version = Object.entries(probe.headers).find(([k]) => /^x-.*-service-version$/i.test(k));
    checks.push(
      version
        ? pass('server version', String(version[1]))
        : pass('server version', 'not sent with the challenge'),
    );
    const date = Date.parse(String(probe.headers.date ?? ''));
    if (!Number.isNaN(date)) {
      const skew = Math.round((Date.now() - date) / 1000);
      checks.push(
        Math.abs(skew) > MAX_SKEW_S
          ? fail(
              'clock',
              `this machine's clock is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the platform's`,
              'Synchronise the clock (NTP): acknowledgements, maintenance windows and confirmation tokens depend on it',
            )
          : pass('clock', `within ${Math.abs(skew)} s of the platform's`),
      );
    }

    const demo = config.demo || !config.baseUrl;
    if (!demo && (!config.publicKey || !config.privateKey)) {
      checks.push(
        fail(
          'API key',
          'DBOPS_PUBLIC_KEY / DBOPS_PRIVATE_KEY are not set',
          'Set both (an API key of the platform)',
        ),
      );
      return checks;
    }
    try {
      const projects = await api.projects.list({ itemsPerPage: 500 });
      checks.push(
        pass(
          'API key',
          `${demo ? 'the demo key is ' : ''}accepted; it sees ${projects.totalCount} project(s)`,
        ),
      );
      const orgIds = [
        ...new Set(projects.results.map((p) => p.orgId).filter((o): o is string => Boolean(o))),
      ];
      const roles = config.publicKey ? await keyRoles(api, config.publicKey, orgIds) : undefined;
      checks.push(
        roles === undefined
          ? pass(
              'key roles',
              "not readable with this key (the organization's key list needs an organization role)",
            )
          : roleCheck(roles, config.readOnly),
      );
    } catch (e) {
      const status = e instanceof ApiError ? e.status : 0;
      checks.push(
        status === 401
          ? fail(
              'API key',
              'the platform refused the key (401)',
              'Check DBOPS_PUBLIC_KEY and DBOPS_PRIVATE_KEY',
            )
          : status === 403
            ? fail('API key', (e as Error).message, "Add this machine's address to the key's access list")
            : fail('API key', (e as Error).message, 'See the message'),
      );
    }
    return checks;
  } finally {
    await runtime.close();
  }
}

async function keyRoles(
  api: {
    apiKeys: {
      listForOrg(
        o: string,
        q: object,
      ): Promise<{ results: Array<{ publicKey?: string; roles?: Array<{ roleName?: string }> }> }>;
    };
  },
  publicKey: string,
  orgIds: string[],
): Promise<string[] | undefined> {
  for (const orgId of orgIds) {
    try {
      const keys = await api.apiKeys.listForOrg(orgId, { itemsPerPage: 500 });
      const mine = keys.results.find((k) => k.publicKey === publicKey);
      if (mine) return (mine.roles ?? []).map((r) => String(r.roleName));
    } catch {
      // Not readable with this key: try the next organization, then say so.
    }
  }
  return undefined;
}

/** A key without any write role cannot change anything: say so, and the setting that matches it. */
function roleCheck(roles: string[], readOnly: boolean): Check {
  const writes = roles.some((r) => !/READ_ONLY|MEMBER$/.test(r));
  const list = roles.join(', ') || 'none';
  if (!writes && !readOnly)
    return fail(
      'key roles',
      `${list}: read-only, so every change tool would be refused by the platform`,
      'Set DBOPS_READ_ONLY=true (only read tools are offered), or give the key a write role',
    );
  return pass('key roles', `${list}${writes ? '' : ' (read tools only, as DBOPS_READ_ONLY says)'}`);
}

function stateDirCheck(config: Config): Check {
  const dir = config.stateDir;
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    const probe = join(dir, `.doctor-${randomBytes(4).toString('hex')}`);
    writeFileSync(probe, '');
    rmSync(probe);
    const owner = statSync(dir).uid;
    if (typeof process.getuid === 'function' && owner !== process.getuid())
      return fail(
        'state directory',
        `${dir} belongs to another user (uid ${owner})`,
        'Give the server its own DBOPS_STATE_DIR',
      );
    return pass('state directory', `${dir} is writable and ours`);
  } catch (e) {
    return fail(
      'state directory',
      `${dir}: ${(e as Error).message}`,
      'Point DBOPS_STATE_DIR at a directory this user can write',
    );
  }
}

async function redisCheck(url: string): Promise<Check> {
  const { createClient } = await import('@redis/client');
  const client = createClient({ url, socket: { connectTimeout: 3_000, reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return pass('state store', `${new URL(url).host} answers PING`);
  } catch (e) {
    return fail(
      'state store',
      `${new URL(url).host}: ${(e as Error).message}`,
      'Start Redis, or correct DBOPS_STATE_URL',
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
          ? fail(
              'HTTP port',
              `${host}:${port} is taken by another process`,
              'Pick a free one with --port (or DBOPS_PORT)',
            )
          : fail('HTTP port', `${host}:${port}: ${e.message}`, 'Check --host and --port'),
      ),
    );
    s.listen(port, host, () => s.close(() => resolve(pass('HTTP port', `${host}:${port} is free`))));
  });
}

export async function runDoctor(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Check[]> {
  const { checks, config } = await settingsCheck(args, env);
  if (!config) return checks;
  checks.push(
    ...(await platformChecks(config).catch((e: unknown) => [
      fail('platform', (e as Error).message, 'See the message'),
    ])),
  );
  checks.push(stateDirCheck(config));
  if (config.stateUrl) checks.push(await redisCheck(config.stateUrl));
  if (config.transport === 'http') checks.push(await portCheck(config.host, config.port));
  return checks;
}

export function formatChecks(checks: Check[]): string {
  const lines = checks.map(
    (c) => `${c.ok ? '✓' : '✗'} ${c.step}: ${c.detail}${c.fix ? `\n    fix: ${c.fix}` : ''}`,
  );
  const failed = checks.filter((c) => !c.ok).length;
  lines.push(failed ? `${failed} of ${checks.length} checks failed.` : `All ${checks.length} checks passed.`);
  return lines.join('\n');
}
