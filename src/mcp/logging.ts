// Log entries to the client: only once it asked for them (logging/setLevel), at or above its level, and only
// from the session whose request is being handled.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LoggingLevel, McpServer } from '@modelcontextprotocol/server';
import type { Logger, LogLevel } from '../log.js';
import { SERVER_NAME } from './info.js';

/** MCP log levels, least severe first. */
const LEVELS: LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** The session (server) whose request is being handled: log messages go to that session only. */
export const handling = new AsyncLocalStorage<McpServer>();

/**
 * Some clients report every unsolicited notifications/message as an error. The SDK's own handler keys the
 * level by session id, which our per-session servers do not pass, so the level is kept here. The sink leaves
 * the logger when the session closes.
 */
export function logToClient(server: McpServer, logger: Logger): void {
  let clientLevel: LoggingLevel | undefined;
  server.server.setRequestHandler('logging/setLevel', (req) => {
    clientLevel = req.params.level;
    return {};
  });
  const severity = (l: LoggingLevel) => LEVELS.indexOf(l);
  const sink = (level: LogLevel, msg: string, fields: Record<string, unknown>) => {
    if (!server.isConnected() || handling.getStore() !== server) return;
    const as: LoggingLevel = level === 'warn' ? 'warning' : level;
    if (clientLevel === undefined || severity(as) < severity(clientLevel)) return;
    void server
      .sendLoggingMessage({
        level: as,
        logger: SERVER_NAME,
        data: { msg, ...fields },
      })
      .catch(() => {});
  };
  logger.sinks.push(sink);
  const prevClose = server.server.onclose;
  server.server.onclose = () => {
    logger.sinks = logger.sinks.filter((s) => s !== sink);
    prevClose?.();
  };
}
