// Which of the catalog's tools one server lists, and how each is registered: a listed tool with its pipeline
// (src/mcp/tool-call.ts); a tool outside the client's toolsets as a note naming the set that holds it; a tool
// hidden by a setting as a note naming the setting; in dynamic mode the discovery tools, whose enable_toolset
// turns notes into tools. tools/list is answered here from listings built once per process.
import type { McpServer, Tool } from '@modelcontextprotocol/server';
import { catalog, toolsets as catalogToolsets } from '../catalog.js';
import { type ConsentSettings, describedAs } from '../policy/consent.js';
import {
  ALL,
  type ClientSets,
  callableByName,
  clientSetsOf,
  DYNAMIC,
  enabledTools,
  hiddenBy,
  notListedSet,
  notListedText,
  parseToolsets,
  type ToolFilters,
  type Toolsets,
  toolsetOf,
} from '../policy/toolsets.js';
import type { AnyTool } from '../tool/index.js';
import { withApp } from './apps.js';
import type { ServerDeps } from './deps.js';
import { personOf } from './person.js';
import { annotationsFor, listingOf, wireSchemas } from './schemas.js';
import { type CallScope, type Offer, toolHandler } from './tool-call.js';
import { discoveryListings, registerDiscovery } from './toolsets.js';

type Registered = ReturnType<McpServer['registerTool']>;

/**
 * The tools of one server (what the settings allow: read-only, DBOPS_TOOLS, …) and the client's toolsets, as
 * they change with enable_toolset.
 */
export interface Listing extends Offer {
  server: McpServer;
  deps: ServerDeps;
  /** Tools whose set is not listed: registered as a note saying which set holds them and how to enable it. */
  notListed: Map<string, Registered>;
  /** What tools/list answers. */
  listings: Tool[];
}

/** The client's toolsets: DBOPS_TOOLSETS and, over HTTP, its X-MCP-Toolsets header. */
export function clientSetsFor(deps: ServerDeps, sets: Toolsets): ClientSets {
  const header = deps.client?.header ? parseToolsets(deps.client.header, sets, 'X-MCP-Toolsets') : undefined;
  return clientSetsOf(
    parseToolsets(deps.config.toolsets, sets),
    deps.config.toolsets,
    header,
    deps.client?.sessionless,
  );
}

/**
 * Whether a client with these deps (its X-MCP-Toolsets header, what it enabled) can reach a tool: allowed by
 * the settings, and listed for it or, in dynamic mode, callable by name. Resources follow it.
 */
export function reachableFor(deps: ServerDeps): (tool: string) => boolean {
  const sets = deps.toolsets ?? catalogToolsets;
  const allowed = new Set(enabledTools(deps.config, deps.catalog ?? catalog).map((t) => t.name));
  let clientSets: ClientSets | undefined;
  try {
    clientSets = clientSetsFor(deps, sets);
  } catch {
    return () => false;
  }
  return (tool) =>
    allowed.has(tool) && (clientSets.dynamic || notListedSet(sets, clientSets, tool) === undefined);
}

export const isListed = (l: Listing, t: AnyTool) => notListedSet(l.sets, l.clientSets, t.name) === undefined;

/** The consent settings descriptions are drawn from: this server's policy and decision point. */
const consentOf = (l: Listing): ConsentSettings => ({
  confirm: l.deps.config.confirm,
  ...(l.deps.decisions?.fourEyesOn ? { fourEyes: l.deps.decisions.settings } : {}),
});

function registerListed(l: Listing, scope: CallScope, tool: AnyTool): Registered {
  return l.server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: describedAs(tool, consentOf(l)),
      inputSchema: wireSchemas(tool).input,
      outputSchema: wireSchemas(tool).output,
      annotations: annotationsFor(tool),
    },
    toolHandler(scope, tool),
  );
}

function registerNotListed(l: Listing, tool: AnyTool, set: string): void {
  l.notListed.set(
    tool.name,
    l.server.registerTool(tool.name, { description: tool.description }, async () => ({
      content: [
        {
          type: 'text',
          text: notListedText(tool.name, set, l.clientSets, callableByName(l.sets, l.clientSets, tool)),
        },
      ],
      isError: true,
    })),
  );
}

/** Every allowed tool: listed with its pipeline, or a note naming the set that holds it. */
export function registerTools(l: Listing, scope: CallScope): void {
  for (const tool of l.tools) {
    const set = notListedSet(l.sets, l.clientSets, tool.name);
    if (set === undefined) registerListed(l, scope, tool);
    else registerNotListed(l, tool, set);
  }
}

/**
 * A tool hidden by a setting answers a call with the setting that hides it, instead of "not found"; it stays
 * out of tools/list and never reaches the policy layer or the platform.
 */
export function registerHidden(l: Listing, catalog: AnyTool[], filters: ToolFilters): void {
  for (const tool of catalog.filter((t) => !l.tools.some((x) => x.name === t.name))) {
    const text = `${tool.name} is disabled on this server by ${hiddenBy(filters, tool)}; nothing was called. Ask the operator if it is needed.`;
    l.server.registerTool(tool.name, { description: tool.description }, async () => ({
      content: [{ type: 'text', text }],
      isError: true,
    }));
  }
}

/** The listed tools' entries, each naming its app (MCP Apps) where it has one: src/mcp/apps.ts. */
const listedEntries = (l: Listing) =>
  l.tools.filter((t) => isListed(l, t)).map((t) => withApp(listingOf(t, consentOf(l)), t));

/**
 * enable_toolset on a connection of its own (stdio, a 2025 session): the set's tools replace their notes now,
 * and the client hears one tools/list_changed.
 */
function enableSet(l: Listing, scope: CallScope, set: string): void {
  l.clientSets = {
    ...l.clientSets,
    enabled: new Set([...(l.clientSets.enabled === ALL ? [] : l.clientSets.enabled), set]),
  };
  const { server } = l;
  const announce = server.sendToolListChanged;
  server.sendToolListChanged = () => {};
  try {
    for (const tool of l.tools.filter((t) => toolsetOf(l.sets, t.name) === set)) {
      l.notListed.get(tool.name)?.remove();
      l.notListed.delete(tool.name);
      registerListed(l, scope, tool);
    }
  } finally {
    server.sendToolListChanged = announce;
  }
  l.listings = [...discoveryListings, ...listedEntries(l)];
  server.sendToolListChanged();
}

/**
 * tools/list from the listings (the SDK's own would regenerate every schema per session and add `$schema`
 * to each), with the discovery tools first in dynamic mode. A client that turned dynamic mode off with its
 * X-MCP-Toolsets header gets, for each discovery tool, a note saying so instead of "not found".
 */
export function serveToolList(l: Listing, scope: CallScope, catalog: AnyTool[], filters: ToolFilters): void {
  l.listings = listedEntries(l);
  if (l.clientSets.dynamic) {
    registerDiscovery(l.server, {
      sets: l.sets,
      tools: l.tools,
      catalog,
      filters,
      clientSets: () => l.clientSets,
      enable: async (set) => enableSet(l, scope, set),
      call: (tool, args, extra) => toolHandler(scope, tool)(args, extra),
    });
    l.listings = [...discoveryListings, ...l.listings];
  } else if (l.deps.config.toolsets.includes(DYNAMIC)) {
    const text = (name: string) =>
      `${name} is a tool of dynamic mode, which this client turned off: its X-MCP-Toolsets header does not name dynamic. Nothing was called.`;
    for (const d of discoveryListings)
      l.server.registerTool(d.name, { description: d.description ?? '' }, async () => ({
        content: [{ type: 'text', text: text(d.name) }],
        isError: true,
      }));
  }
  // A request's own token may be read-only where the session's was not: it lists the reads alone.
  l.server.server.setRequestHandler('tools/list', (_req, extra) => {
    const asker = personOf(extra.http?.authInfo);
    if (asker === undefined || asker.canWrite || !scope.person.canWrite) return { tools: l.listings };
    return { tools: l.listings.filter((t) => t.annotations?.readOnlyHint === true) };
  });
}
