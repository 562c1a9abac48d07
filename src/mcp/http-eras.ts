// The SDK's handlers for requests served without a session: the 2026-07-28 era (per-request `_meta`
// envelope: a fresh server per request, nothing held between requests, so any replica can answer any
// request) and 2025 requests outside a session (the SDK's stateless fallback). Each builds the server for
// the person the request is from, with the toolsets its client asked for.
import { AsyncLocalStorage } from 'node:async_hooks';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  createMcpHandler,
  InMemoryServerEventBus,
  legacyStatelessFallback,
  type McpServer,
  type ServerEvent,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { personOf } from '../identity/index.js';
import { DYNAMIC } from '../policy/toolsets.js';
import { choiceKey, type EnabledToolsets, memoryToolsets } from '../state/toolsets.js';
import { clientLabel } from '../untrusted.js';
import { type HttpOptions, MAX_BODY } from './http-options.js';

/** What the transport knows of the request being served: its X-MCP-Toolsets and the client's name. */
export const asked = new AsyncLocalStorage<{ header?: string[]; client: string; listener?: string }>();

export interface Eras {
  /** The 2026-07-28 era. */
  serveModern: ReturnType<typeof toNodeHandler>;
  /** 2025 requests outside a session. */
  stateless: ReturnType<typeof toNodeHandler>;
  close(): Promise<void>;
}

export function createEras(opts: HttpOptions): Eras {
  // Dynamic toolsets on the sessionless era: what each person's client enabled is kept in the shared state
  // (every request has a fresh server), and a change is announced on that client's listen streams only.
  const enabledSets = opts.toolsets?.enabled ?? memoryToolsets();
  const bus = targeted(opts.bus ?? new InMemoryServerEventBus());
  const modern = createMcpHandler((ctx) => modernServer(opts, enabledSets, bus, ctx.authInfo), {
    legacy: 'reject',
    bus,
    maxRequestBodySize: MAX_BODY,
    onerror: (e) => opts.logger.debug('mcp request refused', { error: e.message }),
  });
  const stateless = toNodeHandler(
    {
      fetch: legacyStatelessFallback((ctx) => statelessServer(opts, ctx.authInfo), undefined, {
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

function personFor(auth: AuthInfo | undefined) {
  const person = personOf(auth);
  if (!person) throw new Error('a request reached the MCP handler without a person');
  return person;
}

/** A 2025 request outside a session: a server for its person and X-MCP-Toolsets. */
function statelessServer(opts: HttpOptions, auth: AuthInfo | undefined): McpServer {
  const header = asked.getStore()?.header;
  return opts.newServer(personFor(auth), header ? { header } : undefined);
}

/**
 * A 2026-07-28 request: a server for its person and X-MCP-Toolsets; in dynamic mode also the toolsets this
 * person's client enabled earlier, and where to keep and announce what it enables now.
 */
async function modernServer(
  opts: HttpOptions,
  enabledSets: EnabledToolsets,
  bus: ServerEventBus,
  auth: AuthInfo | undefined,
): Promise<McpServer> {
  const person = personFor(auth);
  const r = asked.getStore();
  const header = r?.header;
  const dynamic = [...(opts.toolsets?.setting ?? []), ...(header ?? [])].includes(DYNAMIC);
  if (!dynamic) return opts.newServer(person, header ? { header } : undefined);
  const key = choiceKey(person.id, r?.client ?? '');
  const enabled = await enabledSets.get(key).catch((e: Error) => {
    opts.logger.warn('toolsets enabled earlier could not be read from the shared state', {
      error: e.message,
    });
    return [] as string[];
  });
  return opts.newServer(person, {
    ...(header ? { header } : {}),
    shared: {
      enabled,
      keep: (sets) => enabledSets.add(key, sets),
      announce: () => bus.publish({ kind: 'tools_list_changed', target: key } as ServerEvent),
    },
  });
}

/** The client's name a 2026-07-28 request carries in its `_meta` (empty when it names none). */
export function clientNameOf(body: unknown): string {
  const m = (Array.isArray(body) ? body[0] : body) as {
    params?: { _meta?: Record<string, { name?: unknown } | undefined> };
  };
  const name = m?.params?._meta?.['io.modelcontextprotocol/clientInfo']?.name;
  return typeof name === 'string' ? clientLabel(name) : '';
}

/**
 * The bus the listen streams read, with events meant for one client: a stream opened by a person's client
 * hears the events `target`ed at that person and client, and every untargeted event (feed changes).
 */
function targeted(bus: ServerEventBus): ServerEventBus {
  return {
    publish: (event) => bus.publish(event),
    subscribe(listener) {
      const own = asked.getStore()?.listener;
      return bus.subscribe((event) => {
        const target = (event as { target?: string }).target;
        if (target === undefined) return listener(event);
        if (target !== own) return;
        const { target: _t, ...plain } = event as ServerEvent & { target?: string };
        listener(plain as ServerEvent);
      });
    },
  };
}
