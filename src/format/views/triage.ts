// The project triage as a person reads it: a summary line per section (a silent monitoring agent first: the
// alerts below may be incomplete), then one story oldest first (what changed, then what broke: each cause a
// heading over its alerts), the processes behind the automation goal, the windows in force, and where to go
// next. The feed (src/feeds/triage.ts) reads; this draws.
import type { Alert, ApiEvent, AutomationStatus, MaintenanceWindow } from '../../api/types.js';
import type { AgentReport, OpenAlerts } from '../../model/index.js';
import { type AlertGroup, alertWhere } from '../../model/index.js';
import {
  atGoal,
  byUrgency,
  type CauseFacts,
  type ChangeKind,
  changeKind,
  failing,
  windowState,
} from '../../rules/index.js';
import { cell, named } from '../../untrusted.js';
import type { FormatContext, NameBook, ToolAnswer } from '../answers.js';
import { age, plural, table, when } from '../markdown.js';
import { redact } from '../redact.js';
import {
  ackTool,
  alertCounts,
  alertHeadline,
  alertInGroup,
  fallbackNote,
  groupHeading,
  groupNotes,
  groupSummary,
  groupTable,
} from './alerts.js';
import { automationColumns, automationRow, behindWords, stuckWords } from './deployment.js';
import { changeSummary, eventWho } from './events.js';
import { agentsSummary, silentAgents } from './triage-agents.js';
import { hostsNamer } from './triage-projects.js';
import { windowInForceList } from './windows.js';

export const TRIAGE_SECTIONS = ['alerts', 'automation', 'events', 'maintenanceWindows', 'agents'] as const;

export type TriageSection = (typeof TRIAGE_SECTIONS)[number];

/** What the project triage read: each section, or why it could not be read. */
export interface Triage {
  projectId: string;
  since: string;
  until: string;
  hours: number;
  alerts?: OpenAlerts;
  automation?: AutomationStatus;
  /** The goal's publish (the newest), read when a process is behind it. */
  publish?: ApiEvent;
  /** The agents reconciled with the open agent-down alerts. */
  agents?: AgentReport;
  /** The window's events, newest first. */
  events?: { events: ApiEvent[] };
  /** null: the server offers no list of maintenance windows. */
  windows?: MaintenanceWindow[] | null;
  errors: Array<{ section: TriageSection; message: string }>;
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
export function timeline(
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

function sectionError(t: Triage, s: TriageSection): string | undefined {
  const e = t.errors.find((x) => x.section === s);
  return e ? `unavailable — ${cell(e.message, 200)}` : undefined;
}

type Process = NonNullable<AutomationStatus['processes']>[number];

/** What the ranking rule reads of a cause. */
const causeFacts = (g: AlertGroup): CauseFacts => ({
  open: g.acknowledged < g.alerts.length,
  muted: g.window?.state === 'active',
  eventTypeName: g.eventTypeName,
  newest: Math.max(0, ...g.alerts.map((a) => Date.parse(a.created ?? '') || 0)),
});

/** What every part of the triage text draws from. */
interface Drawing {
  t: Triage;
  f: FormatContext;
  groups: AlertGroup[];
  changes: ApiEvent[];
  tl: TimelineEntry[];
  /** Processes behind the automation goal. */
  behind: Process[];
  active: MaintenanceWindow[];
  upcoming: MaintenanceWindow[];
  /** The goal's publish: when, and by whom. */
  published?: { created?: string; who?: string };
  /** Hosts without the shared domain (`domain`, said once in the heading). */
  hosts: { domain?: string; short: (h: string) => string };
}

/** The heading and one line per section: alerts, automation, changes, maintenance. */
function summaryLines(d: Drawing): string[] {
  const { t, f, groups, changes, behind, active, upcoming, published } = d;
  const now = f.now;
  const automation = t.automation;
  // Since when the processes are behind, and who published the goal: one goal, so one publish for them all.
  const pub = published?.created
    ? `, published ${age(published.created, now)}${published.who ? ` by \`${cell(published.who, 80).replace(/`/g, "'")}\`` : ''}`
    : '';
  const agents = t.agents && agentsSummary(t.agents, now);
  const agentsLine: [string, string] = ['Agents', sectionError(t, 'agents') ?? agents?.text ?? '—'];
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
          ? `${behind.length} of ${plural(automation.processes?.length ?? 0, 'process', 'processes')} behind goal version ${automation.goalVersion}${behind.length ? `${pub}: ${behindWords(behind)}` : ''}`
          : '—'),
    ],
    ...(agents?.leads ? [] : [agentsLine]),
    ['Changes', sectionError(t, 'events') ?? `${changes.length} in the window`],
    [
      'Maintenance',
      sectionError(t, 'maintenanceWindows') ??
        (t.windows === null
          ? 'this server cannot list maintenance windows'
          : `${plural(active.length, 'window')} in force${upcoming.length ? `, ${upcoming.length} upcoming` : ''}`),
    ],
  ];
  // A silent monitoring agent leads: the alerts that follow may not be all there are.
  if (agents?.leads) summary.unshift(agentsLine);
  return [
    `# Triage of project ${f.names.project(t.projectId)} — last ${plural(t.hours, 'hour')}${d.hosts.domain ? ` · hosts *.${cell(d.hosts.domain, 60)}` : ''}`,
    ...(t.budget ? [t.budget] : []),
    summary.map(([k, v]) => `**${k}**: ${v}`).join('\n'),
    f.fence.notice,
  ];
}

/** Draws the causes of the story, each a heading over its alerts' table, within a budget of alert rows. */
class CauseBlocks {
  private readonly byCause: Map<string, AlertGroup>;
  private rowsLeft: number;
  /** Alert rows left out for the budget. */
  hidden = 0;

  constructor(private readonly d: Drawing) {
    this.byCause = new Map(d.groups.map((g) => [g.cause, g]));
    this.rowsLeft = d.f.detailed ? Number.MAX_SAFE_INTEGER : CONCISE.alerts;
  }

  /** Processes already said to be behind on a cause's host: said once, on the first cause there. */
  private readonly told = new Set<string>();

  // A cause on a host whose process is behind the automation goal: the two are likely one problem.
  private behindOn(g: AlertGroup): string[] {
    const hosts = new Set(g.alerts.map((a) => (a.hostnameAndPort ?? '').replace(/:\d+$/, '')));
    return this.d.behind
      .filter((p) => p.hostname && hosts.has(p.hostname) && !this.told.has(p.name ?? ''))
      .map((p) => {
        this.told.add(p.name ?? '');
        return p;
      })
      .map((p) => `⚙ ${cell(p.name)} here is behind the automation goal (below).`);
  }

  draw(e: TimelineEntry, into: string[]): void {
    const g = this.byCause.get(e.cause ?? '');
    if (!g) return;
    const { f, active } = this.d;
    // With one window in force, its table below says which it is: the alerts it mutes just say "muted".
    const soleWindow = active.length === 1 ? active[0]!.id : undefined;
    // The heading's time is its first row's: the first host listed has the oldest alert.
    into.push(`#### ${groupHeading(g, f.now, soleWindow)}`, ...groupNotes(g, f.now), ...this.behindOn(g));
    const shown = Math.min(this.rowsLeft, g.alerts.length);
    const where = (a: Alert) => this.d.hosts.short(alertWhere(a));
    if (shown > 0) into.push(groupTable(g, f.now, shown, f.names, where, false));
    this.rowsLeft -= shown;
    this.hidden += g.alerts.length - shown;
  }
}

/** A change of the story as a line: when, what, by whom, its eventId. */
function changeLine(e: TimelineEntry, now: Date): string {
  const who = e.who ? ` by ${cell(e.who)}` : '';
  const what = e.summary ? `: ${cell(e.summary, 200)}` : '';
  return `- **${age(e.time, now)}** ${cell(e.eventTypeName)}${who}${what} (eventId ${e.eventId})`;
}

/** One story, oldest first: each change as a line, each cause as a heading over its alerts' table. */
function storyLines(d: Drawing): string[] {
  const { t, f, tl } = d;
  const lines: string[] = [];
  const changeRows = tl.filter((e) => e.kind === 'change');
  const firstAlert = tl.find((e) => e.kind === 'alert' && !e.beforeWindow);
  const { keep, gap } = f.detailed
    ? { keep: new Set(changeRows), gap: undefined }
    : trimMiddle(
        changeRows,
        CONCISE.changes,
        firstAlert ? changeRows.filter((e) => e.time < firstAlert.time).length : 0,
      );
  const causes = new CauseBlocks(d);
  // Causes open from before the window are not "what broke" after its changes: they come first, apart.
  const older: string[] = [];
  for (const e of tl) if (e.kind === 'alert' && e.beforeWindow) causes.draw(e, older);
  const parts: string[] = [];
  for (const e of tl) {
    if (e.kind === 'change') {
      if (gap && e === gap.first) parts.push(`- … ${plural(gap.count, 'change')} left out here (below)`);
      if (keep.has(e)) parts.push(changeLine(e, f.now));
    } else if (!e.beforeWindow) causes.draw(e, parts);
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
  if (causes.hidden) lines.push(`${causes.hidden} more alerts: list_open_alerts.`);
  for (const note of [t.alerts && fallbackNote(t.alerts.source), t.alerts?.globalNote])
    if (note) lines.push(note);
  return lines;
}

/** The processes behind the goal: a table past the two the summary names, and why each failing one is stuck. */
function automationLines(d: Drawing): string[] {
  const { t, f, behind, active } = d;
  const automation = t.automation;
  // The summary names up to two processes with their plan; the table is for errors and for more than that.
  const failingOnes = behind.filter(failing);
  if (!automation || !(failingOnes.length || behind.length > 2)) return [];
  const rows = behind.map(automationRow);
  // The windows in force are drawn in full just below: here they are pointed to.
  const windows = active.length ? ['below'] : [];
  // Why each failing one is stuck: its error (what the agent reports and the underlying error) and a window in
  // force; the goal's publish is on the summary line, and so is the plan of the two it names.
  const said = behind.length <= 2;
  const detail = failingOnes.map(
    (p) =>
      `- ${stuckWords(p, { goalVersion: automation.goalVersion, windows, now: f.now, planSaid: said, short: d.hosts.short })}`,
  );
  // The table is for more than the summary names; a failing process's line holds its plan and error.
  return [
    `### Behind the automation goal (version ${automation.goalVersion})`,
    f.fence.wrap([...(behind.length > 2 ? [table(automationColumns, rows)] : []), ...detail].join('\n')),
  ];
}

/** The windows in force: one in a line, more in a table. */
function windowLines(d: Drawing): string[] {
  const { f, active } = d;
  const now = f.now;
  if (active.length === 1) {
    // One window: a line says it all, its description code-quoted (platform text outside a fence).
    const w = active[0]!;
    return [
      `### The window in force, muting the causes marked muted: ${named(w.description, `windowId ${w.id}`, 100)} until ${when(w.endDate, now)} mutes ${(w.alertTypeNames ?? []).join(', ')} on every host of the project (windows are project-wide, whatever the description names)`,
    ];
  }
  if (!active.length) return [];
  const rows = active.map((w) => windowInForceList.row(w, now, f.names));
  return [
    '### Maintenance windows in force: each mutes its alert types on every host of the project (project-wide), whatever its description names',
    f.fence.wrap(table(windowInForceList.columns, rows)),
  ];
}

/** Where to go next, and how to acknowledge. */
function nextLines(d: Drawing): string[] {
  const { f, groups, changes, behind, active } = d;
  const next = [
    changes.length && 'get_project_event (eventId)',
    groups.some((g) => !g.global) && 'get_alert_config (alertConfigId)',
    groups.some((g) => g.global) && 'list_open_global_alerts_for_config (globalAlertConfigId)',
    behind.length && 'get_automation_status (every process)',
    !active.length && 'list_maintenance_windows or create_maintenance_window for planned work',
  ].filter(Boolean);
  const lines = [`Next: ${next.join('; ')}.`];
  // Kept on a line of its own: whether a tool asks the person first is the live policy's to say.
  if (groups.length) {
    const tools = ackTool(groups);
    const asks = tools.split(' or ').every(f.asksFirst);
    lines.push(
      `To acknowledge: ${tools} with an alertId${asks ? ' (the server asks the person first)' : ''}.`,
    );
  }
  return lines;
}

function triageText(d: Drawing): string {
  return [
    ...summaryLines(d),
    ...(d.tl.length ? storyLines(d) : []),
    ...automationLines(d),
    ...windowLines(d),
    ...nextLines(d),
  ].join('\n');
}

/** The triage of a project, its causes grouped (src/model/causes.ts) by the tool. */
export function triageAnswer(t: Triage, groups: AlertGroup[], f: FormatContext): ToolAnswer {
  const changes = (t.events?.events ?? []).filter((e) => changeKind(e) !== undefined);
  const tl = timeline(changes, groups, t.since, f.names);
  const automation = t.automation;
  const windows = t.windows ?? [];
  const behind = automation
    ? redact(automation.processes ?? []).filter((p) => !atGoal(p, automation.goalVersion))
    : [];
  const active = windows.filter((w) => windowState(w, f.now) === 'active');
  const upcoming = windows.filter((w) => windowState(w, f.now) === 'upcoming');
  const pub =
    t.publish ??
    (t.events?.events ?? []).find((e) => e.eventTypeName === 'AUTOMATION_CONFIG_PUBLISHED_AUDIT');
  const published = pub ? { created: pub.created, who: eventWho(pub, f.names) } : undefined;
  const hosts = hostsNamer([
    ...groups.flatMap((g) => g.alerts.map(alertWhere)),
    ...behind.map((p) => p.hostname ?? ''),
  ]);
  return {
    text: triageText({
      ...{ t, f, groups, changes, tl, behind, active, upcoming, published },
      hosts,
    }),
    structured: {
      projectId: t.projectId,
      projectName: f.names.projectName?.(t.projectId),
      window: { since: t.since, until: t.until, hours: t.hours },
      alerts: t.alerts
        ? {
            source: t.alerts.source,
            truncated: t.alerts.truncated,
            ...alertCounts(t.alerts.alerts, f.now),
            // Most urgent first: a bounded copy keeps a list's first items (the text tells them in time order).
            groups: [...groups]
              .sort((a, b) => byUrgency(causeFacts(a), causeFacts(b)))
              .map((g) => ({ ...groupSummary(g), alerts: redact(g.alerts.map(alertInGroup)) })),
          }
        : null,
      automation: automation
        ? {
            goalVersion: automation.goalVersion,
            processCount: automation.processes?.length ?? 0,
            behind: redact((automation.processes ?? []).filter((p) => !atGoal(p, automation.goalVersion))),
            ...(published ? { published: redact(published) } : {}),
          }
        : null,
      agents: t.agents ? { silent: redact(silentAgents(t.agents)) } : null,
      changes: t.events ? redact(changes.map((e) => ({ ...e, changeKind: changeKind(e) })).reverse()) : null,
      maintenanceWindows: t.windows
        ? redact(t.windows.filter((w) => windowState(w, f.now) !== 'ended'))
        : null,
      timeline: redact(tl),
      errors: t.errors,
      notChecked: t.alerts?.globalNote ? [t.alerts.globalNote] : [],
    },
  };
}
