// The triage toolset: what is wrong and why, in one call, and what triage points to (the configuration, the
// automation, the agents, acknowledging an alert).
import { z } from 'zod';
import { abortError } from '../src/api/abort.js';
import { ifSupported } from '../src/api/capabilities.js';
import type { Alert, AlertConfig, ApiEvent, AutomationStatus, MaintenanceWindow } from '../src/api/client.js';
import { ApiError } from '../src/api/errors.js';
import { fetchAll } from '../src/api/paging.js';
import { type AgentCheck, type AgentReport, agentTypeOfAlert, reconcileAgents } from '../src/feeds/agents.js';
import {
  alertContext,
  groupByCause,
  loadOpenAlerts,
  loadWindows,
  OPEN_STATUSES,
  type OpenAlerts,
} from '../src/feeds/alerts.js';
import {
  type ChangeKind,
  changeKind,
  loadRecentEvents,
  newestFirst,
  type RecentEvents,
} from '../src/feeds/events.js';
import {
  byTier,
  type CauseView,
  changesOf,
  type ProjectView,
  readInstallation,
  TIERS,
  viewProject,
} from '../src/feeds/installation.js';
import { type FormatContext, recordAnswer } from '../src/format/answers.js';
import { age, plural, table, when } from '../src/format/markdown.js';
import { redact } from '../src/format/redact.js';
import {
  type AlertGroup,
  ackPreview,
  ackTool,
  alertCounts,
  alertHeadline,
  alertInGroup,
  alertWhat,
  alertWhere,
  closedNote,
  condition,
  configName,
  fallbackNote,
  groupHeading,
  groupNotes,
  groupSummary,
  groupsMarkdown,
  groupTable,
  matcherSummary,
  mutedUntil,
  windowName,
} from '../src/format/views/alerts.js';
import {
  AGENT_LEGEND,
  atGoal,
  automationColumns,
  automationHeadline,
  automationRow,
  behindWords,
  reconciledColumns,
  reconciledRow,
  stateWords,
  stuckWords,
  unmatchedLine,
} from '../src/format/views/deployment.js';
import { changeSummary, eventWho, whatChanged } from '../src/format/views/events.js';
import { windowInForceList, windowState } from '../src/format/views/windows.js';
import { ackComment, ids, isoTime, page } from '../src/tool/ids.js';
import {
  DEFAULT_ROWS,
  defineTool,
  listOutput,
  type NameBook,
  pageQuery,
  recordOutput,
  type ToolContext,
  ToolInputError,
} from '../src/tool/index.js';
import { cell, named, named as nameOf } from '../src/untrusted.js';
import { AGENT_TYPES, otherIntegrationName } from '../src/vocabulary/index.js';

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

/** Projects read at once: the platform's rate limit is shared by every caller of the key. */
const CONCURRENCY = 4;

const MAX_PROJECTS = 200;

/** Projects drawn in full; the rest get a line each. The answer must stay under 4,000 characters. */
const SHOWN = 6;

/** Loud causes named per project; the rest are counted. */
const CAUSES = 2;

/** Lines of "what changed" in the text. */
const CHANGES = 20;

interface Installation {
  views: ProjectView[];
  truncated: boolean;
  since?: string;
  hours?: number;
}

/** The domain every hostname shares ("example.internal"), said once so rows can name hosts short. */
function commonDomain(hosts: string[]): string | undefined {
  // Replica set and cluster names (no dot) are not hosts.
  const parts = hosts.filter((h) => h.includes('.')).map((h) => h.split('.').slice(1).join('.'));
  if (!parts.length) return undefined;
  return parts.every((d) => d === parts[0]) ? parts[0] : undefined;
}

function hostNamer(views: ProjectView[]) {
  const hosts = views.flatMap((v) => [
    ...v.causes.flatMap((c) => c.group.alerts.map((a) => alertWhere(a).replace(/:\d+$/, ''))),
    ...(v.read.automation?.processes ?? []).map((p) => p.hostname ?? ''),
    ...(v.agents?.checks ?? []).map((c) => c.agent.hostname ?? ''),
  ]);
  const domain = commonDomain(hosts.filter((h) => h && h !== '—'));
  const short = (h: string | undefined) => {
    const bare = (h ?? '?').replace(/:\d+$/, '');
    return domain && bare.endsWith(`.${domain}`) ? bare.slice(0, -domain.length - 1) : bare;
  };
  return { domain, short };
}

const pagingLabel = (t: string) => {
  const other = otherIntegrationName(t);
  return other ? `${t} (${other})` : t;
};

const since = (iso: string | undefined, now: Date) => age(iso, now)?.replace(/ ago$/, '') ?? '?';

/** A cause in words: what, where, for how long, whether it pages, acknowledged, muted by which window. */
function causeLine(c: CauseView, now: Date, short: (h: string) => string, withWindow: boolean): string {
  const g = c.group;
  // "CONNECTIONS > 4000" says enough: the unit RAW and the mode (AVERAGE) are left to triage_project.
  const what =
    g.metricName && g.conditions[0]
      ? g.conditions[0].replace(/ \([A-Z_]+\)$/, '').replace(/ RAW$/, '')
      : (g.eventTypeName ?? g.cause);
  const hosts = [...new Set(g.alerts.map((a) => short(alertWhere(a))))];
  const where = hosts.length <= 2 ? hosts.join(', ') : `${hosts.slice(0, 2).join(', ')} +${hosts.length - 2}`;
  const flags = [
    `${plural(g.alerts.length, 'alert')}, ${since(g.oldest, now)}`,
    c.tracking ? 'tracking (not yet past its delay)' : '',
    g.acknowledged ? `${g.acknowledged} acknowledged` : '',
    // The platform's word for the integration, the other dialect's in parentheses (as integrations show it).
    c.paging ? `pages via ${(g.pages ?? []).map(pagingLabel).join(', ')}` : '',
    withWindow && g.window?.state === 'active' ? mutedUntil(g.window, now) : '',
  ].filter(Boolean);
  return `${what}${g.global ? ' (global)' : ''} on ${where} — ${flags.join('; ')}`;
}

/** The agents of a project that need a word: down, silent, or not active (standby, no processes). */
function agentLine(r: AgentReport, now: Date, short: (h: string) => string): string | undefined {
  const type = (c: AgentCheck) => c.type.toLowerCase();
  const parts: string[] = [];
  // Agent-down alerts by type: each host with how long, and whether an agent of that type is listed there.
  const down = new Map<string, string[]>();
  const add = (
    d: { alert: { eventTypeName?: string; created?: string }; global: boolean },
    host: string,
    note: string,
  ) => {
    const key = `${d.alert.eventTypeName}${d.global ? ' (global)' : ''}`;
    down.set(key, [...(down.get(key) ?? []), `${host} (${since(d.alert.created, now)}${note})`]);
  };
  for (const c of r.checks)
    for (const d of c.alerts)
      add(
        d,
        short(c.agent.hostname ?? ''),
        `, agent ${c.agent.stateName ?? '?'}${c.silent ? `, SILENT ${age(c.lastSeen, now)}` : ''}`,
      );
  for (const d of r.unmatched) add(d, short(d.alert.hostnameAndPort ?? ''), ', no agent there');
  for (const [key, hosts] of down) parts.push(`${key} open on ${hosts.join(', ')}`);
  // Silent agents no alert speaks for yet (a down alert above already says its host), by type: each host
  // with when it was last heard from, the threshold once.
  const silent = new Map<string, AgentCheck[]>();
  for (const c of r.checks.filter((x) => x.silent && !x.alerts.length))
    silent.set(c.type, [...(silent.get(c.type) ?? []), c]);
  for (const cs of silent.values()) {
    const c0 = cs[0]!;
    const hosts = cs.map((c) => `${short(c.agent.hostname ?? '')} (${age(c.lastSeen, now)})`);
    parts.push(
      `SILENT ${type(c0)} ${cs.length > 1 ? 'agents' : 'agent'} on ${hosts.join(', ')}: last ${c0.seenBy === 'lastPing' ? 'ping' : 'conf call'} past ${c0.thresholdMin} min, no alert open`,
    );
  }
  const idle = r.checks.filter(
    (c) => c.type !== 'AUTOMATION' && c.agent.stateName && c.agent.stateName !== 'ACTIVE',
  );
  const byState = new Map<string, string[]>();
  for (const c of idle)
    byState.set(c.agent.stateName!, [
      ...(byState.get(c.agent.stateName!) ?? []),
      // A standby beside an active agent is the normal pair: its type says enough.
      c.agent.stateName === 'STANDBY' ? type(c) : `${type(c)} on ${short(c.agent.hostname ?? '')}`,
    ]);
  for (const [state, who] of byState)
    parts.push(`${state.toLowerCase().replace('_', ' ')}: ${who.join(', ')}`);
  const active = r.checks.filter((c) => c.type !== 'AUTOMATION' && c.agent.stateName === 'ACTIVE');
  const types = ['MONITORING', 'BACKUP'].filter((t) => r.typesRead.includes(t as never));
  const missing = types.filter((t) => !active.some((c) => c.type === t));
  if (missing.length) parts.push(`no active ${missing.map((t) => t.toLowerCase()).join(' or ')} agent`);
  return parts.length ? `agents: ${parts.join('; ')}` : undefined;
}

function projectBlock(
  v: ProjectView,
  rank: number,
  f: FormatContext,
  short: (h: string) => string,
): string[] {
  const now = f.now;
  const p = v.read.project;
  // Agent-down causes are told on the agents line, reconciled with the agents themselves.
  const told = (c: CauseView) =>
    v.agents !== undefined && agentTypeOfAlert(c.group.eventTypeName) !== undefined;
  const loud = v.causes.filter(
    (c) => c.tier !== 'muted or acknowledged' && c.tier !== 'informational' && !told(c),
  );
  const quiet = v.causes.filter((c) => !loud.includes(c) && !(told(c) && !c.muted));
  const lines: string[] = [];
  // The worst causes: two when they are data availability or page someone, else one; the rest counted.
  const named = loud.filter((c, i) => i === 0 || (i < CAUSES && (c.dataAvailability || c.paging)));
  for (const c of named) lines.push(`- ${causeLine(c, now, short, true)}`);
  if (loud.length > named.length)
    lines.push(`- +${plural(loud.length - named.length, 'more unmuted cause')}`);
  // Muted causes one line per window: which window, why it applies, and what it silences.
  const byWindow = new Map<string, CauseView[]>();
  for (const c of quiet.filter((x) => x.muted))
    byWindow.set(c.group.window!.id, [...(byWindow.get(c.group.window!.id) ?? []), c]);
  for (const cs of byWindow.values()) {
    const what = [...new Set(cs.map((c) => c.group.metricName ?? c.group.eventTypeName))];
    lines.push(
      `- ${plural(cs.length, 'cause')} ${mutedUntil(cs[0]!.group.window!, now)}: ${what.join(', ')}`,
    );
  }
  const acked = quiet.filter((c) => !c.muted && !c.tracking);
  if (acked.length)
    lines.push(
      `- acknowledged: ${acked.map((c) => `${c.group.metricName ?? c.group.eventTypeName} on ${short(alertWhere(c.group.alerts[0]!))}`).join(', ')}`,
    );
  const tracking = quiet.filter((c) => !c.muted && c.tracking);
  if (tracking.length)
    lines.push(
      `- tracking (not yet notifying): ${tracking.map((c) => c.group.metricName ?? c.group.eventTypeName).join(', ')}`,
    );
  const s = v.read.automation;
  if (s) {
    const pub = v.read.publishes?.[0];
    const published = pub ? { created: pub.created, who: eventWho(pub, f.names) } : undefined;
    const windows = v.windowsActive.map((w) => windowName(w));
    for (const proc of v.failing)
      lines.push(
        `- ⚙ automation failing: ${stuckWords(proc, { goalVersion: s.goalVersion, published, windows, now, errorMax: 160, short })}`,
      );
    const lagging = v.behind.filter((x) => !v.failing.includes(x));
    if (lagging.length) {
      const byPlan = new Map<string, string[]>();
      for (const x of lagging) {
        const plan = (x.plan ?? []).join(' → ') || `at version ${x.lastGoalVersionAchieved}`;
        byPlan.set(plan, [...(byPlan.get(plan) ?? []), x.name ?? '?']);
      }
      // The first plan in full; the others by count (get_automation_status lists them).
      const [plan, who] = [...byPlan][0]!;
      const more = lagging.length - 1;
      lines.push(
        `- ⚙ ${plural(lagging.length, 'process', 'processes')} behind goal ${s.goalVersion}, no error: ${who[0]} (plan ${plan})${more ? ` +${more} more` : ''}`,
      );
    }
  }
  const agents = v.agents && agentLine(v.agents, now, short);
  if (agents) lines.push(`- ${agents}`);
  for (const e of v.read.errors) lines.push(`- not read: ${cell(e, 160)}`);
  const head = `## ${rank}. ${nameOf(p.name, p.id)} — ${v.tier}${v.read.alerts ? `, ${v.read.alerts.alerts.length} open` : ''}`;
  return [head, ...lines];
}

interface Change {
  time: string;
  projectId: string;
  line: string;
}

/** What changed in the window across projects: events by people, windows started or ended, alerts opened or closed. */
function changesSince(
  views: ProjectView[],
  from: number,
  f: FormatContext,
  short: (h: string) => string,
): Change[] {
  const now = f.now;
  const out: Change[] = [];
  const hhmm = (iso?: string) => (iso ?? '').slice(11, 16);
  for (const v of views) {
    const pid = v.read.project.id;
    for (const w of v.read.alerts?.windows ?? []) {
      const start = Date.parse(w.startDate ?? '');
      const end = Date.parse(w.endDate ?? '');
      if (start >= from && start <= now.getTime())
        out.push({
          time: w.startDate!,
          projectId: pid,
          line: `window ${windowName(w)} started (mutes ${(w.alertTypeNames ?? []).join(', ')} project-wide, ends ${hhmm(w.endDate)} UTC)`,
        });
      if (end >= from && end <= now.getTime())
        out.push({ time: w.endDate!, projectId: pid, line: `window ${windowName(w)} ended` });
    }
    for (const a of v.read.alerts?.alerts ?? [])
      if (Date.parse(a.created ?? '') >= from)
        out.push({
          time: a.created!,
          projectId: pid,
          line: `alert opened: ${a.metricName ?? a.eventTypeName} on ${short(alertWhere(a))}${a.status === 'TRACKING' ? ' (tracking)' : ''} (alertId ${a.id})`,
        });
    for (const a of v.read.closed ?? [])
      out.push({
        time: a.resolved!,
        projectId: pid,
        line: `alert closed: ${a.metricName ?? a.eventTypeName} on ${short(alertWhere(a))} (alertId ${a.id})`,
      });
    const acts = (v.read.events ?? []).filter(
      (e) => changesOf([e]).length || /^ALERT_(UN)?ACKNOWLEDGED_AUDIT$/.test(e.eventTypeName ?? ''),
    );
    for (const e of acts) {
      const who = eventWho(e, f.names);
      const what = changeSummary(e);
      out.push({
        time: e.created ?? '',
        projectId: pid,
        line: `${e.eventTypeName}${who ? ` by ${who}` : ''}${what ? `: ${cell(what, 120)}` : ''} (eventId ${e.id})`,
      });
    }
  }
  return out.sort((a, b) => (Date.parse(a.time) || 0) - (Date.parse(b.time) || 0));
}

function installationText(r: Installation, f: FormatContext): string {
  const { views } = r;
  const { domain, short } = hostNamer(views);
  const counts = TIERS.map((t) => [t, views.filter((v) => v.tier === t).length] as const).filter(
    ([, n]) => n,
  );
  const lines = [
    `# Installation: ${plural(views.length, 'project')} — ${counts.map(([t, n]) => `${n} ${t}`).join(', ') || 'none'}`,
  ];
  if (!views.length) return `${lines[0]}\nThis API key sees no projects.`;
  lines.push(
    // Each heading names its tier: unmuted data availability (host down, no primary, automation failing),
    // unmuted paging, unmuted alerts, muted or acknowledged, informational, quiet.
    'Most urgent first, paging before not. Windows mute alert types project-wide.' +
      (domain ? ` Hosts: *.${cell(domain, 60)}.` : ''),
    f.fence.notice,
  );
  if (r.hours === undefined) {
    // One fence around every project: the causes, errors and window descriptions are the platform's text.
    const blocks = views.slice(0, SHOWN).flatMap((v, i) => projectBlock(v, i + 1, f, short));
    lines.push(f.fence.wrap(blocks.join('\n')));
    const rest = views.slice(SHOWN);
    if (rest.length)
      lines.push(
        `${plural(rest.length, 'more project')}: ${rest.map((v) => `${nameOf(v.read.project.name, v.read.project.id)} (${v.tier})`).join(', ')}.`,
      );
    const states = new Set(
      views.flatMap((v) => (v.agents?.checks ?? []).map((c) => c.agent.stateName ?? '')),
    );
    const legend = ['STANDBY', 'NO_PROCESSES']
      .filter((s) => states.has(s))
      .map((s) => `${s.toLowerCase().replace('_', ' ')} = ${AGENT_LEGEND[s]}`);
    if (legend.length) lines.push(`Agents: ${legend.join('; ')}.`);
  } else {
    // What changed: the state in a line per project, then the changes, oldest first.
    const from = Date.parse(r.since!);
    lines.push(
      views
        .map((v, i) => {
          const worst = v.causes[0];
          const why = v.failing.length
            ? `automation failing (${v.failing.map((p) => p.name).join(', ')})`
            : worst
              ? `${worst.group.metricName ?? worst.group.eventTypeName}${worst.muted ? ' (muted)' : ''}`
              : 'nothing open';
          return `${i + 1}. ${nameOf(v.read.project.name, v.read.project.id)} — ${v.tier}: ${cell(why, 100)}`;
        })
        .join('\n'),
    );
    const changes = changesSince(views, from, f, short);
    lines.push(
      `## What changed since ${r.since!.slice(0, 16).replace('T', ' ')} UTC (last ${plural(r.hours, 'hour')}), oldest first`,
    );
    if (!changes.length)
      lines.push('Nothing: no change, no window started or ended, no alert opened or closed.');
    else {
      const name = new Map(views.map((v) => [v.read.project.id, v.read.project.name ?? v.read.project.id]));
      const shown = changes.slice(-CHANGES);
      lines.push(
        f.fence.wrap(
          shown
            .map((c) => `- ${(c.time ?? '').slice(11, 16)} ${cell(name.get(c.projectId), 40)}: ${c.line}`)
            .join('\n'),
        ),
      );
      if (changes.length > shown.length)
        lines.push(
          `${changes.length - shown.length} older changes left out: list_project_events per project with minDate=${r.since}.`,
        );
    }
    const closedUnknown = views.filter((v) => v.read.closed === undefined).length;
    if (closedUnknown)
      lines.push(
        `Closed alerts are not listed for ${plural(closedUnknown, 'project')}: the server offers no list of closed alerts.`,
      );
  }
  const notes = [...new Set(views.map((v) => v.read.alerts?.globalNote).filter(Boolean))];
  for (const n of notes) lines.push(n!);
  if (r.truncated) lines.push('More projects exist than were read (maxProjects).');
  const next = ['triage_project'];
  if (views.some((v) => v.behind.length)) next.push('get_automation_status');
  if (views.some((v) => v.agents && (v.agents.downAlerts.length || v.agents.checks.some((c) => c.silent))))
    next.push('list_agents (with an agentType)');
  lines.push(`Next: ${next.join(', ')} with a projectId.`);
  return lines.join('\n');
}

export const triageInstallation = defineTool({
  name: 'triage_installation',
  title: 'Triage the whole installation',
  description:
    'Projects ranked by urgency: causes, failing automation, agents; sinceHours: changes. Use for "what is on fire".',
  kind: 'read',
  input: {
    maxProjects: z.number().int().min(1).max(MAX_PROJECTS).optional().describe(`Default ${MAX_PROJECTS}`),
    sinceHours: z.number().int().min(1).max(720).optional().describe('What changed in N hours'),
  },
  output: {
    ...listOutput,
  },
  run: async (ctx, args): Promise<Installation> => {
    const { items: projects, truncated } = await fetchAll(
      (q, signal) => ctx.api.projects.list(q, { signal }),
      { maxItems: args.maxProjects ?? MAX_PROJECTS, signal: ctx.signal },
    );
    const now = ctx.now();
    // From the start of the minute before: what happened "an hour ago" is in, asked a few seconds later.
    const since =
      args.sinceHours === undefined
        ? undefined
        : new Date(Math.floor((now.getTime() - args.sinceHours * 3_600_000 - 60_000) / 60_000) * 60_000);
    // Keys are named by their description where the organization's keys can be read (who published, who acked).
    const keys = ctx.names.learnKeys({ orgId: projects[0]?.orgId }, ctx.signal);
    const reads = await readInstallation(ctx.api, projects, {
      since,
      signal: ctx.signal,
      concurrency: CONCURRENCY,
      progress: ctx.progress,
    });
    await keys;
    const views = reads.map((x) => viewProject(x, now)).sort(byTier);
    return { views, truncated, since: since?.toISOString(), hours: args.sinceHours };
  },
  format: (r, _args, f) => {
    const results = r.views.map((v) => ({
      projectId: v.read.project.id,
      name: v.read.project.name,
      tier: v.tier,
      openAlerts: v.read.alerts?.alerts.length ?? null,
      causes: v.causes.map((c) => ({
        cause: c.group.cause,
        tier: c.tier,
        count: c.group.alerts.length,
        acknowledged: c.group.acknowledged,
        pages: c.group.pages,
        mutedBy: c.muted
          ? { windowId: c.group.window?.id, description: c.group.window?.description }
          : undefined,
        oldest: c.group.oldest,
        alertConfigIds: c.group.alertConfigIds,
        global: c.group.global,
      })),
      automation: v.read.automation
        ? {
            goalVersion: v.read.automation.goalVersion,
            failing: v.failing,
            behind: v.behind.map((p) => p.name),
          }
        : null,
      agents: v.agents
        ? {
            down: v.agents.downAlerts.map((d) => ({
              alertId: d.alert.id,
              eventTypeName: d.alert.eventTypeName,
              host: d.alert.hostnameAndPort,
              global: d.global,
            })),
            silent: v.agents.checks
              .filter((c) => c.silent)
              .map((c) => ({ type: c.type, hostname: c.agent.hostname, lastSeen: c.lastSeen })),
            notActive: v.agents.checks
              .filter((c) => c.agent.stateName !== 'ACTIVE')
              .map((c) => ({ type: c.type, hostname: c.agent.hostname, state: c.agent.stateName })),
          }
        : null,
      errors: v.read.errors,
    }));
    return {
      text: installationText(r, f),
      structured: redact({
        totalCount: r.views.length,
        pageNum: 1,
        itemsPerPage: r.views.length || 1,
        results,
      }) as Record<string, unknown>,
    };
  },
});

export const listOpenAlerts = defineTool({
  name: 'list_open_alerts',
  title: 'List open alerts of a project',
  description:
    'Lists a project\'s open alerts across all configurations, by cause, with acknowledgement and age. Use for "what is alerting"; for changes too use triage_project.',
  kind: 'read',
  input: {
    projectId: ids.project.optional(),
    status: z
      .enum(OPEN_STATUSES)
      .optional()
      .describe('OPEN, or TRACKING (before the notification delay); default both'),
    responseFormat: page.responseFormat,
  },
  output: {
    projectId: z.string(),
    source: z.enum(['project', 'per-config']),
    totalCount: z.number(),
    trackingCount: z.number(),
    acknowledgedCount: z.number(),
    truncated: z.boolean(),
    groups: z.array(z.looseObject({})),
    alerts: z.array(z.looseObject({})),
  },
  run: async (ctx, args) => {
    const projectId = args.projectId;
    const [r] = await Promise.all([
      loadOpenAlerts(ctx.api, projectId, {
        signal: ctx.signal,
        windows: true,
        statuses: args.status ? [args.status] : OPEN_STATUSES,
        progress: (done, total, message) => ctx.progress(done, total, `read ${message}`),
      }),
      ctx.names.learnKeys({ projectId }, ctx.signal),
    ]);
    return { projectId, ...r };
  },
  format: (r, _args, f) => {
    const groups = groupByCause(r.alerts, r.configs, f.now, alertContext(r));
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
        f.detailed ? Number.MAX_SAFE_INTEGER : DEFAULT_ROWS,
        f.names,
      );
      lines.push(f.fence.notice, f.fence.wrap(body));
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
  },
});

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

export const getAlertConfig = defineTool({
  name: 'get_alert_config',
  title: 'Get an alert configuration',
  description:
    'Shows one alert configuration in full: condition, matchers, notification targets (keys masked). Use after list_alert_configs.',
  kind: 'read',
  input: {
    projectId: ids.project.optional(),
    alertConfigId: ids.alertConfig,
    responseFormat: page.responseFormat,
  },
  output: recordOutput,
  run: async (ctx, args) => {
    const [config, changes] = await Promise.all([
      ctx.api.alertConfigs.get(args.projectId, args.alertConfigId, ctx.req),
      configChanges(ctx, args.projectId, args.alertConfigId),
      // Who changed it may be an API key: named by its description where the keys can be read.
      ctx.names.learnKeys({ projectId: args.projectId }, ctx.signal),
    ]);
    return { config, changes };
  },
  format: ({ config: c, changes }, args, f) => {
    const last = changes?.[0];
    const answer = recordAnswer(
      `Alert configuration ${named(configName(c), args.alertConfigId)}`,
      c,
      (s) => [
        ['Event type', s.eventTypeName],
        ['Enabled', s.enabled === undefined ? undefined : s.enabled ? 'yes' : 'no'],
        ['Condition', condition(s)],
        ['Matchers', matcherSummary(s)],
        ['Notifications', notifyTargets(s).join('; ')],
        ['Updated', updatedLine(s.updated, last, f)],
      ],
      f,
      `list_open_alerts_for_config with alertConfigId=${args.alertConfigId}; set_alert_config_enabled to switch it; list_project_events with target=${args.alertConfigId} for every change`,
    );
    return answer;
  },
});

/** The change events a configuration's own "updated" must agree with. */
const CONFIG_CHANGES = [
  'ALERT_CONFIG_CHANGED_AUDIT',
  'ALERT_CONFIG_ENABLED_AUDIT',
  'ALERT_CONFIG_DISABLED_AUDIT',
];

/** This configuration's change events, newest first; undefined when the events cannot be read. */
async function configChanges(ctx: ToolContext, projectId: string, alertConfigId: string) {
  try {
    const page = await ctx.api.events.listForProject(
      projectId,
      { eventType: CONFIG_CHANGES, itemsPerPage: 500 },
      ctx.req,
    );
    return page.results
      .filter((e) => e.alertConfigId === alertConfigId)
      .sort((a, b) => (Date.parse(b.created ?? '') || 0) - (Date.parse(a.created ?? '') || 0));
  } catch (e) {
    ctx.logger.debug('change events not readable; Updated shows the platform field alone', {
      error: String(e),
    });
    return undefined;
  }
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

function checkUntil(args: { acknowledgedUntil?: string; forHours?: number }): void {
  if (args.acknowledgedUntil && args.forHours !== undefined)
    throw new ToolInputError('Give either acknowledgedUntil or forHours, not both.');
}

function untilFrom(args: { acknowledgedUntil?: string; forHours?: number }, now: Date): string | undefined {
  if (args.forHours !== undefined) return new Date(now.getTime() + args.forHours * 3_600_000).toISOString();
  return args.acknowledgedUntil;
}

export const acknowledgeAlert = defineTool({
  name: 'acknowledge_alert',
  title: 'Acknowledge or unacknowledge an alert',
  description:
    'Acknowledges an open project alert until a time, or unacknowledges it without a time. Use while someone works on the cause; for planned work use a maintenance window.',
  kind: 'write',
  checkWith: 'list_open_alerts',
  idempotent: true,
  input: {
    projectId: ids.project.optional(),
    alertId: ids.alert,
    acknowledgedUntil: isoTime('acknowledgedUntil').optional().describe('Until this time; or give forHours'),
    forHours: z.number().positive().max(876_600).optional().describe('Hours from now; 876600 = indefinitely'),
    acknowledgementComment: ackComment,
  },
  output: recordOutput,
  check: checkUntil,
  preview: async (ctx, args) => {
    const projectId = args.projectId;
    const a = await ifSupported(ctx.api, 'alert', () => ctx.api.alerts.get(projectId, args.alertId, ctx.req));
    const until = untilFrom(args, ctx.now());
    return {
      ...ackPreview(a, args.alertId, until, []),
      target: { project: projectId, alertId: args.alertId },
    };
  },
  run: (ctx, args) => {
    const until = untilFrom(args, ctx.now());
    const body = until
      ? { acknowledgedUntil: until, acknowledgementComment: args.acknowledgementComment }
      : {};
    return ctx.api.alerts.acknowledge(args.projectId, args.alertId, body, ctx.req);
  },
  format: (a, args, f) => {
    const answer = recordAnswer(
      a.acknowledgedUntil
        ? `Alert ${args.alertId} acknowledged`
        : `Alert ${args.alertId} is not acknowledged`,
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
    const closed = a.acknowledgedUntil ? closedNote(a, args.alertId) : undefined;
    if (closed) answer.text += `\n${closed}`;
    return answer;
  },
});

const PUBLISHED = 'AUTOMATION_CONFIG_PUBLISHED_AUDIT';

/** How far back the publish of the current goal is looked for. */
const PUBLISH_LOOKBACK_MS = 30 * 24 * 3_600_000;

interface Read {
  status: AutomationStatus;
  /** The newest publish of the automation configuration, when a process is behind. */
  published?: ApiEvent;
  /** The project's windows; null when the server cannot list them. */
  windows?: MaintenanceWindow[] | null;
}

export const getAutomationStatus = defineTool({
  name: 'get_automation_status',
  title: 'Get automation status',
  description:
    'Processes behind the automation goal: plan, error, publish, window. Use when a deployment seems stuck.',
  kind: 'read',
  input: { projectId: ids.project.optional(), responseFormat: page.responseFormat },
  output: {
    goalVersion: z.number(),
    processCount: z.number(),
    atGoalCount: z.number(),
    processes: z.array(z.looseObject({})),
  },
  run: async (ctx, args): Promise<Read> => {
    const status = await ctx.api.automation.status(args.projectId, ctx.req);
    if ((status.processes ?? []).every((p) => atGoal(p, status.goalVersion))) return { status };
    // Why a process is stuck: the goal's publish (and by whom), and a window in force. Both only explain:
    // failing to read them must not cost the status itself.
    const signal = ctx.signal;
    const from = new Date(ctx.now().getTime() - PUBLISH_LOOKBACK_MS).toISOString();
    // Each read only explains: a failure (or a server without it) leaves it out.
    const quietly = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await read();
      } catch {
        return undefined;
      }
    };
    const [published, windows] = await Promise.all([
      quietly(
        async () =>
          (
            await ctx.api.events.listForProject(
              args.projectId,
              { eventType: [PUBLISHED], minDate: from, itemsPerPage: 100 },
              { signal },
            )
          ).results
            .filter((e) => e.eventTypeName === PUBLISHED)
            .sort(newestFirst)[0],
      ),
      quietly(() => loadWindows(ctx.api, args.projectId, signal)),
      // Keys are named by their description where the organization's keys can be read (who published).
      quietly(() => ctx.names.learnKeys({ projectId: args.projectId }, signal)),
    ]);
    return { status, published, windows };
  },
  format: ({ status: s, published, windows }: Read, args, f) => {
    const processes = redact(s.processes ?? []);
    const behind = processes.filter((p) => !atGoal(p, s.goalVersion));
    const done = processes.filter((p) => atGoal(p, s.goalVersion));
    const lines = [automationHeadline(f.names.project(args.projectId), processes, s.goalVersion)];
    const columns = automationColumns;
    if (behind.length > 0) {
      lines.push(`### Behind the goal (${behind.length})`, f.fence.notice);
      const body = [table(columns, behind.map(automationRow))];
      // Why each is stuck: its error, how long since the goal was published and by whom, a window in force.
      const active = (windows ?? []).filter((w) => windowState(w, f.now) === 'active');
      const pub = published ? { created: published.created, who: eventWho(published, f.names) } : undefined;
      const why = behind.map(
        (p) =>
          `- ${stuckWords(p, { goalVersion: s.goalVersion, published: pub, windows: active.map(windowName), now: f.now })}`,
      );
      lines.push(f.fence.wrap([...body, ...why].join('\n')));
    }
    if (done.length > 0) {
      if (f.detailed) {
        lines.push(`### At the goal (${done.length})`);
        if (behind.length === 0) lines.push(f.fence.notice);
        lines.push(
          f.fence.wrap(
            table(
              columns.slice(0, 3),
              done.map((p) => [p.name, p.hostname, p.lastGoalVersionAchieved]),
            ),
          ),
        );
      } else
        lines.push(
          `${plural(done.length, 'process', 'processes')} at the goal (responseFormat=detailed lists them).`,
        );
    }
    if (processes.length === 0) lines.push('No processes are under automation in this project.');
    else if (behind.length === 0) lines.push('Every process has deployed the current configuration.');
    else
      lines.push(
        'Next: list_project_events with eventType ["AUTOMATION_CONFIG_PUBLISHED_AUDIT"] for who changed the configuration.',
      );
    return {
      text: lines.join('\n'),
      structured: {
        goalVersion: s.goalVersion,
        processCount: processes.length,
        atGoalCount: done.length,
        processes: [...behind, ...done],
      },
    };
  },
});

export const listAgents = defineTool({
  name: 'list_agents',
  title: 'List agents of one type',
  description: 'Agents of one type, with agent-down alerts and silence. Use for "is the agent running?".',
  kind: 'read',
  input: {
    projectId: ids.project.optional(),
    agentType: z.enum(AGENT_TYPES).describe('Which agents to list'),
    ...page,
  },
  output: {
    ...listOutput,
  },
  run: async (ctx, args) => {
    const [agents, alerts] = await Promise.all([
      ctx.api.agents.list(args.projectId, args.agentType, pageQuery(args), ctx.req),
      // The alerts only explain the agents: failing to read them must not cost the list.
      loadOpenAlerts(ctx.api, args.projectId, { signal: ctx.signal }).catch((e: unknown) => {
        if (ctx.signal.aborted) throw e;
        return e instanceof Error ? e.message : String(e);
      }),
    ]);
    return { agents, alerts };
  },
  format: ({ agents, alerts }, args, f) => {
    const read = typeof alerts === 'string' ? undefined : alerts;
    const report = reconcileAgents({
      agents: { [args.agentType]: agents.results },
      alerts: read?.alerts ?? [],
      globalAlertIds: read?.globalAlertIds,
      configs: read?.configs,
      globalConfigs: read?.globalConfigs,
      now: f.now,
    });
    const q = pageQuery(args);
    const type = args.agentType;
    const down = report.checks.filter((c) => c.alerts.length > 0);
    const silent = report.checks.filter((c) => c.silent);
    const threshold = report.thresholds[type]!;
    const verdict = [
      down.length || report.unmatched.length
        ? `${plural(report.downAlerts.length, `open ${type}_AGENT_DOWN alert`)}`
        : `no ${type}_AGENT_DOWN alert open`,
      silent.length ? `${plural(silent.length, 'agent')} silent past ${threshold.minutes} min` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const first = (q.pageNum - 1) * q.itemsPerPage + 1;
    const shown = agents.results.length;
    const lines = [
      `# ${type} agents of project ${f.names.project(args.projectId)} — ${agents.totalCount} total${shown ? `, showing ${first}–${first + shown - 1}` : ''}; ${verdict}`,
    ];
    const body: string[] = [];
    if (shown)
      body.push(
        table(
          reconciledColumns,
          report.checks.map((c) => reconciledRow(c, f.now)),
        ),
      );
    for (const c of report.checks) for (const d of c.alerts) body.push(`- ${unmatchedLine(d, f.now, true)}`);
    for (const d of report.unmatched) body.push(`- ${unmatchedLine(d, f.now)}`);
    if (body.length) lines.push(f.fence.notice, f.fence.wrap(body.join('\n')));
    if (!shown)
      lines.push(`No ${type} agents in this project${agents.totalCount ? ` on page ${q.pageNum}` : ''}.`);
    const seen =
      type === 'MONITORING' ? 'last ping' : 'last configuration call (the platform gives no ping for these)';
    lines.push(
      `Silent means no ${seen} for longer than ${threshold.minutes} min (${threshold.from === 'configuration' ? `the ${type}_AGENT_DOWN alert configuration` : 'the default; no alert configuration sets it'}).`,
    );
    if (typeof alerts === 'string')
      lines.push(`Open alerts could not be read (${cell(alerts, 160)}): agent-down alerts are not shown.`);
    else if (alerts.globalNote) lines.push(alerts.globalNote);
    const left = agents.totalCount - (first - 1 + shown);
    if (left > 0 && shown > 0) lines.push(`${left} more — call again with pageNum=${q.pageNum + 1}.`);
    lines.push(
      report.downAlerts.length
        ? `Next: ${report.downAlerts.some((d) => !d.global) ? 'acknowledge_alert' : ''}${report.downAlerts.some((d) => !d.global) && report.downAlerts.some((d) => d.global) ? ' or ' : ''}${report.downAlerts.some((d) => d.global) ? 'acknowledge_global_alert (global alerts)' : ''} with an alertId once someone is on it; triage_project for the project's whole story.`
        : 'Next: list_hosts for the hosts they watch; get_automation_status for automation progress.',
    );
    return {
      text: lines.join('\n'),
      structured: {
        totalCount: agents.totalCount,
        pageNum: q.pageNum,
        itemsPerPage: q.itemsPerPage,
        results: redact(
          report.checks.map((c) => ({
            ...c.agent,
            silent: c.silent,
            openAlertIds: c.alerts.map((d) => d.alert.id),
            meaning: stateWords(c.agent.stateName),
          })),
        ),
      },
    };
  },
});
