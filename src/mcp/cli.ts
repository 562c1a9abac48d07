// serve | tools | call. Output for people goes to stdout only where stdout is not the protocol (tools, call,
// the HTTP transport's banner); under stdio every log line goes to stderr.

import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { outsideBudget } from '../api/budget.js';
import { freshReads } from '../api/cache.js';
import { openInBrowser } from '../approval/open.js';
import { type Config, ConfigError, loadConfig, settingsHelp, unknownSettings } from '../config/index.js';
import type { Person } from '../identity/index.js';
import { createLogger } from '../log.js';
import {
  checkToolFilters,
  clientSets,
  enabledTools,
  notListedSet,
  parseToolsets,
  toolsetOf,
} from '../policy/toolsets.js';
import { claimStateDir, StateDirInUse } from '../state/owner.js';
import type { RedisState } from '../state/redis.js';
import { redisSessions } from '../state/sessions.js';
import { redisToolsets } from '../state/toolsets.js';
import { maxKindOf } from '../tool/index.js';
import { catalog, toolsets } from './catalog.js';
import { listenedUris, listenOn, localBus, redisBus, watchWhileOpen } from './listen.js';
import { createRuntime } from './runtime.js';
import { type ClientToolsets, createMcpServer, type ServerDeps } from './server.js';

const serveHelp =
  () => `Usage: dbops-mcp serve [--transport stdio|http] [--host 127.0.0.1] [--port 3000] [--demo] [--config FILE] [settings]

Each setting is an environment variable and a flag; flags win.
${settingsHelp()}`;

function fail(e: unknown): number {
  if (e instanceof ConfigError) {
    process.stderr.write(
      `dbops-mcp: ${e.message}\n(dbops-mcp doctor checks the whole set-up, each step with its fix)\n`,
    );
    return 2;
  }
  throw e;
}

export async function runServe(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stderr.write(`${serveHelp()}\n`);
    return 0;
  }
  let config: Config;
  try {
    config = loadConfig(args);
    checkToolFilters(config, catalog, toolsets);
  } catch (e) {
    return fail(e);
  }
  const logger = createLogger(config.logLevel);
  for (const warning of unknownSettings()) logger.warn(warning);
  // Without a shared store, pending approvals live in this process: a second HTTP server on the same state
  // directory would not know them, so it refuses to start (src/state/owner.ts). Stdio servers each belong to
  // one client, whose approvals no other client can name, so they share a directory freely.
  let owned: { release(): void } | undefined;
  if (config.transport === 'http' && !config.stateUrl) {
    try {
      owned = claimStateDir(config.stateDir, `http://${config.host}:${config.port}/mcp`);
    } catch (e) {
      if (!(e instanceof StateDirInUse)) throw e;
      process.stderr.write(`dbops-mcp: ${e.message}\n`);
      return 2;
    }
    process.once('exit', () => owned?.release());
  }
  let runtime: Awaited<ReturnType<typeof createRuntime>>;
  try {
    runtime = await createRuntime(config, logger);
  } catch (e) {
    owned?.release();
    return fail(e);
  }
  const deps = runtime.deps;
  const extensions = await loadExtensions();
  const newServer = (person?: Person, client?: ClientToolsets) =>
    createMcpServer({ ...deps, extensions, ...(person ? { person } : {}), ...(client ? { client } : {}) });
  let closeTransport: () => Promise<void>;

  if (config.transport === 'http') {
    // Loaded here: the stdio path (the common one) does not pay for the HTTP transport at start-up.
    const { startHttp } = await import('./http.js');
    let http: Awaited<ReturnType<typeof startHttp>>;
    // Subscription events cross replicas through the shared store, when there is one.
    const bus = runtime.redis ? await redisBus(runtime.redis, logger) : localBus();
    try {
      http = await startHttp({
        host: config.host,
        port: config.port,
        identity: runtime.identity,
        allowedOrigins: config.allowedOrigins,
        sessionIdleMs: config.sessionIdleMs,
        maxSessions: config.httpMaxSessions,
        maxSessionsPerPerson: config.httpMaxSessionsPerPerson,
        logger,
        newServer,
        bus,
        onListen: listenOn(deps, bus),
        publicUrl: config.publicUrl,
        directory: runtime.redis ? redisSessions(runtime.redis) : undefined,
        toolsets: {
          setting: config.toolsets,
          ...(runtime.redis ? { enabled: redisToolsets(runtime.redis) } : {}),
        },
        forwardKey: runtime.redis ? deps.tokens.derive('replica-forward') : undefined,
        routes: runtime.approvals?.routes,
        ready: readiness(runtime),
      });
    } catch (e) {
      await bus.close();
      await runtime.close();
      owned?.release();
      if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
        const { portFix } = await import('../doctor/index.js');
        process.stderr.write(
          `dbops-mcp: ${config.host}:${config.port} is taken by another process. ${portFix(config.port)}.\n`,
        );
        return 2;
      }
      return fail(e);
    }
    runtime.approvals?.useOrigin(http.publicOrigin);
    closeTransport = async () => {
      await http.close();
      await bus.close();
    };
    printBanner(http.url, config, runtime.approvals?.origin());
  } else {
    // Both eras on one connection: the opening message picks it (serveStdio pins one server to it).
    const { serveStdio, StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
    let pinned: ReturnType<typeof newServer> | undefined;
    const transport = listenTap(new StdioServerTransport(), (uris, closed) => {
      // A 2026-07-28 listen stream: the pinned server's updates are routed onto it by serveStdio.
      const publish = (uri: string) => void pinned?.server.sendResourceUpdated({ uri }).catch(() => {});
      void watchWhileOpen(deps, uris, publish, closed);
    });
    const handle = serveStdio(
      () => {
        pinned = newServer();
        return pinned;
      },
      { transport, onerror: (e) => logger.debug('stdio message refused', { error: e.message }) },
    );
    closeTransport = () => handle.close();
    // The client is gone when our stdin ends: the approval page, pollers and the embedded simulator would
    // otherwise keep this process alive.
    process.stdin.once('end', () => void shutdown());
    process.stdin.once('close', () => void shutdown());
    logger.info('dbops-mcp serving MCP over stdio');
  }

  // The doctor's cheap checks, in the background (start-up never waits for them): a failing one is one line.
  void import('../doctor/index.js')
    .then(async ({ startupChecks, summaryLine }) => {
      const line = summaryLine(await startupChecks(config));
      if (line) logger.warn(line);
    })
    .catch((e: Error) => logger.debug('start-up checks failed to run', { error: e.message }));

  let stopping = false;
  async function shutdown() {
    if (stopping) return;
    stopping = true;
    // Within a second, whatever a close is waiting for (an open approval wait, a slow socket).
    setTimeout(() => process.exit(0), 900).unref();
    await closeTransport().catch(() => {});
    await runtime.close().catch(() => {});
    owned?.release();
    process.exit(0);
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void shutdown());
  return 0;
}

/**
 * Watches a stdio transport's incoming messages for 2026-07-28 `subscriptions/listen` requests (which the SDK
 * answers itself) so the feeds they name are polled until the listen is cancelled or the connection ends.
 */
function listenTap<T extends Transport>(
  transport: T,
  onListen: (uris: string[], closed: (stop: () => void) => void) => void,
): T {
  const open = new Map<unknown, () => void>();
  const tap = (m: JSONRPCMessage) => {
    const msg = m as { id?: unknown; method?: string; params?: { requestId?: unknown } };
    const uris = listenedUris(m);
    if (uris.length > 0 && msg.id !== undefined)
      onListen(uris, (stop) => {
        open.get(msg.id)?.();
        open.set(msg.id, stop);
      });
    if (msg.method === 'notifications/cancelled') {
      open.get(msg.params?.requestId)?.();
      open.delete(msg.params?.requestId);
    }
  };
  // serveStdio owns the transport and sets these; the wrappers see every message and the end.
  let onmessage: Transport['onmessage'];
  let onclose: Transport['onclose'];
  Object.defineProperties(transport, {
    onmessage: {
      configurable: true,
      get: () => onmessage,
      set: (h: Transport['onmessage']) => {
        onmessage =
          h &&
          ((m, extra) => {
            tap(m);
            h(m, extra);
          });
      },
    },
    onclose: {
      configurable: true,
      get: () => onclose,
      set: (h: Transport['onclose']) => {
        onclose = () => {
          for (const stop of open.values()) stop();
          open.clear();
          h?.();
        };
      },
    },
  });
  return transport;
}

/** Registrations beyond tools (resources, prompts) live in their own modules, loaded when present. */
async function loadExtensions(): Promise<NonNullable<ServerDeps['extensions']>> {
  const { registerResources } = await import('./resources.js');
  const { registerPrompts } = await import('./prompts.js');
  return [registerResources, registerPrompts];
}

function printBanner(url: string, config: Config, approvalOrigin?: string) {
  const headers = config.httpToken ? { Authorization: 'Bearer <DBOPS_HTTP_TOKEN>' } : undefined;
  const entry = { dbops: { type: 'http', url, ...(headers ? { headers } : {}) } };
  // Each client's own key: "mcpServers" for Claude Code's .mcp.json and Cursor, "servers" for VS Code.
  process.stdout.write(
    `dbops-mcp is serving MCP over Streamable HTTP at ${url}\n` +
      `Health check: ${url.replace(/\/mcp$/, '/healthz')}\n\n` +
      `Client configuration for .mcp.json (Claude Code) or Cursor:\n${JSON.stringify({ mcpServers: entry }, null, 2)}\n\n` +
      `For VS Code (.vscode/mcp.json):\n${JSON.stringify({ servers: entry }, null, 2)}\n\n` +
      `Claude Code: claude mcp add --transport http dbops ${url}\n` +
      (approvalOrigin ? `Approval page (pending approvals): ${approvalOrigin}/approvals\n` : '') +
      `Stop with Ctrl-C.\n`,
  );
}

/** `dbops-mcp tools | head -1`: a reader that stops reading is no error worth a stack trace. */
function quietOnClosedPipe(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(0);
  });
}

/**
 * A description's first sentence, for one line per tool: it ends at ". " outside parentheses and not after an
 * abbreviation ("e.g. ", "i.e. "), so "(e.g. …)" is never cut in half.
 */
export function firstSentence(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (
      c === '.' &&
      depth === 0 &&
      /\s/.test(text[i + 1] ?? '') &&
      !/\b(e\.g|i\.e|etc|vs)$/i.test(text.slice(0, i))
    )
      return text.slice(0, i);
  }
  return text.replace(/\.$/, '');
}

export async function runTools(args: string[]): Promise<number> {
  quietOnClosedPipe();
  const json = args.includes('--json');
  let config: Config;
  try {
    config = loadConfig(args.filter((a) => a !== '--json'));
    checkToolFilters(config, catalog, toolsets);
  } catch (e) {
    return fail(e);
  }
  for (const warning of unknownSettings()) process.stderr.write(`dbops-mcp: warning: ${warning}\n`);
  // The tools the settings allow, each with its toolset; in dynamic mode those not listed at first say so.
  const choice = parseToolsets(config.toolsets, toolsets);
  const view = clientSets(choice, config.toolsets);
  const tools = enabledTools(config, catalog)
    .filter((t) => choice.dynamic || notListedSet(toolsets, view, t.name) === undefined)
    .map((t) => ({
      name: t.name,
      kind: maxKindOf(t),
      toolset: toolsetOf(toolsets, t.name) ?? 'every set',
      ...(choice.dynamic ? { listedAtStart: notListedSet(toolsets, view, t.name) === undefined } : {}),
      title: t.title,
      description: t.description,
    }));
  if (json) process.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
  else {
    const width = Math.max(...tools.map((t) => t.name.length));
    const setWidth = Math.max(...tools.map((t) => t.toolset.length));
    for (const t of tools)
      process.stdout.write(
        `${t.name.padEnd(width)}  ${t.kind.padEnd(11)}  ${t.toolset.padEnd(setWidth)}  ${firstSentence(t.description)}\n`,
      );
    if (choice.dynamic)
      process.stdout.write(
        `\nDBOPS_TOOLSETS=${config.toolsets.join(',')}: clients start with list_toolsets, get_toolset_tools, enable_toolset${
          view.enabled === 'all' || view.enabled.size === 0
            ? ''
            : ` and the sets ${[...view.enabled].join(', ')}`
        }, plus list_projects; the rest is enabled per client.\n`,
      );
  }
  return 0;
}

const callHelp = `Usage: dbops-mcp call <tool> [json-args] [--yes] [--demo] [--demo-reset] [settings]

Runs one tool through the real MCP path and prints its text answer; exit 1 when the tool reports an error.
Guarded changes: without --yes the first call prints a preview and a confirmationToken (pass it back in the
JSON arguments to apply); --yes is your consent from this shell and applies the change after showing it.
With DBOPS_APPROVAL_OPEN=true the approval page opens in your browser instead and the call waits for your
decision there (up to DBOPS_APPROVAL_WAIT_MS).
Demo mode keeps its data between calls in demo-state.json beside the audit log, so a change stays made;
--demo-reset starts over from fresh demo data.`;

/**
 * A one-shot process cannot serve a page after it exits, so `call` uses the approval page only when it
 * waits for the decision: with DBOPS_APPROVAL_OPEN (browser opened), or when the page is the only channel
 * allowed. Either way the link is printed on stderr.
 */
export function forCall(parsed: Config): Config {
  const config = { ...parsed, transport: 'stdio' as const };
  if (!config.confirmVia.includes('approval-page') || config.approvalOpen) return config;
  const others = config.confirmVia.filter((c) => c !== 'approval-page');
  return others.length ? { ...config, confirmVia: others } : { ...config, approvalOpen: true };
}

/**
 * A token printed by one `call` must verify in the next one, so without DBOPS_TOKEN_SECRET the command keeps
 * a random secret in a 0600 file beside the audit log (the person's own state directory).
 */
export function callTokenSecret(auditLog: string): string {
  const file = join(dirname(auditLog), 'call-token-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const secret = randomBytes(32).toString('hex');
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return readFileSync(file, 'utf8').trim(); // another call created it first
    }
  }
}

export async function runCall(args: string[]): Promise<number> {
  const [name, maybeJson, ...rest] = args;
  if (!name || name === '--help' || name === '-h') {
    process.stderr.write(`${callHelp}\n`);
    return name ? 0 : 2;
  }
  const hasJson = maybeJson !== undefined && !maybeJson.startsWith('--');
  const flags = hasJson ? rest : [maybeJson, ...rest].filter((a): a is string => a !== undefined);
  quietOnClosedPipe();
  const yes = flags.includes('--yes');
  const demoReset = flags.includes('--demo-reset');
  let toolArgs: Record<string, unknown> = {};
  let config: Config;
  let browser = false;
  try {
    if (hasJson) {
      const parsed: unknown = JSON.parse(maybeJson);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new ConfigError('the tool arguments must be a JSON object, e.g. \'{"projectId":"..."}\'');
      toolArgs = parsed as Record<string, unknown>;
    }
    const parsed = loadConfig(
      flags.filter((a) => a !== '--yes').map((a) => (a === '--demo-reset' ? '--demo' : a)),
    );
    checkToolFilters(parsed, catalog, toolsets);
    browser = parsed.approvalOpen;
    config = { ...forCall(parsed), tokenSecret: parsed.tokenSecret ?? callTokenSecret(parsed.auditLog) };
  } catch (e) {
    if (e instanceof SyntaxError)
      return fail(new ConfigError(`the tool arguments are not valid JSON: ${e.message}`));
    return fail(e);
  }
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  // Each call is a new process: demo data lives in a file so that what one call changes, the next one sees.
  const demoDataFile =
    config.demo || !config.baseUrl ? join(dirname(config.auditLog), 'demo-state.json') : undefined;
  if (demoDataFile && demoReset) rmSync(demoDataFile, { force: true });
  let runtime: Awaited<ReturnType<typeof createRuntime>>;
  try {
    runtime = await createRuntime(config, logger, {
      demoDataFile,
      openApproval: (url) => {
        process.stderr.write(`Approve or decline at ${url} (waiting for your decision)\n`);
        if (browser) openInBrowser(url, logger);
      },
    });
  } catch (e) {
    return fail(e);
  }
  const server = createMcpServer({
    ...runtime.deps,
    extensions: await loadExtensions(),
    ...(yes ? { elicitationChannel: '--yes' } : {}),
  });
  const { Client, InMemoryTransport } = await import('@modelcontextprotocol/client');
  const client = new Client(
    { name: 'dbops-mcp-call', version: '1' },
    { capabilities: yes ? { elicitation: { form: {} } } : {} },
  );
  if (yes)
    client.setRequestHandler('elicitation/create', async (req) => {
      process.stderr.write(`${req.params.message}\n(approved with --yes)\n`);
      return { action: 'accept', content: { confirm: true } };
    });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  try {
    await server.connect(serverSide);
    await client.connect(clientSide);
    // A call waiting on the approval page outlives the default request timeout; progress keeps it alive.
    const result = await client.callTool(
      { name, arguments: toolArgs },
      {
        timeout: config.approvalWaitMs + 60_000,
        onprogress: () => {},
        resetTimeoutOnProgress: true,
      },
    );
    const content = result.content as Array<{ type: string; text?: string }>;
    const text = content.map((c) => c.text ?? '').join('\n');
    (result.isError ? process.stderr : process.stdout).write(`${text}\n`);
    return result.isError ? 1 : 0;
  } finally {
    await client.close().catch(() => {});
    await server.close().catch(() => {});
    await runtime.close();
  }
}

/**
 * What GET /readyz reports: the platform (each installation, with several) answers an authenticated read,
 * and the state store answers. Anyone may ask (load balancers send no token), so the platform's answer is
 * kept (DBOPS_READY_KEEP_MS, 30 s) and the probe spends nothing of the tools' rate budget: asking often costs
 * the platform nothing.
 */
export function readiness(
  runtime: Awaited<ReturnType<typeof createRuntime>>,
  now: () => number = Date.now,
): () => Promise<Record<string, { ok: boolean; detail?: string }>> {
  const keepMs = runtime.deps.config.readyKeepMs;
  type Result = { ok: boolean; detail?: string };
  const check = async (probe: () => Promise<unknown>): Promise<Result> => {
    try {
      await probe();
      return { ok: true };
    } catch (e) {
      return { ok: false, detail: (e as Error).message };
    }
  };
  const kept = new Map<string, { at: number; result: Promise<Result> }>();
  /** One probe per installation at a time, its answer kept keepMs (fresh: a kept read says nothing). */
  const answers = (name: string, api: ServerDeps['api']) => {
    const k = kept.get(name);
    if (k && now() - k.at < keepMs) return k.result;
    const result = check(() =>
      outsideBudget(() =>
        freshReads(() => api.request({ method: 'GET', path: '/groups', query: { itemsPerPage: 1 } })),
      ),
    );
    kept.set(name, { at: now(), result });
    return result;
  };
  return async () => {
    const several = runtime.deps.platforms?.all;
    const platforms: Record<string, Result> = several
      ? Object.fromEntries(
          await Promise.all(several.map(async (p) => [`platform:${p.name}`, await answers(p.name, p.api)])),
        )
      : { platform: await answers('', runtime.deps.api) };
    return {
      ...platforms,
      ...(runtime.redis
        ? { stateStore: await check(() => (runtime.redis as RedisState).eval('return 1', [], [])) }
        : {}),
    };
  };
}
