// How an alert configuration looks to a person: its condition, notification targets and matchers.
import type { AlertConfig, GlobalAlertConfig } from '../../api/types.js';
import { isPaging, PAGING_NOTIFICATION_TYPES } from '../../vocabulary/index.js';
import type { ListView } from '../answers.js';

/** "ASSERT_REGULAR > 10 RAW (AVERAGE)" — the condition a person reads. */
export function condition(c: AlertConfig): string {
  const t = c.metricThreshold ?? c.threshold;
  if (!t) return '—';
  const op = { GREATER_THAN: '>', LESS_THAN: '<' }[String(t.operator)] ?? t.operator ?? '';
  const metric = c.metricThreshold?.metricName ?? '';
  const mode = c.metricThreshold?.mode ? ` (${c.metricThreshold.mode})` : '';
  return `${metric} ${op} ${t.threshold ?? ''} ${t.units ?? ''}${mode}`.replace(/\s+/g, ' ').trim();
}

/** What a person calls a configuration: its condition, or its event type when it has no threshold. */
export const configName = (c: AlertConfig) => {
  const cond = condition(c);
  return cond === '—' ? c.eventTypeName : cond;
};

export const notifySummary = (c: AlertConfig) =>
  (c.notifications ?? [])
    .map((n) => `${n.typeName ?? '?'}${n.delayMin ? ` +${n.delayMin}m` : ''}`)
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

/** The paging services a configuration notifies ("PagerDuty, SMS"); empty when it pages nobody. */
export const pagesVia = (c: Pick<AlertConfig, 'notifications'>): string[] => [
  ...new Set(
    (c.notifications ?? []).flatMap((n) =>
      isPaging(n.typeName) ? [PAGING_NOTIFICATION_TYPES[n.typeName as string] as string] : [],
    ),
  ),
];
