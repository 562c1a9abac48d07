// The MCP Apps (SEP-1865): which tool shows which app, in one place, and the ui:// resources that
// serve them. Each app is one self-contained HTML file built from apps/<app>.ts into dist/apps/ by
// `npm run build`; it reads only the tool result's structuredContent. A host without MCP Apps ignores the
// `_meta.ui` of a tool's listing and loses nothing: the text and structuredContent answers are unchanged.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  getUiCapability,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/server';
import type { ClientCapabilities, McpServer, ReadResourceResult, Tool } from '@modelcontextprotocol/server';
import { ackInForce, byUrgency, type CauseFacts, failing, windowState } from '../rules/index.js';
import type { AnyTool } from '../tool/index.js';
import { maxKindOf } from '../tool/index.js';

export { RESOURCE_MIME_TYPE };

interface App {
  title: string;
  description: string;
  /** The tools whose results this app draws. */
  tools: string[] | ((tool: AnyTool) => boolean);
  /**
   * The app's copy of a result put in the order it is cut in (the bound keeps each list's first items): what
   * the app must not lose first. Without it the copy is cut as the model's share is.
   */
  cutOrder?: (structured: Json) => Json;
}

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] =>
  Array.isArray(v) ? v.filter((x): x is Json => Boolean(x) && typeof x === 'object') : [];
const at = (v: unknown): number => Date.parse(typeof v === 'string' ? v : '') || 0;

/** Where an alert is, as the app names it: its host, else its cluster or replica set. */
const whereOf = (a: Json) =>
  String(a.hostnameAndPort || a.clusterName || a.replicaSetName || '') || 'project-wide';

/**
 * A cause's distinct hosts with how many of its alerts each holds (and how many acknowledged), most first:
 * read before its alerts are cut, so a host repeated a hundred times is one host with its count.
 */
function hostsOf(alerts: Json[], acked: (a: Json) => boolean): Json[] {
  const by = new Map<string, { host: string; count: number; acknowledged: number }>();
  for (const a of alerts) {
    const host = whereOf(a);
    const h = by.get(host) ?? { host, count: 0, acknowledged: 0 };
    h.count += 1;
    if (acked(a)) h.acknowledged += 1;
    by.set(host, h);
  }
  return [...by.values()].sort((x, y) => y.count - x.count || x.host.localeCompare(y.host));
}

/**
 * The story's entries alike (same kind, time, words and author: one change copied, as a platform may record
 * it many times) as one with their count, so the cut drops repeats before it drops anything that happened.
 */
function collapseRepeats(timeline: Json[]): Json[] {
  const seen = new Map<string, Json>();
  for (const e of timeline) {
    const key = JSON.stringify([e.kind, e.time, e.eventTypeName, e.summary, e.who, e.cause]);
    const first = seen.get(key);
    if (first) first.count = Number(first.count ?? 1) + 1;
    else seen.set(key, { ...e });
  }
  return [...seen.values()];
}

/**
 * The incident timeline's copy of a triage, today first: causes not yet acknowledged and not muted first,
 * then data availability (severity critical), then the newest; in each cause its unacknowledged alerts,
 * newest first; the timeline newest first; windows in force first; processes with an error first. The app
 * draws them oldest first on its axis all the same. Lists it never draws (each cause's alertIds and
 * configChangeEventIds, the changes the timeline already holds, the silent agents) are left out, so more of the rest fits. Each
 * cause carries its distinct hosts with their counts, and the story's repeats are one entry with a count:
 * what the app counts is distinct things, and a repeat is cut before a break of the last hour.
 */
export function triageCutOrder(s: Json, now = Date.now()): Json {
  const acked = (a: Json) =>
    ackInForce({ acknowledgedUntil: String(a.acknowledgedUntil ?? '') }, new Date(now));
  // The facts the one ranking rule (src/rules/ranking.ts) reads, as the app reads them from the same copy.
  const facts = (g: Json): CauseFacts => {
    const alerts = list(g.alerts);
    const w = g.maintenanceWindow as Json | undefined;
    return {
      open: alerts.length ? alerts.some((a) => !acked(a)) : Number(g.acknowledged) < Number(g.count),
      muted: w?.state === 'active',
      eventTypeName: String(g.eventTypeName ?? ''),
      newest: Math.max(at(g.oldest), ...alerts.map((a) => at(a.created))),
    };
  };
  const byRank = (x: Json, y: Json) => byUrgency(facts(x), facts(y));
  const alerts = s.alerts && typeof s.alerts === 'object' ? (s.alerts as Json) : undefined;
  const groups = list(alerts?.groups)
    .map(({ alertIds: _ids, configChangeEventIds: _events, ...g }) => {
      const hosts = hostsOf(list(g.alerts), acked);
      return {
        ...g,
        hostCount: hosts.length,
        hosts,
        alerts: list(g.alerts).sort(
          (x, y) => Number(acked(x)) - Number(acked(y)) || at(y.created) - at(x.created),
        ),
      };
    })
    .sort(byRank);
  const inForce = (w: Json) =>
    windowState({ startDate: String(w.startDate ?? ''), endDate: String(w.endDate ?? '') }, new Date(now)) ===
    'active';
  const automation = s.automation && typeof s.automation === 'object' ? (s.automation as Json) : undefined;
  // Nor the agents (the app tells agents by their down alerts) nor the changes (the timeline holds them).
  const { changes: _changes, agents: _agents, ...rest } = s;
  return {
    ...rest,
    alerts: alerts ? { ...alerts, groups } : (s.alerts ?? null),
    ...(automation
      ? {
          automation: {
            ...automation,
            behind: list(automation.behind).sort((x, y) => Number(!failing(x)) - Number(!failing(y))),
          },
        }
      : {}),
    maintenanceWindows: Array.isArray(s.maintenanceWindows)
      ? list(s.maintenanceWindows).sort(
          (x, y) => Number(inForce(y)) - Number(inForce(x)) || at(x.startDate) - at(y.startDate),
        )
      : (s.maintenanceWindows ?? null),
    timeline: collapseRepeats(list(s.timeline)).sort((x, y) => at(y.time) - at(x.time)),
  };
}

/** The apps and their tools: the only tool → app mapping. The consent card takes the rest of the changes. */
export const APPS = {
  'incident-timeline': {
    title: 'Incident timeline',
    description:
      'What changed, then what broke, on one time axis; alerts by cause and host; maintenance windows.',
    tools: ['triage_project'],
    cutOrder: triageCutOrder,
  },
  'maintenance-planner': {
    title: 'Maintenance planner',
    description: 'Maintenance windows on a time axis with what they mute; a proposed window and its overlap.',
    tools: [
      'list_maintenance_windows',
      'get_maintenance_window',
      'create_maintenance_window',
      'update_maintenance_window',
    ],
  },
  'consent-card': {
    title: 'Consent card',
    description: 'The preview of a change that asks the person first, with the link to the approval page.',
    // Every other change: whether it asks first is the live policy's (DBOPS_CONFIRM), and tools/list stays
    // the same under every policy; a change that ran unasked shows as done.
    tools: (tool) => maxKindOf(tool) !== 'read',
  },
} satisfies Record<string, App>;

type AppName = keyof typeof APPS;

/**
 * Where a result carries its app's fuller data when structuredContent was shortened for the model (one output
 * budget for text and structured content), sent only to hosts that show apps: some client libraries hand
 * the model the whole result, _meta included. apps/shared.ts reads the same key; it keeps the name hosts know
 * (README, CHANGELOG) from when apps were called views.
 */
export const APP_DATA = 'dbops-mcp/view-data';

/** Whether the client is a host that shows apps (it declares the MCP Apps extension with our MIME type). */
export function showsApps(caps: ClientCapabilities | undefined): boolean {
  return getUiCapability(caps)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true;
}
const appUri = (app: AppName) => `ui://dbops-mcp/${app}`;

/** A result's structured part as its app's copy is cut (APPS[app].cutOrder), or as it is. */
export function forApp(app: AppName, structured: Json): Json {
  const v: App = APPS[app];
  return v.cutOrder ? v.cutOrder(structured) : structured;
}

/** The app of a tool, or undefined. */
export function appOf(tool: AnyTool): AppName | undefined {
  const named = (Object.keys(APPS) as AppName[]).find((v) => {
    const t = APPS[v].tools;
    return Array.isArray(t) && t.includes(tool.name);
  });
  if (named) return named;
  return (Object.keys(APPS) as AppName[]).find((v) => {
    const t = APPS[v].tools;
    return typeof t === 'function' && t(tool);
  });
}

/**
 * A tool's listing with its app: `_meta.ui.resourceUri`, and the older `ui/resourceUri` key that hosts of
 * the first drafts read (ext-apps' registerAppTool sets both the same way).
 */
export function withApp(listing: Tool, tool: AnyTool): Tool {
  const app = appOf(tool);
  if (!app) return listing;
  const uri = appUri(app);
  return { ...listing, _meta: { ...listing._meta, ui: { resourceUri: uri }, [RESOURCE_URI_META_KEY]: uri } };
}

/** The apps declare no domain: no network at all (the spec's default CSP, said explicitly). */
const UI_META = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

/** dist/apps/ seen from dist/src/mcp (tsc), dist/bin (the bundle) or src/mcp (tests on the sources). */
function appFile(app: AppName): string {
  const candidates = ['../apps/', '../../apps/', '../../dist/apps/'].map((d) =>
    fileURLToPath(new URL(`${d}${app}.html`, import.meta.url)),
  );
  const found = candidates.find((p) => existsSync(p));
  if (!found)
    throw new Error(`app ${app} is not built: run npm run build (looked in ${candidates.join(', ')})`);
  return found;
}

const html = new Map<AppName, string>();
function appHtml(app: AppName): string {
  let h = html.get(app);
  if (h === undefined) {
    h = readFileSync(appFile(app), 'utf8');
    html.set(app, h);
  }
  return h;
}

export function isAppUri(uri: string): boolean {
  return uri.startsWith('ui://dbops-mcp/');
}

/** resources/read of a app (resources.ts routes ui:// URIs here). */
export function readApp(uri: string): ReadResourceResult | undefined {
  const app = (Object.keys(APPS) as AppName[]).find((v) => appUri(v) === uri);
  if (!app) return undefined;
  return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: appHtml(app), _meta: UI_META }] };
}

/** Registers the apps used by the enabled tools as resources (listed in resources/list). */
export function registerApps(server: McpServer, tools: AnyTool[]): void {
  const used = new Set(tools.map((t) => appOf(t)).filter((v) => v !== undefined));
  for (const app of used) {
    const v = APPS[app];
    server.registerResource(
      `app-${app}`,
      appUri(app),
      { title: v.title, description: v.description, mimeType: RESOURCE_MIME_TYPE, _meta: UI_META },
      (uri) => readApp(uri.href) ?? { contents: [] },
    );
  }
}
