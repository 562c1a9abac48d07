// The open (and TRACKING) alerts of a project across all its alert configurations, and their grouping by
// cause. One beyond-spec call per status where the server offers GET /groups/{id}/alerts?status=; otherwise
// the spec's way: the project's alert configurations, then each one's open alerts, four at a time.

import { condition } from '../../tools/alert-configs.js';
import { alertColumns, alertRow, alertWhat, alertWhere } from '../../tools/alerts.js';
import { mapBounded } from '../api/bounded.js';
import type { Alert, AlertConfig, ApiClient } from '../api/client.js';
import { type FetchPage, fetchAll } from '../api/paging.js';
import { plural, table } from '../format/markdown.js';
import { cell } from '../format/untrusted.js';
import { withFallback } from './capabilities.js';

export const OPEN_STATUSES = ['OPEN', 'TRACKING'] as const;
export type OpenStatus = (typeof OPEN_STATUSES)[number];

const FAN_OUT = 4;
/** Upper bound of items read from one list (a runaway server must not exhaust memory). */
const MAX_ITEMS = 5_000;

export interface OpenAlertsOptions {
  signal?: AbortSignal;
  statuses?: readonly OpenStatus[];
  concurrency?: number;
  /** Called as fetches complete; total grows when the per-configuration fan-out is needed. */
  progress?: (done: number, total: number, message: string) => unknown;
}

export interface OpenAlerts {
  alerts: Alert[];
  configs: AlertConfig[];
  /** 'project': the project-wide alert list; 'per-config': the spec-only fan-out over configurations. */
  source: 'project' | 'per-config';
  /** Some list held more than could be read. */
  truncated: boolean;
}

export async function loadOpenAlerts(
  api: ApiClient,
  projectId: string,
  o: OpenAlertsOptions = {},
): Promise<OpenAlerts> {
  const statuses = o.statuses ?? OPEN_STATUSES;
  const signal = o.signal;
  let done = 0;
  let total = statuses.length + 1;
  const tick = async (message: string) => {
    done += 1;
    await o.progress?.(done, Math.max(total, done), message);
  };
  let truncated = false;
  const all = async <T>(label: string, read: FetchPage<T>) => {
    const r = await fetchAll(read, { signal, maxItems: MAX_ITEMS });
    truncated ||= r.truncated;
    await tick(label);
    return r.items;
  };

  const configsP = all('alert configurations', (q) => api.alertConfigs.list(projectId, q, { signal }));
  // Settled below in both paths; a rejection here must not go unobserved while the alerts load.
  configsP.catch(() => {});

  const { value: alerts, fallback } = await withFallback(
    api,
    'projectAlerts',
    async () => {
      const lists = await Promise.all(
        statuses.map((status) =>
          all(`${status} alerts`, (q) => api.alerts.list(projectId, { ...q, status }, { signal })),
        ),
      );
      return lists.flat();
    },
    async () => {
      const configs = await configsP;
      total = 1 + configs.length;
      const lists = await mapBounded(configs, o.concurrency ?? FAN_OUT, signal, (c, s) =>
        all(`alerts of configuration ${c.id}`, (q) =>
          api.alertConfigs.listOpenAlerts(projectId, c.id, q, { signal: s }),
        ),
      );
      return lists.flat();
    },
  );
  const configs = await configsP;
  const wanted = new Set<string>(statuses);
  const seen = new Set<string>();
  const open = alerts.filter((a) => {
    if (!wanted.has(String(a.status)) || seen.has(a.id)) return false;
    seen.add(a.id);
    return true;
  });
  return { alerts: open, configs, source: fallback ? 'per-config' : 'project', truncated };
}

export function ackInForce(a: Alert, now: Date): boolean {
  return Boolean(a.acknowledgedUntil && Date.parse(a.acknowledgedUntil) > now.getTime());
}

const createdMs = (a: { created?: string }) => Date.parse(a.created ?? '') || Number.POSITIVE_INFINITY;
export const oldestFirst = <T extends { created?: string }>(a: T, b: T) => createdMs(a) - createdMs(b);

export interface AlertGroup {
  /** "OUTSIDE_METRIC_THRESHOLD CONNECTIONS" — event type and metric. */
  cause: string;
  eventTypeName?: string;
  metricName?: string;
  /** The configurations' conditions, e.g. "CONNECTIONS > 4000 RAW (AVERAGE)". */
  conditions: string[];
  alertConfigIds: string[];
  acknowledged: number;
  oldest?: string;
  /** Oldest first. */
  alerts: Alert[];
}

/** Groups by cause, each group oldest first, groups ordered by their oldest alert. */
export function groupByCause(alerts: Alert[], configs: AlertConfig[], now: Date): AlertGroup[] {
  const byConfig = new Map(configs.map((c) => [c.id, c]));
  const groups = new Map<string, AlertGroup>();
  for (const a of alerts) {
    const cause = alertWhat(a);
    let g = groups.get(cause);
    if (!g) {
      g = {
        cause,
        eventTypeName: a.eventTypeName,
        metricName: a.metricName,
        conditions: [],
        alertConfigIds: [],
        acknowledged: 0,
        alerts: [],
      };
      groups.set(cause, g);
    }
    g.alerts.push(a);
    if (ackInForce(a, now)) g.acknowledged += 1;
    if (a.alertConfigId && !g.alertConfigIds.includes(a.alertConfigId)) {
      g.alertConfigIds.push(a.alertConfigId);
      const c = byConfig.get(a.alertConfigId);
      const cond = c ? condition(c) : undefined;
      if (cond && cond !== '—' && !g.conditions.includes(cond)) g.conditions.push(cond);
    }
  }
  const out = [...groups.values()];
  for (const g of out) {
    // By host (hosts in the order of their oldest alert), each host's alerts oldest first.
    g.alerts.sort(oldestFirst);
    const hostRank = new Map<string, number>();
    for (const a of g.alerts) if (!hostRank.has(alertWhere(a))) hostRank.set(alertWhere(a), hostRank.size);
    g.alerts.sort((x, y) => hostRank.get(alertWhere(x))! - hostRank.get(alertWhere(y))! || oldestFirst(x, y));
    g.oldest = g.alerts[0]?.created; // the first host is the one with the oldest alert
  }
  return out.sort((x, y) => oldestFirst({ created: x.oldest }, { created: y.oldest }));
}

/** What changes when an alert opens, closes, or is (un)acknowledged — or its acknowledgement lapses. */
export function alertsFingerprint(alerts: Alert[], now: Date): string {
  return alerts
    .map((a) => `${a.id}:${a.status}:${a.acknowledgedUntil ?? ''}:${ackInForce(a, now) ? 1 : 0}`)
    .sort()
    .join(',');
}

const groupColumns = alertColumns.filter((c) => c !== 'what');

/** A cause's heading line: what, how many, the condition, and the configuration ids. */
export function groupHeading(g: AlertGroup): string {
  const conf = g.alertConfigIds.length ? ` · alertConfigId ${g.alertConfigIds.join(', ')}` : '';
  const acked = g.acknowledged ? `, ${g.acknowledged} acknowledged` : '';
  // The condition names the metric itself: "OUTSIDE_METRIC_THRESHOLD CONNECTIONS > 4000 RAW (AVERAGE)".
  const what = g.conditions.length ? `${g.eventTypeName ?? ''} ${g.conditions.join('; ')}`.trim() : g.cause;
  return `${cell(what, 160)} — ${plural(g.alerts.length, 'alert')}${acked}${conf}`;
}

/** The table of a cause's alerts (its first `max` rows). */
export function groupTable(g: AlertGroup, now: Date, max: number): string {
  const rows = g.alerts.slice(0, Math.max(0, max)).map((a) => alertRow(a, now).filter((_, i) => i !== 2));
  return table(groupColumns, rows);
}

/** Every cause's heading (even past the row cap) and its alerts' rows, up to maxRows in all. */
export function groupsMarkdown(
  groups: AlertGroup[],
  now: Date,
  maxRows: number,
): { body: string; hidden: number } {
  const parts: string[] = [];
  let left = maxRows;
  let hidden = 0;
  for (const g of groups) {
    parts.push(`#### ${groupHeading(g)}`);
    const shown = Math.min(left, g.alerts.length);
    if (shown > 0) parts.push(groupTable(g, now, shown));
    left -= shown;
    hidden += g.alerts.length - shown;
  }
  return { body: parts.join('\n'), hidden };
}
