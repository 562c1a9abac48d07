// `dbops-mcp simulator`: runs the platform simulator until SIGINT/SIGTERM. It serves a known demo key, so it
// binds to loopback unless --allow-remote says otherwise.

import { parseArgs } from 'node:util';
import { createLogger } from '../log.js';
import { isLoopback } from '../net.js';
import { FAULT_STATUSES, type FaultStatus, type Faults } from './faults.js';
import { type StartSimulatorOptions, startSimulator } from './index.js';
import { STATS_PATH } from './server.js';

const usage = `Usage: dbops-mcp simulator [options]

Runs the platform simulator (the administration API with digest auth and a demo dataset) on loopback.

Options:
  --host HOST                 address to bind (default 127.0.0.1; others need --allow-remote)
  --port N                    port (default 8080; 0 = any free port)
  --dataset demo|empty        initial data (default demo)
  --projects N                the demo grown to an installation of N projects (its four stories first)
  --data FILE                 keep the data in FILE (loaded at start, saved after every change)
  --json                      print one JSON line {baseUrl, publicKey, privateKey, orgId, projectIds} on stdout
  --latency-ms N              added latency per request
  --jitter-ms N               extra random latency, 0..N ms
  --error-rate R              share of requests (0..1) answered with an injected error
  --error-statuses LIST       statuses to inject, subset of 500,502,503,429 (default all)
  --reset-rate R              share of requests (0..1) whose connection is reset
  --lose-response-rate R      share of changes (0..1) applied and then answered by a dropped connection
  --lose-response-methods L   methods that may lose their answer (default POST,PUT,PATCH,DELETE)
  --nonce-ttl-ms N            digest nonce lifetime (default 300000)
  --nonce-max-uses N          uses per nonce before it turns stale (default 0 = unlimited)
  --username-validation false|loose|strict   email validation of usernames (default false)
  --bypass-invite             apply role changes of existing users directly
  --dialect spec|field        the names it speaks: the spec's, or the field's (DATADOG, PAGER_DUTY…; default spec)
  --seed N                    seed of the demo dataset
  --allow-remote              allow a non-loopback --host
  --help                      show this help`;

class UsageError extends Error {}

const options = {
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string', default: '8080' },
  dataset: { type: 'string', default: 'demo' },
  projects: { type: 'string' },
  dialect: { type: 'string', default: 'spec' },
  data: { type: 'string' },
  json: { type: 'boolean', default: false },
  'latency-ms': { type: 'string' },
  'jitter-ms': { type: 'string' },
  'error-rate': { type: 'string' },
  'error-statuses': { type: 'string' },
  'reset-rate': { type: 'string' },
  'lose-response-rate': { type: 'string' },
  'lose-response-methods': { type: 'string' },
  'nonce-ttl-ms': { type: 'string' },
  'nonce-max-uses': { type: 'string' },
  'username-validation': { type: 'string', default: 'false' },
  'bypass-invite': { type: 'boolean', default: false },
  seed: { type: 'string' },
  'allow-remote': { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function number(flag: string, text: string | undefined, min: number, max: number, integer: boolean) {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new UsageError(`--${flag} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  }
  return n;
}

function oneOf<T extends string>(flag: string, text: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(text)) {
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}`);
  }
  return text as T;
}

function readFlags(args: string[]) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    // node's messages name the flag, e.g. "Unknown option '--prot'".
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Turns the command line into simulator options; throws UsageError naming the bad flag. */
function parseSimulatorArgs(args: string[]): {
  help: boolean;
  json: boolean;
  start: StartSimulatorOptions;
} {
  const values = readFlags(args);
  if (!isLoopback(values.host) && !values['allow-remote']) {
    throw new UsageError(
      `--host ${values.host} is not a loopback address; the simulator serves a published demo key, ` +
        'add --allow-remote to bind it there anyway',
    );
  }
  const faults: Partial<Faults> = {};
  const set = <K extends keyof Faults>(key: K, value: Faults[K] | undefined) => {
    if (value !== undefined) faults[key] = value;
  };
  set('latencyMs', number('latency-ms', values['latency-ms'], 0, 600_000, false));
  set('jitterMs', number('jitter-ms', values['jitter-ms'], 0, 600_000, false));
  set('errorRate', number('error-rate', values['error-rate'], 0, 1, false));
  set('resetRate', number('reset-rate', values['reset-rate'], 0, 1, false));
  set('loseResponseRate', number('lose-response-rate', values['lose-response-rate'], 0, 1, false));
  set(
    'loseResponseMethods',
    values['lose-response-methods']?.split(',').map((m) => m.trim().toUpperCase()),
  );
  set('nonceTtlMs', number('nonce-ttl-ms', values['nonce-ttl-ms'], 1, 86_400_000, true));
  set('nonceMaxUses', number('nonce-max-uses', values['nonce-max-uses'], 0, 1_000_000_000, true));
  if (values['error-statuses'] !== undefined) {
    const statuses = values['error-statuses'].split(',').map((s) => s.trim());
    if (
      statuses.length === 0 ||
      statuses.some((s) => !(FAULT_STATUSES as readonly number[]).includes(Number(s)))
    ) {
      throw new UsageError(
        `--error-statuses must be a comma-separated subset of ${FAULT_STATUSES.join(',')}`,
      );
    }
    faults.errorStatuses = statuses.map(Number) as FaultStatus[];
  }
  return {
    help: values.help,
    json: values.json,
    start: {
      host: values.host.replace(/^\[(.*)\]$/, '$1'),
      port: number('port', values.port, 0, 65_535, true),
      dataset: oneOf('dataset', values.dataset, ['demo', 'empty'] as const),
      projects: number('projects', values.projects, 1, 10_000, true),
      dataFile: values.data,
      seed: number('seed', values.seed, 0, 2 ** 31 - 1, true),
      faults,
      usernameValidation: oneOf('username-validation', values['username-validation'], [
        'false',
        'loose',
        'strict',
      ] as const),
      bypassInvite: values['bypass-invite'],
      dialect: oneOf('dialect', values.dialect, ['spec', 'field'] as const),
    },
  };
}

export async function runSimulatorCli(args: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseSimulatorArgs>;
  try {
    parsed = parseSimulatorArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`dbops-mcp simulator: ${error.message}\n\n${usage}\n`);
    return 2;
  }
  if (parsed.help) {
    process.stderr.write(`${usage}\n`);
    return 0;
  }

  const sim = await startSimulator({ ...parsed.start, logger: createLogger('warn') });
  const { baseUrl, keys, orgId, projectIds } = sim;
  const lines = [
    `dbops-mcp simulator listening on ${baseUrl}`,
    keys.publicKey
      ? `  API key      public ${keys.publicKey}  private ${keys.privateKey}`
      : '  API key      none yet: create the first user with POST /unauth/users',
    ...(orgId ? [`  org id       ${orgId}`] : []),
    ...(projectIds.length > 0 ? [`  project ids  ${projectIds.join(', ')}`] : []),
    `  data         ${parsed.start.dataFile ?? 'in memory (lost on exit; --data FILE keeps it)'}`,
    `  stats        ${sim.origin}${STATS_PATH}`,
    `  try          curl --digest -u ${keys.publicKey || 'PUBLIC'}:${keys.privateKey || 'PRIVATE'} ${baseUrl}/groups/${projectIds[0] ?? '<projectId>'}/alertConfigs`,
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
  if (parsed.json) {
    const info = { baseUrl, publicKey: keys.publicKey, privateKey: keys.privateKey, orgId, projectIds };
    process.stdout.write(`${JSON.stringify(info)}\n`);
  }

  const stop = () => {
    sim.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return 0;
}
