// The alerts area as a person sees it: an alert's row and columns, where and what it is, its acknowledgement,
// a cause's heading, notes and rows, the headline that counts them; an alert configuration's condition,
// notification targets and matchers. Tools, triage, feeds and previews draw alerts through this module only.
import type { Alert, AlertConfig, GlobalAlertConfig } from '../../api/types.js';
import { type AlertGroup, alertWhat, alertWhere, condition } from '../../model/index.js';
import { ackInForce, paging, severity, windowName } from '../../rules/index.js';
import { cell, named } from '../../untrusted.js';
import { idsOnly, type ListView, type NameBook } from '../answers.js';
import type { Preview } from '../consent.js';
import { age, due, plural, stamp, table, utc, when } from '../markdown.js';
import { fateHeading, fateNotes, lapsedNote, lastNotified, notifiedWords, pageLabel } from './alerts-fate.js';

export const alertColumns = [
  'alertId',
  'status',
  'what',
  utc('since'),
  'where',
  'value',
  'acknowledged',
  'last notified',
];

export function ackState(a: Alert, now: Date, names: NameBook = idsOnly): string {
  if (!ackInForce(a, now)) return 'no';
  const by = `by ${a.acknowledgingUsername ? names.key(a.acknowledgingUsername) : '?'}`;
  const rel = age(a.acknowledgedUntil, now);
  if (rel === 'indefinitely') return `yes, until further notice, ${by}`;
  // due() adds the UTC time when the acknowledgement lapses within 48 h: "in 9 h, 2026-11-21 21:00 UTC".
  const [left, at] = (due(a.acknowledgedUntil, now) ?? '').replace(/^in /, '').split(', ');
  // The comment says why: it is platform text, drawn as a bounded cell inside the data block.
  const why = a.acknowledgementComment ? `: "${cell(a.acknowledgementComment, 100)}"` : '';
  return `yes, ${left} left${at ? `, until ${at}` : ''}, ${by}${why}`;
}

export function alertRow(a: Alert, now: Date, names: NameBook = idsOnly): unknown[] {
  // Some servers send a current value without its number: show the unit alone rather than "undefined".
  const v = a.currentValue;
  const value = v ? `${v.number ?? '—'} ${v.units ?? ''}`.trim() : '—';
  return [
    a.id,
    a.status,
    alertWhat(a),
    stamp(a.created, now),
    alertWhere(a),
    value,
    ackState(a, now, names),
    lastNotified(a, now),
  ];
}

/** A closed or cancelled alert sends no notifications: acknowledging it is allowed, and silences nothing. */
export function closedNote(a: Alert | undefined, alertId: string): string | undefined {
  const status = String(a?.status ?? '');
  return status === 'CLOSED' || status === 'CANCELLED'
    ? `Alert ${alertId} is ${status}: it sends no notifications, so there is nothing to silence.`
    : undefined;
}

// In a cause's table the cause is the heading, and a tracking alert says so next to its age.
const groupColumns = alertColumns.filter((c) => c !== 'what' && c !== 'status');

function groupRow(a: Alert, now: Date, names: NameBook = idsOnly): unknown[] {
  const [id, status, , since, ...rest] = alertRow(a, now, names);
  return [id, status === 'TRACKING' ? `${since} (tracking)` : since, ...rest];
}

/** A cause's heading line: what, how many, the condition, and the configuration ids. */
export function groupHeading(g: AlertGroup, now: Date, listedWindow?: string): string {
  const idName = g.global ? 'globalAlertConfigId' : 'alertConfigId';
  const conf = g.alertConfigIds.length ? ` · ${idName} ${g.alertConfigIds.join(', ')}` : '';
  const acked = g.acknowledged ? `, ${g.acknowledged} acknowledged` : '';
  // A metric condition names its metric ("CONNECTIONS > 4000 RAW (AVERAGE)"); other conditions need the type.
  const type = g.metricName ? '' : (g.eventTypeName ?? '');
  const what = g.conditions.length ? `${type} ${g.conditions.join('; ')}`.trim() : g.cause;
  const scope = g.global ? ' (global)' : '';
  return `${cell(what, 160)}${scope} — ${plural(g.alerts.length, 'alert')}${acked}${conf}${windowNote(g.window, now, listedWindow)}${fateHeading(g.fate)}`;
}

/** A window as people know it (the rule's name, src/rules/windows.ts), its description drawn safe. */
export const windowCalled = (w: { id?: string; description?: string }, max = 60): string =>
  cell(windowName(w, max), max + 8);

/**
 * Why a window mutes a cause: windows have alert types, no hosts, so one mutes that type for every host of the
 * project, whatever its description names. (Until the windows view exports its own wording.)
 */
export function mutedUntil(w: NonNullable<AlertGroup['window']>, now: Date): string {
  const types = w.types.join(', ') || '—';
  return w.state === 'active'
    ? `muted by ${windowCalled(w)} until ${shortWhen(w.endDate, now)} (it mutes ${types} project-wide)`
    : `${windowCalled(w)} will mute it from ${shortWhen(w.startDate, now)} (${types}, project-wide)`;
}

/** "08:47 UTC" within a day of now, else "2026-11-27 06:36 UTC". */
export function shortWhen(iso: string | undefined, now: Date): string {
  const t = Date.parse(iso ?? '');
  if (!Number.isFinite(t)) return '?';
  const s = new Date(t).toISOString();
  return Math.abs(t - now.getTime()) < 20 * 3_600_000
    ? `${s.slice(11, 16)} UTC`
    : `${s.slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Which maintenance window mutes (or will mute) the cause's notifications, for its heading. `listed`: the
 * one window in force, shown with its id and end next to the answer, so its name alone says which.
 */
function windowNote(w: AlertGroup['window'], now: Date, listed?: string): string {
  if (!w) return '';
  // The one window in force is drawn in full below the causes, named as the one that mutes them.
  if (w.state === 'active') return w.id === listed ? ' · muted' : ` · ${mutedUntil(w, now)}`;
  return ` · window ${w.id} mutes it from ${when(w.startDate, now)}`;
}

/**
 * What else a person must know about a cause before acting, one short line each: its configuration is
 * disabled now, or was changed recently (the change may be why it alerts, or why it went quiet).
 */
export function groupNotes(g: AlertGroup, now: Date): string[] {
  const notes = g.disabledConfigIds.map(
    (id) => `⚠ configuration ${id} is disabled now: it opens no new alerts.`,
  );
  // The latest change says what state the configuration is in; earlier ones are in the timeline.
  // Who made it is on the change's own line in the timeline (or in get_project_event).
  const e = g.configChanges.at(-1);
  if (e) {
    const more = g.configChanges.length > 1 ? ` (latest of ${g.configChanges.length})` : '';
    notes.push(`⚠ its configuration changed ${age(e.created, now)} (eventId ${e.id})${more}`);
  }
  return [...notes, ...fateNotes(g.fate, now)];
}

/**
 * The table of a cause's alerts (its first `max` rows); one or two alerts are a line each, not a table (a
 * table's header costs more than it saves under three rows).
 */
export function groupTable(
  g: AlertGroup,
  now: Date,
  max: number,
  names: NameBook = idsOnly,
  where?: (a: Alert) => string,
  /** Whether each alert says when it last notified (a triage leaves it to list_open_alerts). */
  notified = true,
): string {
  const first = g.alerts.slice(0, Math.max(0, max));
  // An acknowledgement that lapsed is said where "no" would be.
  const rows = first.map((a) => {
    const row = groupRow(a, now, names);
    if (where) row[2] = where(a);
    const lapsed = lapsedNote(a, g.fate, now);
    if (lapsed) row[4] = lapsed;
    return row;
  });
  if (rows.length > 2)
    return notified
      ? table(groupColumns, rows)
      : table(
          groupColumns.slice(0, -1),
          rows.map((r) => r.slice(0, -1)),
        );
  return rows
    .map((row, i) => {
      const [id, , where, value, acked, last] = row.map((v) => cell(v ?? '—', 200));
      // A line, not a table: the age alone keeps a triage within its budget (tables give the time too).
      const since = cell(age(first[i]?.created, now) ?? '—');
      const shown = value === '—' ? '' : `, value ${value}`;
      // Not acknowledged is the usual case, and the cause's heading counts the acknowledged ones.
      const ack = acked === 'no' ? '' : acked!.startsWith('yes') ? `, acknowledged ${acked}` : `, ${acked}`;
      return `- alertId ${id}: since ${since} on ${where}${shown}${ack}${notified ? `, ${notifiedWords(last!)}` : ''}`;
    })
    .join('\n');
}

/** Every cause's heading (even past the row cap) and its alerts' rows, up to maxRows in all. */
export function groupsMarkdown(
  groups: AlertGroup[],
  now: Date,
  maxRows: number,
  names: NameBook = idsOnly,
): { body: string; hidden: number } {
  const parts: string[] = [];
  let left = maxRows;
  let hidden = 0;
  for (const g of groups) {
    parts.push(`#### ${groupHeading(g, now)}`, ...groupNotes(g, now));
    const shown = Math.min(left, g.alerts.length);
    if (shown > 0) parts.push(groupTable(g, now, shown, names));
    left -= shown;
    hidden += g.alerts.length - shown;
  }
  return { body: parts.join('\n'), hidden };
}

export function alertCounts(alerts: Alert[], now: Date) {
  return {
    totalCount: alerts.length,
    trackingCount: alerts.filter((a) => a.status === 'TRACKING').length,
    acknowledgedCount: alerts.filter((a) => ackInForce(a, now)).length,
  };
}

/** "9 alerts (7 open, 2 tracking), 1 acknowledged, in 6 causes": the parts add up to the total. */
export function alertHeadline(
  alerts: Alert[],
  groups: AlertGroup[],
  now: Date,
  globalIds: string[] = [],
): string {
  const c = alertCounts(alerts, now);
  const open = c.totalCount - c.trackingCount;
  const split = c.trackingCount ? ` (${open} open, ${c.trackingCount} tracking)` : '';
  const global = alerts.filter((a) => globalIds.includes(a.id)).length;
  const globalPart = global ? `, ${global} from global configurations` : '';
  const acked = c.acknowledgedCount ? `, ${c.acknowledgedCount} acknowledged` : '';
  const causes = groups.length ? `, in ${plural(groups.length, 'cause')}` : '';
  const noun = c.trackingCount ? 'alert' : 'open alert';
  return `${plural(c.totalCount, noun)}${split}${globalPart}${acked}${causes}`;
}

/** The acknowledge call for a cause's alerts: global alerts have their own. */
export const ackTool = (groups: AlertGroup[]) =>
  [
    groups.some((g) => !g.global) && 'acknowledge_alert',
    groups.some((g) => g.global) && 'acknowledge_global_alert',
  ]
    .filter(Boolean)
    .join(' or ');

export const groupSummary = (g: AlertGroup) => ({
  cause: g.cause,
  eventTypeName: g.eventTypeName,
  /** The rule's severity (src/rules/alerts.ts), the one the apps draw. */
  severity: severity(g.eventTypeName),
  metricName: g.metricName,
  global: g.global,
  conditions: g.conditions,
  alertConfigIds: g.alertConfigIds,
  disabledConfigIds: g.disabledConfigIds,
  configChangeEventIds: g.configChanges.map((e) => e.id),
  maintenanceWindow: g.window,
  count: g.alerts.length,
  acknowledged: g.acknowledged,
  oldest: g.oldest,
  alertIds: g.alerts.map((a) => a.id),
});

/**
 * An alert inside its cause group (triage's structured part): what the group does not already say. Its type,
 * metric and project are the group's; `links` are the platform's API addresses, of no use to a model or a view.
 * Leaner alerts let more of a triage fit the answer's budget (DBOPS_MAX_OUTPUT_CHARS).
 */
export function alertInGroup(a: Alert): Record<string, unknown> {
  const { links: _links, groupId: _groupId, eventTypeName: _type, metricName: _metric, ...rest } = a;
  return rest;
}

export const fallbackNote = (source: string) =>
  source === 'per-config'
    ? 'This server has no project-wide alert list: the alerts were read per alert configuration, which shows OPEN alerts only (not TRACKING).'
    : undefined;

export const alertList: ListView<Alert> = {
  columns: alertColumns,
  row: (a: Alert, now: Date, names: NameBook) => alertRow(a, now, names),
};

/** A global configuration's alerts name their project (by name where it was read, with its id). */
export const globalAlertList: ListView<Alert> = {
  columns: [...alertColumns, 'project'],
  row: (a: Alert, now: Date, names: NameBook) => [
    ...alertRow(a, now, names),
    a.groupId && names.project(a.groupId),
  ],
};

/** What acknowledging (or un-acknowledging) an alert changes, for the person asked to consent. */
export function ackPreview(
  a: Alert | undefined,
  alertId: string,
  until: string | undefined,
  note: string[],
): Omit<Preview, 'target'> {
  const closed = closedNote(a, alertId);
  if (closed && until) note.push(closed);
  const alert = named(a && `${alertWhat(a)} on ${alertWhere(a)}`, alertId);
  return {
    action: until
      ? `Acknowledge alert ${alert} until ${until}`
      : `Remove the acknowledgement of alert ${alert}`,
    current: a
      ? {
          status: a.status,
          what: alertWhat(a),
          where: alertWhere(a),
          acknowledgedUntil: a.acknowledgedUntil ?? 'not acknowledged',
        }
      : undefined,
    changes: [{ field: 'acknowledgedUntil', from: a?.acknowledgedUntil, to: until ?? '(none)' }],
    notes: note,
  };
}

/** "ASSERT_REGULAR > 10 RAW (AVERAGE)" — the condition a person reads. */
/** What a person calls a configuration: its condition, or its event type when it has no threshold. */
export const configName = (c: AlertConfig) => {
  const cond = condition(c);
  return cond === '—' ? c.eventTypeName : cond;
};

/** Each notification's type and delay, and whom it pages where it pages ("USER +10m (SMS to priya…)"). */
export const notifySummary = (c: AlertConfig) =>
  (c.notifications ?? [])
    .map((n) => {
      const p = paging(n);
      const pages = p ? ` (${p.service === 'SMS' ? pageLabel(p) : `pages ${p.service}`})` : '';
      return `${n.typeName ?? '?'}${n.delayMin ? ` +${n.delayMin}m` : ''}${pages}`;
    })
    .join(', ');

export const matcherSummary = (c: AlertConfig) =>
  (c.matchers ?? [])
    .map((m) => `${m.fieldName ?? m.field ?? '?'} ${m.operator ?? ''} ${m.value ?? ''}`)
    .join('; ');

export const configList: ListView<AlertConfig> = {
  columns: ['alertConfigId', 'event type', 'enabled', 'condition', 'notifies'],
  row: (c: AlertConfig) => [c.id, c.eventTypeName, c.enabled ? 'yes' : 'no', condition(c), notifySummary(c)],
};

export const globalConfigList: ListView<GlobalAlertConfig> = {
  columns: ['globalAlertConfigId', 'event type', 'enabled'],
  row: (c: GlobalAlertConfig) => [c.id, c.eventTypeName, c.enabled ? 'yes' : 'no'],
};

// Metrics and event types in a person's words, for answers that name a configuration by what it watches.
const METRIC_WORDS: Record<string, string> = {
  DISK_PARTITION_SPACE_USED_DATA: 'Disk space used on data partition',
  DISK_PARTITION_SPACE_USED_INDEX: 'Disk space used on index partition',
  DISK_PARTITION_SPACE_USED_JOURNAL: 'Disk space used on journal partition',
  CONNECTIONS: 'Connections',
  ASSERT_REGULAR: 'Regular asserts',
  QUERY_TARGETING_SCANNED_OBJECTS_PER_RETURNED: 'Scanned objects per returned document',
  OPLOG_SLAVE_LAG_MASTER_TIME: 'Replication lag',
  OPLOG_MASTER_TIME: 'Oplog window',
  MEMORY_RESIDENT: 'Resident memory',
  NORMALIZED_SYSTEM_CPU_USER: 'System CPU (user)',
  NORMALIZED_SYSTEM_CPU_STEAL: 'System CPU (steal)',
};
const PERCENT_METRICS = /^(DISK_PARTITION_SPACE_USED|NORMALIZED_|SYSTEM_NORMALIZED_CPU|.*_UTILIZATION)/;
const UNIT_WORDS: Record<string, string> = {
  SECONDS: 's',
  MILLISECONDS: 'ms',
  MINUTES: 'min',
  HOURS: 'h',
  GIGABYTES: 'GB',
  MEGABYTES: 'MB',
  KILOBYTES: 'KB',
  BYTES: 'bytes',
};
const EVENT_WORDS: Record<string, string> = {
  HOST_DOWN: 'Host down',
  HOST_RECOVERING: 'Host recovering',
  NO_PRIMARY: 'No primary',
  MONITORING_AGENT_DOWN: 'Monitoring agent down',
  BACKUP_AGENT_DOWN: 'Backup agent down',
  AUTOMATION_AGENT_DOWN: 'Automation agent down',
  REPLICATION_OPLOG_WINDOW_RUNNING_OUT: 'Oplog window running out',
  RESYNC_REQUIRED: 'Resync required',
  TOO_MANY_ELECTIONS: 'Too many elections',
};

/**
 * What a configuration watches, as a person says it: "Disk space used on data partition > 90 %", "Host down
 * (HOST_DOWN)"; the platform's words where no plainer ones are known.
 */
export function conditionWords(c: AlertConfig): string {
  const mt = c.metricThreshold;
  const t = mt ?? c.threshold;
  if (mt?.metricName && t) {
    const op = { GREATER_THAN: '>', LESS_THAN: '<' }[String(t.operator)] ?? t.operator ?? '';
    const unit =
      t.units === 'RAW' || !t.units
        ? PERCENT_METRICS.test(mt.metricName)
          ? ' %'
          : ''
        : ` ${UNIT_WORDS[t.units] ?? t.units}`;
    const what = METRIC_WORDS[mt.metricName] ?? mt.metricName;
    return `${what} ${op} ${t.threshold ?? '?'}${unit}`.replace(/\s+/g, ' ').trim();
  }
  const ev = c.eventTypeName ?? '?';
  const words = EVENT_WORDS[ev];
  // An event type's threshold: how long it lasts (HOST_DOWN > 5 min), or a level (oplog window < 24 h).
  const op = t ? ({ GREATER_THAN: '>', LESS_THAN: '<' }[String(t.operator)] ?? t.operator ?? '') : '';
  const level =
    t?.threshold !== undefined ? ` ${op} ${t.threshold} ${UNIT_WORDS[t.units ?? ''] ?? t.units ?? ''}` : '';
  return `${words ? `${words} (${ev})` : ev}${level}`.replace(/\s+/g, ' ').trim();
}
