// Open alerts by cause: what each alert is about and where (the platform's fields), a configuration's condition
// in the platform's terms, and the grouping itself — each cause with its configurations, the window muting it,
// whether it pages, the changes that may explain it. A join of the model's records, drawn by the views.
import type { Alert, AlertConfig, ApiEvent, GlobalAlertConfig, MaintenanceWindow } from '../api/client.js';
import { ackInForce, isConfigChange, type Muting, muting, pagesOf } from '../rules/index.js';
import type { OpenAlerts } from './alerts.js';
import { type AlertFate, type FateRecords, fateOf } from './fates.js';

/** "OUTSIDE_METRIC_THRESHOLD CONNECTIONS": an alert's event type and metric, its cause. */
export function alertWhat(a: Alert): string {
  return a.metricName ? `${a.eventTypeName ?? ''} ${a.metricName}`.trim() : (a.eventTypeName ?? '—');
}

/** Where an alert is: its host and port, else its replica set, cluster or host id. */
export function alertWhere(a: Alert): string {
  return a.hostnameAndPort ?? a.replicaSetName ?? a.clusterName ?? a.hostId ?? '—';
}

/** A configuration's threshold in the platform's terms: "CONNECTIONS > 4000 RAW (AVERAGE)", '—' when none. */
export function condition(c: AlertConfig): string {
  const t = c.metricThreshold ?? c.threshold;
  if (!t) return '—';
  const op = { GREATER_THAN: '>', LESS_THAN: '<' }[String(t.operator)] ?? t.operator ?? '';
  const metric = c.metricThreshold?.metricName ?? '';
  const mode = c.metricThreshold?.mode ? ` (${c.metricThreshold.mode})` : '';
  return `${metric} ${op} ${t.threshold ?? ''} ${t.units ?? ''}${mode}`.replace(/\s+/g, ' ').trim();
}

export interface AlertGroup {
  /** "OUTSIDE_METRIC_THRESHOLD CONNECTIONS" — event type and metric. */
  cause: string;
  eventTypeName?: string;
  metricName?: string;
  /** The alerts come from a global alert configuration (acknowledge_global_alert, not acknowledge_alert). */
  global: boolean;
  /** The configurations' conditions, e.g. "CONNECTIONS > 4000 RAW (AVERAGE)". */
  conditions: string[];
  alertConfigIds: string[];
  /** Configurations of these alerts that are disabled now: no new alert of this kind opens. */
  disabledConfigIds: string[];
  /** Changes to these alerts' configurations (in the events given), oldest first. */
  configChanges: ApiEvent[];
  /** The maintenance window whose alert types include these alerts': in force now, else the next one. */
  window?: Muting;
  /** Notification types of these alerts' configurations that page someone (PAGER_DUTY, SMS…). */
  pages?: string[];
  /** What happens to these alerts, when the records beyond them were read. */
  fate?: AlertFate;
  acknowledged: number;
  oldest?: string;
  /** Oldest first. */
  alerts: Alert[];
}

/** When a record was created, in ms; one without a time sorts last. */
export const createdMs = (a: { created?: string }) => Date.parse(a.created ?? '') || Number.POSITIVE_INFINITY;
export const oldestFirst = <T extends { created?: string }>(a: T, b: T) => createdMs(a) - createdMs(b);

/** What grouping may know beyond the alerts: where global alerts come from, windows, recent changes. */
interface AlertContext {
  globalAlertIds?: string[];
  globalConfigs?: GlobalAlertConfig[];
  windows?: MaintenanceWindow[] | null;
  events?: ApiEvent[];
  /** The records that say what happens to each alert (pages, keys, lapsed acknowledgements). */
  fates?: FateRecords;
}

/** The context an OpenAlerts read carries itself (global alerts; windows when they were asked for). */
export const alertContext = (r: OpenAlerts): AlertContext => ({
  globalAlertIds: r.globalAlertIds,
  globalConfigs: r.globalConfigs,
  windows: r.windows,
  ...(r.fates ? { fates: r.fates } : {}),
});

const CONFIG_CHANGE_LEAD_MS = 24 * 3_600_000;

/** Groups by cause, each group oldest first, groups ordered by their oldest alert. */
export function groupByCause(
  alerts: Alert[],
  configs: AlertConfig[],
  now: Date,
  context: AlertContext = {},
): AlertGroup[] {
  if (!alerts.length) return []; // a quiet project of hundreds: no index of its configurations
  const global = new Set(context.globalAlertIds ?? []);
  const byConfig = new Map<string, AlertConfig>(
    [...configs, ...((context.globalConfigs ?? []) as AlertConfig[])].map((c) => [c.id, c]),
  );
  const groups = new Map<string, AlertGroup>();
  for (const a of alerts) {
    const isGlobal = global.has(a.id);
    const cause = `${alertWhat(a)}${isGlobal ? ' (global)' : ''}`;
    let g = groups.get(cause);
    if (!g) {
      g = {
        cause,
        eventTypeName: a.eventTypeName,
        metricName: a.metricName,
        global: isGlobal,
        conditions: [],
        alertConfigIds: [],
        disabledConfigIds: [],
        configChanges: [],
        window: muting(a.eventTypeName, context.windows ?? [], now),
        acknowledged: 0,
        pages: [],
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
      if (c?.enabled === false) g.disabledConfigIds.push(c.id);
      // A person paged by SMS is an SMS page, whatever the target's type (USER, GROUP, ORG with smsEnabled).
      for (const p of pagesOf(c as AlertConfig | undefined)) {
        const t = p.service === 'SMS' ? 'SMS' : p.typeName;
        if (!g.pages!.includes(t)) g.pages!.push(t);
      }
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
    if (context.fates) {
      const mine = g.alertConfigIds.flatMap((id) => byConfig.get(id) ?? []);
      g.fate = fateOf(mine, g.alerts, context.fates, now, g.global);
    }
    // Changes from a day before the first alert on: what may have made it fire, or silenced it since.
    const from = (Date.parse(g.oldest ?? '') || 0) - CONFIG_CHANGE_LEAD_MS;
    g.configChanges = (context.events ?? [])
      .filter(
        (e) =>
          isConfigChange(e.eventTypeName) &&
          e.alertConfigId &&
          g.alertConfigIds.includes(e.alertConfigId) &&
          (Date.parse(e.created ?? '') || 0) >= from,
      )
      .sort(oldestFirst);
  }
  return out.sort((x, y) => oldestFirst({ created: x.oldest }, { created: y.oldest }));
}
