// `serve` over stdio: both protocol eras on one connection (the opening message picks it; serveStdio pins one
// server to it), and the 2026-07-28 listen streams the SDK answers itself, whose feeds are polled here.
import { PassThrough, type Readable } from 'node:stream';
import type { JSONRPCMessage, McpServer, Transport } from '@modelcontextprotocol/server';
import { osPerson } from '../../identity/index.js';
import type { Logger } from '../../log.js';
import { listenedUris, watchWhileOpen } from '../listen.js';
import type { ServerDeps } from '../server.js';

/**
 * Runs `gone` when the client is gone: its end of our stdin closed, or our stdout broke (EPIPE). Called at the
 * first moment of start-up: a client that gives up while the runtime starts (the AI SDK probes with a 1 s
 * time-out) would otherwise leave this process running for good, held by the approval page, pollers and the
 * embedded simulator. stdin is read at once into the stream returned, which the MCP transport reads later:
 * so its end is seen even while nothing reads messages, and after the SDK's transport stops reading (it
 * does when stdout breaks).
 */
export function watchClient(gone: () => void): Readable {
  const input = new PassThrough({ highWaterMark: 1 << 20 });
  process.stdin.on('end', gone).on('close', gone).on('error', gone).pipe(input);
  process.stdout.on('error', gone);
  return input;
}

/**
 * Serves over stdio, reading `input` (from watchClient); resolves with how to close it. `pastHandshake` runs at
 * the client's second message (2025: `notifications/initialized`), once its opening one was answered.
 */
export async function serveOverStdio(
  deps: ServerDeps,
  newServer: () => McpServer,
  logger: Logger,
  input: Readable,
  pastHandshake: () => void,
): Promise<() => Promise<void>> {
  const { serveStdio, StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
  let pinned: McpServer | undefined;
  let messages = 0;
  const transport = listenTap(
    new StdioServerTransport(input),
    () => ++messages === 2 && pastHandshake(),
    (uris, closed) => {
      // A 2026-07-28 listen stream: the pinned server's updates are routed onto it by serveStdio.
      const publish = (uri: string) => void pinned?.server.sendResourceUpdated({ uri }).catch(() => {});
      void watchWhileOpen(deps, uris, publish, closed, { person: (deps.person ?? osPerson()).id });
    },
  );
  const handle = serveStdio(
    () => {
      pinned = newServer();
      return pinned;
    },
    { transport, onerror: (e) => logger.debug('stdio message refused', { error: e.message }) },
  );
  logger.info('dbops-mcp serving MCP over stdio');
  return () => handle.close();
}

/**
 * Sees every incoming message of a stdio transport (`onMessage`), and watches for 2026-07-28 `subscriptions/listen` requests (which the SDK
 * answers itself) so the feeds they name are polled until the listen is cancelled or the connection ends.
 */
function listenTap<T extends Transport>(
  transport: T,
  onMessage: () => void,
  onListen: (uris: string[], closed: (stop: () => void) => void) => void,
): T {
  const open = new Map<unknown, () => void>();
  const tap = (m: JSONRPCMessage) => {
    onMessage();
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
