// The SDK's handlers for requests served without a session: the 2026-07-28 era (per-request `_meta`
// envelope: a fresh server per request, nothing held between requests, so any replica can answer any
// request) and 2025 requests outside a session (the SDK's stateless fallback). Each builds the server for
// the person the request is from, with the toolsets its client asked for (X-MCP-Toolsets) and nothing else:
// no choice of a client's is kept between requests.
import { AsyncLocalStorage } from 'node:async_hooks';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  createMcpHandler,
  InMemoryServerEventBus,
  legacyStatelessFallback,
  type McpServer,
} from '@modelcontextprotocol/server';
import { personOf } from '../person.js';
import { type HttpOptions, MAX_BODY } from './options.js';

/** What the transport knows of the request being served: its X-MCP-Toolsets. */
export const asked = new AsyncLocalStorage<{ header?: string[] }>();

export interface Eras {
  /** The 2026-07-28 era. */
  serveModern: ReturnType<typeof toNodeHandler>;
  /** 2025 requests outside a session. */
  stateless: ReturnType<typeof toNodeHandler>;
  close(): Promise<void>;
}

export function createEras(opts: HttpOptions): Eras {
  const modern = createMcpHandler((ctx) => sessionless(opts, ctx.authInfo), {
    legacy: 'reject',
    bus: opts.bus ?? new InMemoryServerEventBus(),
    maxRequestBodySize: MAX_BODY,
    onerror: (e) => opts.logger.debug('mcp request refused', { error: e.message }),
  });
  const stateless = toNodeHandler(
    {
      fetch: legacyStatelessFallback((ctx) => sessionless(opts, ctx.authInfo), undefined, {
        maxRequestBodySize: MAX_BODY,
      }),
    },
    { maxRequestBodySize: MAX_BODY },
  );
  return {
    serveModern: toNodeHandler(modern, { maxRequestBodySize: MAX_BODY }),
    stateless,
    close: () => modern.close(),
  };
}

/** A server for one request: its person and X-MCP-Toolsets. */
function sessionless(opts: HttpOptions, auth: AuthInfo | undefined): McpServer {
  const person = personOf(auth);
  if (!person) throw new Error('a request reached the MCP handler without a person');
  const header = asked.getStore()?.header;
  return opts.newServer(person, { ...(header ? { header } : {}), sessionless: true });
}
