// Open alerts and alert configurations across every project (`projectId: "all"`): the row of each, drawn
// beside its project by acrossAnswer (projects-all.ts).
import type { Alert, AlertConfig, PageQuery } from '../../api/types.js';
import { alertWhat, alertWhere, condition } from '../../model/index.js';
import type { FormatContext, NameBook, ToolAnswer } from '../answers.js';
import { age } from '../markdown.js';
import { ackState, notifySummary } from './alerts.js';
import { type Across, acrossAnswer } from './projects-all.js';

/** An open alert as the installation's list sees it: its cause, whether it pages, what mutes it. */
export interface AlertAcross {
  alert: Alert;
  cause: string;
  pages: string[];
  mutedBy?: string;
  acknowledged: boolean;
  pagingNow: boolean;
}

const alertRow = (r: AlertAcross, now: Date, names: NameBook) => [
  r.alert.id,
  `${alertWhat(r.alert)}${r.alert.status === 'TRACKING' ? ' (tracking)' : ''}`,
  alertWhere(r.alert),
  age(r.alert.created, now),
  ackState(r.alert, now, names),
  r.pagingNow ? `yes (${r.pages.join(', ')})` : r.pages.length ? `no (would: ${r.pages.join(', ')})` : 'no',
  r.mutedBy ?? '—',
];

interface AlertFilterWords {
  acknowledged?: boolean;
  paging?: boolean;
  status?: string;
  sort?: 'urgency' | 'age';
}

const words = (o: AlertFilterWords) =>
  [
    o.status?.toLowerCase(),
    o.acknowledged === undefined ? undefined : o.acknowledged ? 'acknowledged' : 'unacknowledged',
    o.paging === undefined ? undefined : o.paging ? 'paging now' : 'not paging',
  ]
    .filter(Boolean)
    .join(', ');

export function openAlertsAcross(
  a: Across<AlertAcross>,
  q: Required<PageQuery>,
  o: AlertFilterWords,
  f: FormatContext,
): ToolAnswer {
  const answer = acrossAnswer(
    a,
    q,
    {
      title: 'Open alerts',
      columns: ['alertId', 'what', 'where', 'since', 'acknowledged', 'pages', 'muted by'],
      row: alertRow,
      order: o.sort === 'age' ? 'oldest first' : 'most urgent first (data availability, paging, oldest)',
      filters: words(o),
      narrow: 'acknowledged=false, paging=true, status, or one projectId',
      next: 'acknowledge_alert with its projectId and alertId; triage_project for its project',
      empty: 'No open alerts match.',
    },
    f,
  );
  const rows = a.rows.map((r) => r.item);
  // The one-project answer's fields too: a client reads the same shape whatever the scope.
  answer.structured = {
    projectId: 'all',
    source: 'project',
    trackingCount: rows.filter((r) => r.alert.status === 'TRACKING').length,
    acknowledgedCount: rows.filter((r) => r.acknowledged).length,
    truncated: a.missing.length > 0,
    groups: [],
    alerts: answer.structured.results,
    ...answer.structured,
  };
  return answer;
}

/** A configuration across projects; disabled ones say who disabled them and when, where the events tell. */
export interface ConfigAcross extends AlertConfig {
  disabledBy?: string;
  disabledAt?: string;
}

export function configsAcross(
  a: Across<ConfigAcross>,
  q: Required<PageQuery>,
  enabled: boolean | undefined,
  f: FormatContext,
): ToolAnswer {
  const off = enabled === false;
  return acrossAnswer(
    a,
    q,
    {
      title: 'Alert configurations',
      // Who disabled each is read for the disabled ones (enabled=false).
      columns: [
        'alertConfigId',
        'event type',
        'enabled',
        'condition',
        'notifies',
        ...(off ? ['disabled by'] : []),
      ],
      row: (c, now, names) => [
        c.id,
        c.eventTypeName,
        c.enabled ? 'yes' : 'no',
        condition(c),
        notifySummary(c),
        ...(off ? [c.disabledBy ? `${names.key(c.disabledBy)}, ${age(c.disabledAt, now)}` : '?'] : []),
      ],
      order: enabled === false ? 'latest disabled first' : 'by project',
      filters: enabled === undefined ? undefined : enabled ? 'enabled' : 'disabled',
      narrow: 'enabled=false (with who disabled each), or one projectId',
      next: 'get_alert_config with its projectId and alertConfigId; set_alert_config_enabled to turn one on',
      empty: 'No alert configurations match.',
    },
    f,
  );
}
