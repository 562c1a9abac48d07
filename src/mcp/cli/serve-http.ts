// `serve --transport http`: the Streamable HTTP transport (loaded only here: the stdio path, the common one,
// does not pay for it at start-up), the subscription bus, the approval page's routes, and the banner.
import type { McpServer } from '@modelcontextprotocol/server';
import type { Config } from '../../config/index.js';
import type { Person } from '../../identity/index.js';
import type { Logger } from '../../log.js';
import { redisSessions } from '../../state/sessions.js';
import { type FeedBus, listenOn, localBus, redisBus } from '../listen.js';
import type { Runtime } from '../runtime.js';
import type { ClientToolsets } from '../server.js';
import { fail } from './common.js';
import { readiness } from './readiness.js';

type NewServer = (person?: Person, client?: ClientToolsets) => McpServer;

/** The HTTP server's options from the settings and the runtime. */
function httpOptions(config: Config, runtime: Runtime, newServer: NewServer, logger: Logger, bus: FeedBus) {
  const { deps, redis } = runtime;
  return {
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
    directory: redis ? redisSessions(redis) : undefined,
    forwardKey: redis ? deps.signer.derive('replica-forward') : undefined,
    routes: runtime.approvals?.routes,
    ready: readiness(runtime),
  };
}

/**
 * Serves over HTTP; resolves with how to close it, or with the exit code when it cannot start (the runtime
 * is closed and the state directory released then).
 */
export async function serveHttp(
  config: Config,
  runtime: Runtime,
  newServer: NewServer,
  logger: Logger,
  release: () => void,
): Promise<(() => Promise<void>) | number> {
  const { startHttp } = await import('../http/index.js');
  let http: Awaited<ReturnType<typeof startHttp>>;
  // Subscription events cross replicas through the shared store, when there is one.
  const bus = runtime.redis ? await redisBus(runtime.redis, logger) : localBus();
  try {
    http = await startHttp(httpOptions(config, runtime, newServer, logger, bus));
  } catch (e) {
    await bus.close();
    await runtime.close();
    release();
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      const { portFix } = await import('../../doctor/index.js');
      process.stderr.write(
        `dbops-mcp: ${config.host}:${config.port} is taken by another process. ${portFix(config.port)}.\n`,
      );
      return 2;
    }
    return fail(e);
  }
  runtime.approvals?.useOrigin(http.publicOrigin);
  printBanner(http.url, config, runtime.approvals?.origin());
  return async () => {
    await http.close();
    await bus.close();
  };
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
