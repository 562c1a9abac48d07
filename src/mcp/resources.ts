// Feeds as MCP resources: templates with listing and completion, reads as a markdown digest or (?format=json)
// the complete JSON, and subscriptions — the SDK has none built in — backed by the shared pollers of
// src/feeds/subscriptions.ts, released on unsubscribe and when the session ends.
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { catalog } from '../catalog.js';
import { type Feed, type FeedMatch, feeds, feedUri, matchFeed } from '../feeds/index.js';
import { type Choice, completeIds, globalAlertConfigChoices, projectChoices } from '../feeds/lookup.js';
import { MAX_SUBSCRIPTIONS, SubscriptionRefused } from '../feeds/subscriptions.js';
import { capText } from '../format/markdown.js';
import { osPerson } from '../identity/index.js';
import { consentFacts } from '../policy/consent.js';
import { enabledTools } from '../policy/toolsets.js';
import { callNames } from '../tool/names.js';
import { newFence } from '../untrusted.js';
import { isAppUri, readApp } from './apps.js';
import { errorMessage } from './errors.js';
import { endings, watchFeed } from './listen.js';
import { reachableFor } from './listing.js';
import { personOf } from './person.js';
import type { ServerDeps } from './server.js';

/** The protocol's "resource not found". */
const RESOURCE_NOT_FOUND = -32002;

function matchOrThrow(uri: string, reachable: (tool: string) => boolean): FeedMatch {
  const m = matchFeed(uri);
  // A feed whose tool this client cannot reach (a setting or its toolsets hide it) is not offered either.
  if (m && !reachable(m.feed.tool))
    throw new ProtocolError(
      RESOURCE_NOT_FOUND,
      `${uri} is not offered to this client: ${m.feed.tool}, the tool that reads the same data, is hidden from it (DBOPS_TOOLS, DBOPS_DISABLED_TOOLS, DBOPS_TOOLSETS or X-MCP-Toolsets).`,
    );
  if (!m)
    throw new ProtocolError(
      RESOURCE_NOT_FOUND,
      `No resource ${uri}. resources/templates/list shows the feeds, e.g. dbops://projects/{projectId}/alerts (add ?format=json for JSON).`,
    );
  return m;
}

export function registerResources(server: McpServer, deps: ServerDeps): void {
  const { api, logger, config } = deps;
  const now = deps.now ?? (() => new Date());
  const consent = consentFacts(config.confirm, enabledTools(config, deps.catalog ?? catalog));
  const reachable = reachableFor(deps);

  async function read(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const view = isAppUri(uri) ? readApp(uri) : undefined;
    if (view) return view;
    const m = matchOrThrow(uri, reachable);
    const at = now();
    let data: unknown;
    const names = callNames(api, logger);
    try {
      [data] = await Promise.all([
        m.feed.load({ api, signal, now: at }, m.vars),
        m.format === 'json' ? undefined : names.learn(m.vars, signal ?? new AbortController().signal),
      ]);
    } catch (e) {
      throw new ProtocolError(ProtocolErrorCode.InternalError, errorMessage(e, `Reading ${m.key}`));
    }
    if (m.format === 'json')
      return {
        contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(m.feed.json(data, m.vars)) }],
      };
    const fence = newFence();
    const text = m.feed.markdown(data, m.vars, {
      fence,
      now: at,
      detailed: false,
      asksFirst: consent.asksFirst,
      names,
    });
    const narrow = 'Read it with ?format=json for everything.';
    return {
      contents: [
        { uri, mimeType: 'text/markdown', text: capText(text, config.maxOutputChars, narrow, fence.tag) },
      ],
    };
  }

  const projects = () => projectChoices(api, config.projectId, logger);
  const globalConfigs = () => globalAlertConfigChoices(api, logger);
  const choicesFor: Record<string, () => Promise<Choice[]>> = {
    projectId: projects,
    globalAlertConfigId: globalConfigs,
  };

  const register = (feed: Feed) => {
    const meta = { title: feed.title, description: feed.description, mimeType: 'text/markdown' };
    const variable = /\{(\w+)\}/.exec(feed.template)?.[1];
    if (!variable) {
      server.registerResource(feed.name, feed.template, meta, (uri, extra) =>
        read(uri.href, extra.mcpReq.signal),
      );
      return;
    }
    const choices = choicesFor[variable];
    if (!choices) throw new Error(`no choices for the feed variable ${variable}`);
    const template = new ResourceTemplate(feed.template, {
      list: async () => ({
        resources: (await choices()).map((c) => ({
          uri: feedUri(feed, { [variable]: c.id }),
          name: `${feed.name} ${c.name ?? c.id}`,
          title: `${feed.title}: ${c.name ?? c.id}`,
          mimeType: 'text/markdown',
        })),
      }),
      complete: { [variable]: async (value) => completeIds(await choices(), value) },
    });
    server.registerResource(feed.name, template, meta, (uri, _vars, extra) =>
      read(uri.href, extra.mcpReq.signal),
    );
  };
  for (const feed of feeds) if (reachable(feed.tool)) register(feed);
  // No feed this client may read and no app: the server offers no resources at all (a client with one toolset,
  // say deployment), and the SDK refuses handlers for a capability it does not declare.
  if (!server.server.getCapabilities().resources) return;

  // The SDK matches templates against the whole URI, query included; this server's URIs take ?format=json,
  // so reads go through the feed matcher instead.
  server.server.removeRequestHandler('resources/read');
  server.server.setRequestHandler('resources/read', (req, extra) =>
    read(req.params.uri, extra.mcpReq.signal),
  );

  serveSubscriptions(server, deps, reachable);
}

/** 2025-era subscriptions (2026-07-28 clients listen instead: src/mcp/listen.ts), bounded, ended with the client. */
function serveSubscriptions(server: McpServer, deps: ServerDeps, reachable: (tool: string) => boolean): void {
  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  const subscriptions = new Map<string, () => void>();
  let closed = false;

  server.server.setRequestHandler('resources/subscribe', async (req, extra) => {
    const uri = req.params.uri;
    matchOrThrow(uri, reachable);
    if (subscriptions.has(uri)) return {};
    if (subscriptions.size >= MAX_SUBSCRIPTIONS)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `This session already holds ${MAX_SUBSCRIPTIONS} subscriptions (the cap per session and per person); unsubscribe from some first. Nothing was subscribed.`,
      );
    const person = (personOf(extra.http?.authInfo) ?? deps.person ?? osPerson()).id;
    let stop: (() => void) | undefined;
    try {
      stop = await watchFeed(
        deps,
        uri,
        () => {
          if (server.isConnected()) void server.server.sendResourceUpdated({ uri }).catch(() => {});
        },
        { person, reachable },
      );
    } catch (e) {
      if (e instanceof SubscriptionRefused)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${e.message} Nothing was subscribed.`);
      throw e;
    }
    // The session ended, or the same URI was subscribed meanwhile, while the first reading was taken.
    if (closed || subscriptions.has(uri)) stop?.();
    else if (stop) subscriptions.set(uri, stop);
    return {};
  });

  server.server.setRequestHandler('resources/unsubscribe', async (req) => {
    subscriptions.get(req.params.uri)?.();
    subscriptions.delete(req.params.uri);
    return {};
  });

  // The session's subscriptions end with its transport, or with its stream of notifications (src/mcp/http/sessions.ts).
  const end = () => {
    for (const stop of subscriptions.values()) stop();
    subscriptions.clear();
  };
  endings.set(server, end);
  const previous = server.server.onclose;
  server.server.onclose = () => {
    closed = true;
    end();
    previous?.();
  };
}
