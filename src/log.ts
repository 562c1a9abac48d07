// Structured logs to stderr only: under stdio, stdout is the MCP protocol. One JSON line per entry.
// Field values whose names look secret are masked here, so no caller can leak a key by logging an object.

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
const order: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export interface Logger {
  level: LogLevel;
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
  /** Extra sinks (e.g. MCP logging notifications); each receives entries at or above the logger's level. */
  sinks: Array<(level: LogLevel, msg: string, fields: Record<string, unknown>) => void>;
}

const SECRET_NAME = /(private|secret|password|token|apikey|api_key|servicekey|routingkey|authorization)/i;

function redactFields(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactFields(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      SECRET_NAME.test(k) && v !== undefined && v !== null && v !== ''
        ? '[redacted]'
        : redactFields(v, depth + 1);
  }
  return out;
}

export function createLogger(
  level: LogLevel = 'info',
  write: (line: string) => void = (l) => process.stderr.write(l),
): Logger {
  const logger: Logger = {
    level,
    sinks: [],
    error: (m, f) => emit('error', m, f),
    warn: (m, f) => emit('warn', m, f),
    info: (m, f) => emit('info', m, f),
    debug: (m, f) => emit('debug', m, f),
  };
  function emit(l: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
    if (order[l] > order[logger.level]) return;
    const safe = redactFields(fields) as Record<string, unknown>;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: l, msg, ...safe })}\n`);
    for (const sink of logger.sinks) {
      try {
        sink(l, msg, safe);
      } catch {
        // A failing sink (e.g. a closed MCP session) must not break the caller.
      }
    }
  }
  return logger;
}

const drop = () => {};
/** A logger that drops everything, sinks included: the default for library use and tests. */
export const silentLogger: Logger = {
  level: 'error',
  sinks: [],
  error: drop,
  warn: drop,
  info: drop,
  debug: drop,
};
