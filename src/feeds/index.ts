// The feeds a client can read as resources and subscribe to: a project's open alerts, events and automation
// status, the installation's events, and a global alert configuration's open alerts. Each is plain data:
// a URI template, a loader, a fingerprint (what counts as "changed" for subscribers), and two renderings —
// a markdown digest for people and models, and the complete, redacted JSON for programs.

import type { Alert, ApiClient, AutomationStatus } from '../api/client.js';
import { fetchAll } from '../api/paging.js';
import { redact } from '../format/redact.js';
import { globalConfigAlertsDigest, projectAlertsDigest } from '../format/views/alerts-digest.js';
import { automationDigest } from '../format/views/deployment-digest.js';
import { eventsDigest } from '../format/views/events-digest.js';
import {
  loadOpenAlerts,
  loadRecentEvents,
  type OpenAlerts,
  oldestFirst,
  type RecentEvents,
} from '../model/index.js';
import { safeSegment } from '../tool/ids.js';
import type { FormatContext } from '../tool/index.js';
import { alertsFingerprint } from './alerts.js';
import { eventsFingerprint } from './events.js';

const FEED_EVENT_HOURS = 24;
const DIGEST_ROWS = 30;

interface FeedContext {
  api: ApiClient;
  signal?: AbortSignal;
  now: Date;
}

export interface Feed<D = unknown> {
  /** Registered name, e.g. "project-alerts". */
  name: string;
  /** RFC 6570 level-1 template, e.g. "dbops://projects/{projectId}/alerts". */
  template: string;
  title: string;
  description: string;
  /** The tool that reads the same data: the feed is offered only to a client that can reach it. */
  tool: string;
  load(ctx: FeedContext, vars: Record<string, string>): Promise<D>;
  fingerprint(data: D, now: Date): string;
  markdown(data: D, vars: Record<string, string>, f: FormatContext): string;
  json(data: D, vars: Record<string, string>): Record<string, unknown>;
}

const define = <D>(feed: Feed<D>): Feed<D> => feed;

const FORMAT_NOTE = 'Add ?format=json for the complete JSON.';

const projectAlerts = define<OpenAlerts>({
  name: 'project-alerts',
  tool: 'list_open_alerts',
  template: 'dbops://projects/{projectId}/alerts',
  title: 'Open alerts of a project',
  description: `Open and tracking alerts of the project across all its alert configurations, grouped by cause, with acknowledgement and age. ${FORMAT_NOTE}`,
  load: (ctx, v) => loadOpenAlerts(ctx.api, v.projectId!, { signal: ctx.signal, windows: true }),
  fingerprint: (d, now) => alertsFingerprint(d.alerts, now),
  markdown: (d, v, f) => projectAlertsDigest(d, v.projectId!, DIGEST_ROWS, f),
  json: (d, v) => ({
    projectId: v.projectId,
    source: d.source,
    truncated: d.truncated,
    totalCount: d.alerts.length,
    alerts: redact(d.alerts),
  }),
});

const windowStart = (now: Date) => new Date(now.getTime() - FEED_EVENT_HOURS * 3_600_000);

const projectEvents = define<RecentEvents>({
  name: 'project-events',
  tool: 'list_project_events',
  template: 'dbops://projects/{projectId}/events',
  title: 'Recent events of a project',
  description: `Events of the project in the last ${FEED_EVENT_HOURS} hours, newest first: who changed what, alerts opening and closing. ${FORMAT_NOTE}`,
  load: (ctx, v) => loadRecentEvents(ctx.api, { projectId: v.projectId! }, windowStart(ctx.now), ctx.signal),
  fingerprint: (d) => eventsFingerprint(d.events),
  markdown: (d, v, f) =>
    eventsDigest(`Events of project ${f.names.project(v.projectId!)}`, d, FEED_EVENT_HOURS, DIGEST_ROWS, f),
  json: (d, v) => ({
    projectId: v.projectId,
    since: d.since,
    truncated: d.truncated,
    events: redact(d.events),
  }),
});

const globalEvents = define<RecentEvents>({
  name: 'global-events',
  tool: 'list_global_events',
  template: 'dbops://global/events',
  title: 'Recent global events',
  description: `Installation-wide events (users, organizations, keys) in the last ${FEED_EVENT_HOURS} hours, newest first; needs a global read-only key. ${FORMAT_NOTE}`,
  load: (ctx) => loadRecentEvents(ctx.api, 'global', windowStart(ctx.now), ctx.signal),
  fingerprint: (d) => eventsFingerprint(d.events),
  markdown: (d, _v, f) => eventsDigest('Global events', d, FEED_EVENT_HOURS, DIGEST_ROWS, f),
  json: (d) => ({ since: d.since, truncated: d.truncated, events: redact(d.events) }),
});

const projectAutomation = define<AutomationStatus>({
  name: 'project-automation',
  tool: 'get_automation_status',
  template: 'dbops://projects/{projectId}/automation',
  title: 'Automation status of a project',
  description: `Whether the project's processes reached the automation goal version; for those behind, the remaining plan steps and errors. ${FORMAT_NOTE}`,
  load: (ctx, v) => ctx.api.automation.status(v.projectId!, { signal: ctx.signal }),
  fingerprint: (s) =>
    `${s.goalVersion}|${(s.processes ?? [])
      .map((p) => `${p.name}:${p.lastGoalVersionAchieved}:${(p.plan ?? []).join('>')}:${p.errorCode ?? 0}`)
      .sort()
      .join(',')}`,
  markdown: (s, v, f) => automationDigest(s, v.projectId ?? '', f),
  json: (s, v) => ({
    projectId: v.projectId,
    goalVersion: s.goalVersion,
    processes: redact(s.processes ?? []),
  }),
});

interface GlobalConfigAlerts {
  alerts: Alert[];
  truncated: boolean;
}

const globalConfigAlerts = define<GlobalConfigAlerts>({
  name: 'global-alert-config-alerts',
  tool: 'list_open_global_alerts_for_config',
  template: 'dbops://global-alert-configs/{globalAlertConfigId}/alerts',
  title: 'Open alerts of a global alert configuration',
  description: `Open alerts raised by one global (installation-wide) alert configuration; needs a global owner or monitoring admin key. ${FORMAT_NOTE}`,
  load: async (ctx, v) => {
    const r = await fetchAll(
      (q) => ctx.api.globalAlerts.listForConfig(v.globalAlertConfigId!, q, { signal: ctx.signal }),
      { signal: ctx.signal, maxItems: 5_000 },
    );
    return { alerts: r.items.sort(oldestFirst), truncated: r.truncated };
  },
  fingerprint: (d, now) => alertsFingerprint(d.alerts, now),
  markdown: (d, v, f) => globalConfigAlertsDigest(d.alerts, v.globalAlertConfigId!, DIGEST_ROWS, f),
  json: (d, v) => ({
    globalAlertConfigId: v.globalAlertConfigId,
    truncated: d.truncated,
    totalCount: d.alerts.length,
    alerts: redact(d.alerts),
  }),
});

export const feeds: Feed[] = [
  projectAlerts,
  projectEvents,
  projectAutomation,
  globalEvents,
  globalConfigAlerts,
];

export interface FeedMatch {
  feed: Feed;
  vars: Record<string, string>;
  format: 'markdown' | 'json';
  /** The URI without its query: one feed, whatever the format. */
  key: string;
}

const segment = safeSegment('id', 'a URI segment');

function compile(template: string): { names: string[]; regex: RegExp } {
  const names: string[] = [];
  const pattern = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1]!);
      return '([^/?#]+)';
    })
    .join('');
  return { names, regex: new RegExp(`^${pattern}$`) };
}

const compiled = feeds.map((feed) => ({ feed, ...compile(feed.template) }));

/** The feed a URI names (query: format=markdown|json), or undefined. */
export function matchFeed(uri: string): FeedMatch | undefined {
  const q = uri.indexOf('?');
  const key = q < 0 ? uri : uri.slice(0, q);
  const params = new URLSearchParams(q < 0 ? '' : uri.slice(q + 1));
  const format = params.get('format') ?? 'markdown';
  if (format !== 'markdown' && format !== 'json') return undefined;
  for (const c of compiled) {
    const m = c.regex.exec(key);
    if (!m) continue;
    const vars: Record<string, string> = {};
    for (const [i, name] of c.names.entries()) {
      let value: string;
      try {
        value = decodeURIComponent(m[i + 1]!);
      } catch {
        return undefined;
      }
      if (!segment.safeParse(value).success) return undefined;
      vars[name] = value;
    }
    return { feed: c.feed, vars, format, key };
  }
  return undefined;
}

/** The concrete URI of a feed for these variables. */
export function feedUri(feed: Feed, vars: Record<string, string>): string {
  return feed.template.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(vars[n] ?? ''));
}
