// `dbops-mcp serve` (the default command): the settings, the runtime, one MCP server per connection or session
// over stdio (serve-stdio.ts) or Streamable HTTP (serve-http.ts, loaded only for it), and a clean stop. Output
// for people goes to stdout only where stdout is not the protocol (the HTTP transport's banner); under stdio
// every log line goes to stderr.

import { catalog, toolsets } from '../../catalog.js';
import { type Config, loadConfig, settingsHelp, unknownSettings } from '../../config/index.js';
import type { Person } from '../../identity/index.js';
import { createLogger, type Logger } from '../../log.js';
import { checkToolFilters } from '../../policy/toolsets.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { type ClientToolsets, createMcpServer } from '../server.js';
import { fail, loadExtensions } from './common.js';
import { serveOverStdio, watchClient } from './serve-stdio.js';

const serveHelp =
  () => `Usage: dbops-mcp serve [--transport stdio|http] [--host 127.0.0.1] [--port 3000] [--demo] [--config FILE] [settings]

Each setting is an environment variable and a flag; flags win.
${settingsHelp()}`;

/**
 * Without a shared store, pending approvals live in this process: a second HTTP server on the same state
 * directory would not know them, so it refuses to start (src/state/owner.ts). Stdio servers each belong to
 * one client, whose approvals no other client can name, so they share a directory freely. Returns the exit
 * code when the directory is taken.
 */
async function claimForHttp(config: Config): Promise<{ release(): void } | number | undefined> {
  if (config.transport !== 'http' || config.stateUrl) return undefined;
  // Loaded for HTTP only (with its file lock): a stdio start never claims the directory.
  const { claimStateDir, StateDirInUse } = await import('../../state/owner.js');
  let owned: { release(): void };
  try {
    owned = claimStateDir(config.stateDir, `http://${config.host}:${config.port}/mcp`);
  } catch (e) {
    if (!(e instanceof StateDirInUse)) throw e;
    process.stderr.write(`dbops-mcp: ${e.message}\n`);
    return 2;
  }
  process.once('exit', () => owned.release());
  return owned;
}

/**
 * The doctor's cheap checks, in the background: a failing one is one line. They start a moment after the server
 * does, so loading the doctor and the HTTP client never competes with the client's first requests
 * (initialize, tools/list); a tool call that needs the platform loads the HTTP client itself.
 */
const CHECK_AFTER_MS = 1_000;
function checkInBackground(config: Config, logger: Logger): void {
  const check = () =>
    import('../../doctor/index.js')
      .then(async ({ startupChecks, summaryLine }) => {
        const line = summaryLine(await startupChecks(config));
        if (line) logger.warn(line);
      })
      .catch((e: Error) => logger.debug('start-up checks failed to run', { error: e.message }));
  setTimeout(check, CHECK_AFTER_MS).unref();
}

/**
 * Stops the server once, closing what start-up opened in reverse order (the transport, the runtime, the state
 * directory's claim); the process exits within a second whatever a close is waiting for (an open approval
 * wait, a slow socket). It may stop before start-up is done (the client is gone): what is still starting ends
 * with the process.
 */
function stopper() {
  let stopping = false;
  const opened: Array<() => unknown> = [];
  return {
    opened(close: () => unknown) {
      opened.unshift(close);
    },
    async shutdown() {
      if (stopping) return;
      stopping = true;
      setTimeout(() => process.exit(0), 900).unref();
      for (const close of opened)
        await Promise.resolve()
          .then(close)
          .catch(() => {});
      process.exit(0);
    },
  };
}

/** The settings of `serve`, or the exit code of a settings error. */
function settingsOf(args: string[]): Config | number {
  try {
    const config = loadConfig(args);
    checkToolFilters(config, catalog, toolsets);
    return config;
  } catch (e) {
    return fail(e);
  }
}

export async function runServe(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stderr.write(`${serveHelp()}\n`);
    return 0;
  }
  const config = settingsOf(args);
  if (typeof config === 'number') return config;
  const stop = stopper();
  // Under stdio the client may give up while we start: watched before anything else starts.
  const input = config.transport === 'stdio' ? watchClient(() => void stop.shutdown()) : undefined;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.once(signal, () => void stop.shutdown());
  const logger = createLogger(config.logLevel);
  for (const warning of unknownSettings()) logger.warn(warning);
  const owned = await claimForHttp(config);
  if (typeof owned === 'number') return owned;
  const release = () => owned?.release();
  stop.opened(release);
  let runtime: Runtime;
  try {
    runtime = await createRuntime(config, logger);
  } catch (e) {
    release();
    return fail(e);
  }
  stop.opened(() => runtime.close());
  const { deps } = runtime;
  const extensions = await loadExtensions();
  const newServer = (person?: Person, client?: ClientToolsets) =>
    createMcpServer({ ...deps, extensions, ...(person ? { person } : {}), ...(client ? { client } : {}) });
  // The demo world is drawn once a stdio client is past its handshake; HTTP clients come later, so at once.
  const close = input
    ? await serveOverStdio(deps, () => newServer(), logger, input, runtime.warm)
    : await (await import('./serve-http.js')).serveHttp(config, runtime, newServer, logger, release);
  if (typeof close === 'number') return close;
  if (!input) runtime.warm();
  stop.opened(close);
  checkInBackground(config, logger);
  return 0;
}
