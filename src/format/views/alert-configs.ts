// How an alert configuration looks to a person: its condition, notification targets and matchers.
import type { AlertConfig, GlobalAlertConfig } from '../../api/types.js';
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
