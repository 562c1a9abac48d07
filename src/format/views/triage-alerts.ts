// The triage toolset's alert answers: a project's open alerts by cause, one alert configuration in full (with
// its notification targets and when it last changed, agreeing with its change events), and an acknowledgement.
import type { Alert, AlertConfig, ApiEvent } from '../../api/types.js';
import type { AlertFate, OpenAlerts } from '../../model/index.js';
import { type AlertGroup, alertWhat, alertWhere, condition } from '../../model/index.js';
import { cell, named } from '../../untrusted.js';
import { type FormatContext, recordAnswer, type ToolAnswer } from '../answers.js';
import { when } from '../markdown.js';
import { redact } from '../redact.js';
import {
  ackTool,
  alertCounts,
  alertHeadline,
  closedNote,
  configName,
  fallbackNote,
  groupSummary,
  groupsMarkdown,
  matcherSummary,
} from './alerts.js';
import { keyFlagLine, pageLabel } from './alerts-fate.js';
import { eventWho, whatChanged } from './events.js';

/** The open alerts of a project by cause; `rows` is how many alert rows the concise text draws. */
export function openAlertsAnswer(
  r: OpenAlerts & { projectId: string },
  groups: AlertGroup[],
  f: FormatContext,
  rows: number,
): ToolAnswer {
  const lines = [
    `# Open alerts of project ${f.names.project(r.projectId)} — ${alertHeadline(r.alerts, groups, f.now, r.globalAlertIds)}`,
  ];
  for (const note of [fallbackNote(r.source), r.globalNote]) if (note) lines.push(note);
  if (!r.alerts.length)
    lines.push('Nothing is alerting. triage_project shows recent changes and deployments.');
  else {
    const { body, hidden } = groupsMarkdown(
      groups,
      f.now,
      f.detailed ? Number.MAX_SAFE_INTEGER : rows,
      f.names,
    );
    lines.push(f.fence.notice, f.fence.wrap(body));
    if (f.detailed) lines.push(f.fence.wrap(detailedLines(r, groups).join('\n')));
    if (hidden)
      lines.push(
        `${hidden} more alerts not shown: list_open_alerts_for_config per configuration, or responseFormat=detailed.`,
      );
    lines.push(
      `Next: ${ackTool(groups)} with an alertId while someone works on it; get_alert_config with an alertConfigId; triage_project for what changed before.`,
    );
  }
  if (r.truncated) lines.push('Some lists were longer than could be read; counts are lower bounds.');
  return {
    text: lines.join('\n'),
    structured: {
      projectId: r.projectId,
      source: r.source,
      ...alertCounts(r.alerts, f.now),
      truncated: r.truncated,
      groups: groups.map(groupSummary),
      alerts: redact(r.alerts),
    },
  };
}

/**
 * What concise leaves out, for responseFormat=detailed: each cause's notification targets (keys masked) and
 * each alert's raw timestamps.
 */
function detailedLines(r: OpenAlerts, groups: AlertGroup[]): string[] {
  const configs = new Map([...r.configs, ...(r.globalConfigs as AlertConfig[])].map((c) => [c.id, c]));
  const out = ['Detailed: notification targets per cause, raw timestamps per alert.'];
  for (const g of groups) {
    const targets = g.alertConfigIds.flatMap((id) => {
      const c = configs.get(id);
      return c ? notifyTargets(redact(c)) : [];
    });
    out.push(`- ${cell(g.cause, 120)}: notifies ${targets.join('; ') || '(not listed)'}`);
    for (const a of g.alerts)
      out.push(
        `  - alertId ${a.id}: created ${cell(a.created ?? '—', 40)}, updated ${cell(a.updated ?? '—', 40)}, lastNotified ${cell(a.lastNotified ?? '—', 40)}, acknowledgedUntil ${cell(a.acknowledgedUntil ?? '—', 40)}`,
      );
  }
  return out;
}

const TIMING = new Set(['typeName', 'delayMin', 'intervalMin', 'links']);

/** Each notification with its target and timing: "EMAIL to oncall@example.com after 5 min, every 60 min". */
const notifyTargets = (c: AlertConfig) =>
  (c.notifications ?? []).map((n) => {
    const r = n as Record<string, unknown>;
    // Targets as sent (the record is redacted first: keys show their last 4 characters only).
    const to = Object.entries(r)
      .filter(([k, v]) => !TIMING.has(k) && v !== undefined && v !== null && v !== '')
      .flatMap(([k, v]) => {
        // Lists of plain values (the roles a GROUP or ORG notification pages) are who gets paged.
        if (Array.isArray(v))
          return v.length > 0 && v.every((x) => typeof x !== 'object') ? [`${k} ${v.join(', ')}`] : [];
        if (typeof v === 'object') return [];
        return [/address|username|name$/i.test(k) ? String(v) : `${k} ${String(v)}`];
      })
      .join(', ');
    const after = n.delayMin ? ` after ${n.delayMin} min` : '';
    const every = r.intervalMin ? `, every ${r.intervalMin} min` : '';
    return `${n.typeName ?? '?'}${to ? ` to ${to}` : ''}${after}${every}`;
  });

/** One alert configuration in full; `changes` are its change events, newest first (undefined: not readable). */
export function alertConfigAnswer(
  c: AlertConfig,
  changes: ApiEvent[] | undefined,
  alertConfigId: string,
  f: FormatContext,
  fate?: AlertFate,
): ToolAnswer {
  const last = changes?.[0];
  return recordAnswer(
    `Alert configuration ${named(configName(c), alertConfigId)}`,
    c,
    (s) => [
      ['Event type', s.eventTypeName],
      ['Enabled', s.enabled === undefined ? undefined : s.enabled ? 'yes' : 'no'],
      ['Condition', condition(s)],
      ['Matchers', matcherSummary(s)],
      ['Notifications', notifyTargets(s).join('; ')],
      [
        'Pages',
        fate && (fate.pages.length ? fate.pages.map(pageLabel).join(', ') : 'nobody by pager or SMS'),
      ],
      ['Key', fate?.keyFlags.map((k) => keyFlagLine(k, f.now).replace(/^⚠ i/, '⚠ I')).join(' ')],
      ['Updated', updatedLine(s.updated, last, f)],
    ],
    f,
    `list_open_alerts_for_config with alertConfigId=${alertConfigId}; set_alert_config_enabled to switch it; list_project_events with target=${alertConfigId} for every change`,
  );
}

/**
 * When it last changed, never contradicting its own change events: the later of the platform's `updated` and
 * the newest change event, with who made that change.
 */
function updatedLine(updated: string | undefined, last: ApiEvent | undefined, f: FormatContext) {
  const u = Date.parse(updated ?? '') || 0;
  const e = Date.parse(last?.created ?? '') || 0;
  if (!last || u > e) return updated && when(updated, f.now);
  const who = eventWho(last, f.names);
  const change = whatChanged(last);
  return `${when(last.created, f.now)}${who ? ` by ${who}` : ''} (${last.eventTypeName}${change ? `: ${change}` : ''}, eventId ${last.id})`;
}

/** An alert after acknowledge_alert: acknowledged until when, by whom, or not acknowledged. */
export function ackAnswer(a: Alert, alertId: string, f: FormatContext): ToolAnswer {
  const answer = recordAnswer(
    a.acknowledgedUntil ? `Alert ${alertId} acknowledged` : `Alert ${alertId} is not acknowledged`,
    a,
    (s) => [
      ['Status', s.status],
      ['What', alertWhat(s)],
      ['Where', alertWhere(s)],
      ['Acknowledged until', when(s.acknowledgedUntil, f.now)],
      ['By', s.acknowledgingUsername],
      ['Comment', s.acknowledgementComment],
    ],
    f,
  );
  const closed = a.acknowledgedUntil ? closedNote(a, alertId) : undefined;
  if (closed) answer.text += `\n${closed}`;
  return answer;
}
