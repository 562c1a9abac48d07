// Workflow tools: "what is wrong in this project, and what changed before it broke" in one call. The reads
// run concurrently; the answer is a short, ordered story with the ids every follow-up call needs.
import { z } from 'zod';
import { abortError } from '../src/api/abort.js';
import type { Alert, ApiEvent, AutomationStatus, MaintenanceWindow } from '../src/api/client.js';
import { ApiError } from '../src/api/errors.js';
import {
  alertContext,
  groupByCause,
  loadOpenAlerts,
  loadWindows,
  type OpenAlerts,
} from '../src/feeds/alerts.js';
import { type ChangeKind, changeKind, loadRecentEvents, type RecentEvents } from '../src/feeds/events.js';
import { age, plural, table, when } from '../src/format/markdown.js';
import { redact } from '../src/format/redact.js';
import {
  type AlertGroup,
  ackTool,
  alertCounts,
  alertHeadline,
  alertInGroup,
  alertWhere,
  fallbackNote,
  groupHeading,
  groupNotes,
  groupSummary,
  groupTable,
  windowName,
} from '../src/format/views/alerts.js';
import {
  atGoal,
  automationColumns,
  automationRow,
  behindWords,
  stuckWords,
} from '../src/format/views/automation.js';
import { changeSummary, eventWho } from '../src/format/views/events.js';
import { windowInForceList, windowState } from '../src/format/views/windows.js';
import { ids, page } from '../src/tool/ids.js';
import { defineTool, type FormatContext, type NameBook } from '../src/tool/index.js';
import { cell, named } from '../src/untrusted.js';

const SECTIONS = ['alerts', 'automation', 'events', 'maintenanceWindows'] as const;
type Section = (typeof SECTIONS)[number];

interface Triage {
  projectId: string;
  since: string;
  until: string;
  hours: number;
  alerts?: OpenAlerts;
  automation?: AutomationStatus;
  events?: RecentEvents;
  /** null: the server offers no list of maintenance windows. */
  windows?: MaintenanceWindow[] | null;
  errors: Array<{ section: Section; message: string }>;
  /** Why sections went unread because the request budget is spent: said once, above them. */
  budget?: string;
}

/** Rows of the concise text; the structured content always holds everything. */
const CONCISE = { alerts: 15, changes: 12 };

interface TimelineEntry {
  time: string;
  kind: 'change' | 'alert';
  summary: string;
  who?: string;
  changeKind?: ChangeKind;
  eventId?: string;
  eventTypeName?: string;
  cause?: string;
  alertIds?: string[];
  alertConfigIds?: string[];
  beforeWindow?: boolean;
}

function hostsOf(alerts: Alert[]): string {
  const hosts = [...new Set(alerts.map(alertWhere))];
  return hosts.length <= 2 ? hosts.join(', ') : `${hosts.slice(0, 2).join(', ')} +${hosts.length - 2} more`;
}

/** Changes and the first alert of each cause, oldest first: what changed, then what broke. */
function timeline(
  changes: ApiEvent[],
  groups: AlertGroup[],
  since: string,
  names: NameBook,
): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    ...changes.map((e) => ({
      time: e.created ?? '',
      kind: 'change' as const,
      changeKind: changeKind(e),
      eventTypeName: e.eventTypeName,
      summary: changeSummary(e),
      who: eventWho(e, names),
      eventId: e.id,
    })),
    ...groups.map((g) => ({
      time: g.oldest ?? '',
      kind: 'alert' as const,
      cause: g.cause,
      summary: `${g.cause} on ${hostsOf(g.alerts)} (${plural(g.alerts.length, 'alert')})`,
      alertIds: g.alerts.map((a) => a.id),
      alertConfigIds: g.alertConfigIds,
      beforeWindow: (Date.parse(g.oldest ?? '') || 0) < Date.parse(since),
    })),
  ];
  // At equal times a change comes first: it may explain the alert, never the other way round.
  return entries.sort(
    (a, b) => (Date.parse(a.time) || 0) - (Date.parse(b.time) || 0) || (a.kind === 'change' ? -1 : 1),
  );
}

/**
 * Which changes the concise text keeps when there are more than `max`: the oldest `head` (those before the
 * first alert, the likeliest causes, when there are that many; at least half) and the newest rest. The middle
 * run is left out and named, so a follow-up call can fetch exactly it.
 */
function trimMiddle<T extends { time: string }>(
  rows: T[],
  max: number,
  before: number,
): { keep: Set<T>; gap?: { first: T; last: T; count: number } } {
  if (rows.length <= max) return { keep: new Set(rows) };
  const head = Math.min(Math.max(before, Math.ceil(max / 2)), max - 2);
  const tail = max - head;
  const left = rows.slice(head, rows.length - tail);
  return {
    keep: new Set([...rows.slice(0, head), ...rows.slice(rows.length - tail)]),
    gap: { first: left[0]!, last: left.at(-1)!, count: left.length },
  };
}

function sectionError(t: Triage, s: Section): string | undefined {
  const e = t.errors.find((x) => x.section === s);
  return e ? `unavailable — ${cell(e.message, 200)}` : undefined;
}

function triageText(
  t: Triage,
  f: FormatContext,
  groups: AlertGroup[],
  changes: ApiEvent[],
  tl: TimelineEntry[],
) {
  const now = f.now;
  const automation = t.automation;
  const behind = automation
    ? redact(automation.processes ?? []).filter((p) => !atGoal(p, automation.goalVersion))
    : [];
  const active = (t.windows ?? []).filter((w) => windowState(w, now) === 'active');
  const upcoming = (t.windows ?? []).filter((w) => windowState(w, now) === 'upcoming');
  // A cause on a host whose process is behind the automation goal: the two are likely one problem.
  const behindOn = (g: AlertGroup) => {
    const hosts = new Set(g.alerts.map((a) => (a.hostnameAndPort ?? '').replace(/:\d+$/, '')));
    return behind
      .filter((p) => p.hostname && hosts.has(p.hostname))
      .map((p) => `⚙ ${cell(p.name)} on this host is behind the automation goal (above).`);
  };
  // With one window in force, its table below says which it is: the alerts it mutes just say "muted".
  const soleWindow = active.length === 1 ? active[0]!.id : undefined;

  const summary: Array<[string, string]> = [
    [
      'Alerts',
      sectionError(t, 'alerts') ??
        alertHeadline(t.alerts?.alerts ?? [], groups, now, t.alerts?.globalAlertIds),
    ],
    [
      'Automation',
      sectionError(t, 'automation') ??
        (automation
          ? `${behind.length} of ${plural(automation.processes?.length ?? 0, 'process', 'processes')} behind goal version ${automation.goalVersion}${behind.length ? `: ${behindWords(behind)}` : ''}`
          : '—'),
    ],
    ['Changes', sectionError(t, 'events') ?? `${changes.length} in the window`],
    [
      'Maintenance',
      sectionError(t, 'maintenanceWindows') ??
        (t.windows === null
          ? 'this server cannot list maintenance windows'
          : `${plural(active.length, 'window')} in force${upcoming.length ? `, ${upcoming.length} upcoming` : ''}`),
    ],
  ];
  const lines = [
    `# Triage of project ${f.names.project(t.projectId)} — last ${plural(t.hours, 'hour')}`,
    ...(t.budget ? [t.budget] : []),
    summary.map(([k, v]) => `**${k}**: ${v}`).join('\n'),
    f.fence.notice,
  ];

  if (tl.length) {
    // One story, oldest first: each change as a line, each cause as a heading over its alerts' table.
    const changeRows = tl.filter((e) => e.kind === 'change');
    const firstAlert = tl.find((e) => e.kind === 'alert' && !e.beforeWindow);
    const { keep, gap } = f.detailed
      ? { keep: new Set(changeRows), gap: undefined }
      : trimMiddle(
          changeRows,
          CONCISE.changes,
          firstAlert ? changeRows.filter((e) => e.time < firstAlert.time).length : 0,
        );
    const byCause = new Map(groups.map((g) => [g.cause, g]));
    let rowsLeft = f.detailed ? Number.MAX_SAFE_INTEGER : CONCISE.alerts;
    let hidden = 0;
    const causeBlock = (e: TimelineEntry, into: string[]) => {
      const g = byCause.get(e.cause ?? '');
      if (!g) return;
      // The heading's time is its first row's: the first host listed has the oldest alert.
      into.push(`#### ${groupHeading(g, now, soleWindow)}`, ...groupNotes(g, now), ...behindOn(g));
      const shown = Math.min(rowsLeft, g.alerts.length);
      if (shown > 0) into.push(groupTable(g, now, shown, f.names));
      rowsLeft -= shown;
      hidden += g.alerts.length - shown;
    };
    // Causes open from before the window are not "what broke" after its changes: they come first, apart.
    const older: string[] = [];
    for (const e of tl) if (e.kind === 'alert' && e.beforeWindow) causeBlock(e, older);
    const parts: string[] = [];
    for (const e of tl) {
      if (e.kind === 'change') {
        if (gap && e === gap.first) parts.push(`- … ${plural(gap.count, 'change')} left out here (below)`);
        if (!keep.has(e)) continue;
        const who = e.who ? ` by ${cell(e.who)}` : '';
        const what = e.summary ? `: ${cell(e.summary, 200)}` : '';
        parts.push(
          `- **${age(e.time, now)}** changed ${cell(e.eventTypeName)}${who}${what} (eventId ${e.eventId})`,
        );
        continue;
      }
      if (!e.beforeWindow) causeBlock(e, parts);
    }
    const sinceText = `${t.since.slice(0, 16).replace('T', ' ')} UTC`;
    if (older.length)
      lines.push(`### Open from before ${sinceText} (oldest first)`, f.fence.wrap(older.join('\n')));
    lines.push(
      parts.length
        ? `### What changed (since ${sinceText}), then what broke (oldest first)`
        : `### What changed since ${sinceText}: no change recorded, no new alert`,
    );
    if (parts.length) lines.push(f.fence.wrap(parts.join('\n')));
    if (gap)
      lines.push(
        `${plural(gap.count, 'change')} between ${gap.first.time} and ${gap.last.time} left out: list_project_events with minDate=${gap.first.time} and maxDate=${gap.last.time}, or responseFormat=detailed.`,
      );
    if (hidden) lines.push(`${hidden} more alerts: list_open_alerts.`);
    for (const note of [t.alerts && fallbackNote(t.alerts.source), t.alerts?.globalNote])
      if (note) lines.push(note);
  }

  // The summary names up to two processes with their plan; the table is for errors and for more than that.
  const failing = behind.filter((p) => p.errorCode || p.errorCodeDescription || p.errorString);
  if (automation && (failing.length || behind.length > 2)) {
    lines.push(`### Behind the automation goal (version ${automation.goalVersion})`);
    const rows = behind.map(automationRow);
    const pub = (t.events?.events ?? []).find((e) => e.eventTypeName === 'AUTOMATION_CONFIG_PUBLISHED_AUDIT');
    const published = pub ? { created: pub.created, who: eventWho(pub, f.names) } : undefined;
    const windows = active.map((w) => windowName(w, 34));
    // Why each failing one is stuck: its error (what the agent reports and the underlying error), the goal's
    // publish within the window, and a window in force.
    const detail = failing.map(
      (p) => `- ${stuckWords(p, { goalVersion: automation.goalVersion, published, windows, now })}`,
    );
    // The table is for more than the summary names; a failing process's line holds its plan and error.
    lines.push(
      f.fence.wrap([...(behind.length > 2 ? [table(automationColumns, rows)] : []), ...detail].join('\n')),
    );
  }

  if (active.length === 1) {
    // One window: a line says it all, its description code-quoted (platform text outside a fence).
    const w = active[0]!;
    lines.push(
      `### Maintenance window in force: ${named(w.description, `windowId ${w.id}`, 100)} until ${when(w.endDate, now)} mutes ${(w.alertTypeNames ?? []).join(', ')} on every host of the project (windows are project-wide, whatever the description names)`,
    );
  } else if (active.length) {
    lines.push(
      '### Maintenance windows in force: each mutes its alert types on every host of the project (project-wide), whatever its description names',
    );
    const rows = active.map((w) => windowInForceList.row(w, now, f.names));
    lines.push(f.fence.wrap(table(windowInForceList.columns, rows)));
  }

  const next = [
    changes.length && 'get_project_event with an eventId',
    groups.some((g) => !g.global) && 'get_alert_config with an alertConfigId',
    groups.some((g) => g.global) && 'list_open_global_alerts_for_config with a globalAlertConfigId',
    behind.length && 'get_automation_status for every process',
    !active.length && 'list_maintenance_windows or create_maintenance_window for planned work',
  ].filter(Boolean);
  lines.push(`Next: ${next.join('; ')}.`);
  // Kept on a line of its own: whether a tool asks the person first is the live policy's to say.
  if (groups.length) {
    const tools = ackTool(groups);
    const asks = tools.split(' or ').every(f.asksFirst);
    lines.push(
      `To acknowledge: ${tools} with an alertId${asks ? ' (the server asks the person first)' : ''}.`,
    );
  }
  return lines.join('\n');
}

export const triageProject = defineTool({
  name: 'triage_project',
  title: 'Triage a project',
  description:
    'One-call triage of a project: open alerts by cause, processes behind the automation goal, recent changes and who made them, windows in force. Use first for "what is wrong and why".',
  kind: 'read',
  input: {
    projectId: ids.project.optional(),
    sinceHours: z
      .number()
      .int()
      .min(1)
      .max(720)
      .optional()
      .describe('Hours back to look for changes, default 24'),
    responseFormat: page.responseFormat,
  },
  output: {
    projectId: z.string(),
    projectName: z.string().optional(),
    window: z.looseObject({ since: z.string(), until: z.string(), hours: z.number() }),
    alerts: z.looseObject({}).nullable(),
    automation: z.looseObject({}).nullable(),
    changes: z.array(z.looseObject({})).nullable(),
    maintenanceWindows: z.array(z.looseObject({})).nullable(),
    timeline: z.array(z.looseObject({})),
    errors: z.array(z.looseObject({ section: z.string(), message: z.string() })),
    /** What could not be checked and why (e.g. a server without global alert configurations). */
    notChecked: z.array(z.string()),
  },
  run: async (ctx, args): Promise<Triage> => {
    const projectId = args.projectId;
    const hours = args.sinceHours ?? 24;
    const now = ctx.now();
    const since = new Date(now.getTime() - hours * 3_600_000);
    const signal = ctx.signal;
    const api = ctx.api;
    let done = 0;
    const step = <T>(section: Section, p: Promise<T>) =>
      p.finally(() => void ctx.progress(++done, SECTIONS.length, `read ${section}`));
    const keys = api.budget?.limited ? Promise.resolve() : ctx.names.learnKeys({ projectId }, signal);
    const settled = await Promise.allSettled([
      step('alerts', loadOpenAlerts(api, projectId, { signal })),
      step('automation', api.automation.status(projectId, { signal })),
      step('events', loadRecentEvents(api, { projectId }, since, signal)),
      step('maintenanceWindows', loadWindows(api, projectId, signal)),
    ]);
    await (api.budget?.limited ? ctx.names.learnKeys({ projectId }, signal) : keys);
    if (signal.aborted) throw abortError(signal);
    const t: Triage = { projectId, since: since.toISOString(), until: now.toISOString(), hours, errors: [] };
    const failures: unknown[] = [];
    settled.forEach((s, i) => {
      const section = SECTIONS[i]!;
      if (s.status === 'rejected') {
        failures.push(s.reason);
        const spent = s.reason instanceof ApiError && s.reason.errorCode === 'RATE_BUDGET_SPENT';
        if (spent) t.budget ??= s.reason.message;
        const message = spent
          ? 'not read: the request budget is spent (above)'
          : s.reason instanceof ApiError
            ? s.reason.message
            : String(s.reason);
        t.errors.push({ section, message });
        ctx.logger.debug('triage section failed', { section, error: message });
      } else if (section === 'alerts') t.alerts = s.value as OpenAlerts;
      else if (section === 'automation') t.automation = s.value as AutomationStatus;
      else if (section === 'events') t.events = s.value as RecentEvents;
      else t.windows = s.value as MaintenanceWindow[] | null;
    });
    // Nothing could be read (an unknown project, a wrong key): that is the answer, not a triage.
    if (failures.length === SECTIONS.length) throw failures[0];
    return t;
  },
  format: (t, _args, f) => {
    const groups = t.alerts
      ? groupByCause(t.alerts.alerts, t.alerts.configs, f.now, {
          ...alertContext(t.alerts),
          windows: t.windows,
          events: t.events?.events,
        })
      : [];
    const changes = (t.events?.events ?? []).filter((e) => changeKind(e) !== undefined);
    const tl = timeline(changes, groups, t.since, f.names);
    const automation = t.automation;
    return {
      text: triageText(t, f, groups, changes, tl),
      structured: {
        projectId: t.projectId,
        projectName: f.names.projectName?.(t.projectId),
        window: { since: t.since, until: t.until, hours: t.hours },
        alerts: t.alerts
          ? {
              source: t.alerts.source,
              truncated: t.alerts.truncated,
              ...alertCounts(t.alerts.alerts, f.now),
              groups: groups.map((g) => ({ ...groupSummary(g), alerts: redact(g.alerts.map(alertInGroup)) })),
            }
          : null,
        automation: automation
          ? {
              goalVersion: automation.goalVersion,
              processCount: automation.processes?.length ?? 0,
              behind: redact((automation.processes ?? []).filter((p) => !atGoal(p, automation.goalVersion))),
            }
          : null,
        changes: t.events
          ? redact(changes.map((e) => ({ ...e, changeKind: changeKind(e) })).reverse())
          : null,
        maintenanceWindows: t.windows
          ? redact(t.windows.filter((w) => windowState(w, f.now) !== 'ended'))
          : null,
        timeline: redact(tl),
        errors: t.errors,
        notChecked: t.alerts?.globalNote ? [t.alerts.globalNote] : [],
      },
    };
  },
});

export const triageTools = [triageProject];
