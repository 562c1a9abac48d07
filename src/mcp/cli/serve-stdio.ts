// `serve` over stdio: both protocol eras on one connection (the opening message picks it; serveStdio pins one
// server to it), and the 2026-07-28 listen streams the SDK answers itself, whose feeds are polled here.
import type { JSONRPCMessage, McpServer, Transport } from '@modelcontextprotocol/server';
import { osPerson } from '../../identity/index.js';
import type { Logger } from '../../log.js';
import { listenedUris, watchWhileOpen } from '../listen.js';
import type { ServerDeps } from '../server.js';

/**
 * Serves over stdio; resolves with how to close it. `ended` runs when the client is gone (our stdin ends):
 * the approval page, pollers and the embedded simulator would otherwise keep this process alive.
 */
export async function serveOverStdio(
  deps: ServerDeps,
  newServer: () => McpServer,
  logger: Logger,
  ended: () => void,
): Promise<() => Promise<void>> {
  const { serveStdio, StdioServerTransport } = await import('@modelcontextprotocol/server/stdio');
  let pinned: McpServer | undefined;
  const transport = listenTap(new StdioServerTransport(), (uris, closed) => {
    // A 2026-07-28 listen stream: the pinned server's updates are routed onto it by serveStdio.
    const publish = (uri: string) => void pinned?.server.sendResourceUpdated({ uri }).catch(() => {});
    void watchWhileOpen(deps, uris, publish, closed, { person: (deps.person ?? osPerson()).id });
  });
  const handle = serveStdio(
    () => {
      pinned = newServer();
      return pinned;
    },
    { transport, onerror: (e) => logger.debug('stdio message refused', { error: e.message }) },
  );
  process.stdin.once('end', ended);
  process.stdin.once('close', ended);
  logger.info('dbops-mcp serving MCP over stdio');
  return () => handle.close();
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
