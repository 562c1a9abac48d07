// The open-alert feeds drawn for people and models (resources dbops://projects/{id}/alerts and
// dbops://global-alert-configs/{id}/alerts): a headline, the alerts by cause or in a table, and what was left out.
import type { Alert } from '../../api/types.js';
import { alertContext, groupByCause, type OpenAlerts } from '../../model/index.js';
import { ackInForce } from '../../rules/index.js';
import type { FormatContext } from '../answers.js';
import { plural, table } from '../markdown.js';
import { alertColumns, alertRow, groupsMarkdown } from './alerts.js';

export function projectAlertsDigest(
  d: OpenAlerts,
  projectId: string,
  rows: number,
  f: FormatContext,
): string {
  const groups = groupByCause(d.alerts, d.configs, f.now, alertContext(d));
  const acked = d.alerts.filter((a) => ackInForce(a, f.now)).length;
  const lines = [
    `# Open alerts of project ${f.names.project(projectId)} — ${d.alerts.length}${acked ? `, ${acked} acknowledged` : ''}${groups.length ? `, in ${plural(groups.length, 'cause')}` : ''}`,
  ];
  if (!d.alerts.length) lines.push('No open or tracking alerts.');
  else {
    const { body, hidden } = groupsMarkdown(groups, f.now, rows, f.names);
    lines.push(f.fence.notice, f.fence.wrap(body));
    if (hidden) lines.push(`${hidden} more alerts in ?format=json or the list_open_alerts tool.`);
  }
  if (d.globalNote) lines.push(d.globalNote);
  return lines.join('\n');
}

export function globalConfigAlertsDigest(
  alerts: Alert[],
  globalAlertConfigId: string,
  rows: number,
  f: FormatContext,
): string {
  const lines = [`# Open alerts of global alert configuration ${globalAlertConfigId} — ${alerts.length}`];
  if (!alerts.length) lines.push('No open alerts.');
  else {
    const shown = alerts.slice(0, rows).map((a) => alertRow(a, f.now, f.names));
    lines.push(f.fence.notice, f.fence.wrap(table(alertColumns, shown)));
    if (alerts.length > rows) lines.push(`${alerts.length - rows} more in ?format=json.`);
    const acked = alerts.filter((a) => ackInForce(a, f.now)).length;
    if (acked) lines.push(`${acked} acknowledged.`);
  }
  return lines.join('\n');
}
