// The incident timeline's words: the rules that order and name its causes (severity, open, muted, urgency)
// and the five lines of its summary (alerts, automation, agents, maintenance, changes). The drawing is
// incident-timeline.ts.
import type { App } from '@modelcontextprotocol/ext-apps';
import {
  ackInForce,
  agentTypeOfAlert,
  byUrgency,
  failing,
  SEVERITIES,
  severity as severityOf,
  windowState,
} from '../src/rules/index.js';
import { ago, arr, type Json, ms, obj, str, whenAgo } from './shared.js';

export function hostOf(a: Json): string {
  return str(a.hostnameAndPort) || str(a.clusterName) || str(a.replicaSetName) || 'project-wide';
}

/**
 * A cause's distinct hosts with their alert counts: the server's (counted before its alerts were cut), else
 * from the alerts it sent. One host copied a hundred times is one host.
 */
export function causeHosts(g: Json): {
  hosts: Array<{ host: string; count: number; acked: boolean }>;
  total: number;
} {
  const sent = arr(g.hosts).map(obj);
  if (sent.length)
    return {
      hosts: sent.map((h) => ({
        host: str(h.host),
        count: Number(h.count) || 1,
        acked: Number(h.acknowledged) >= (Number(h.count) || 1),
      })),
      total: Number(g.hostCount) || sent.length,
    };
  const by = new Map<string, { host: string; count: number; acked: boolean }>();
  for (const a of arr(g.alerts).map(obj)) {
    const h = by.get(hostOf(a)) ?? { host: hostOf(a), count: 0, acked: true };
    h.count += 1;
    h.acked &&= acked(a);
    by.set(h.host, h);
  }
  return { hosts: [...by.values()], total: by.size };
}

export const acked = (a: Json) => ackInForce({ acknowledgedUntil: str(a.acknowledgedUntil) }, new Date());
/** A cause's severity: the server's rule (src/rules/alerts.ts), so the app and the text agree. */
export const severity = (g: Json) => severityOf(str(g.eventTypeName));
export const newest = (g: Json) =>
  Math.max(ms(g.oldest) || 0, ...arr(g.alerts).map((a) => ms(obj(a).created) || 0));
/** The window that mutes a cause (or will), from the triage's windows: its description names it. */
let windowsById = new Map<string, Json>();
/** The triage's windows by id, for windowOf (set once per drawing). */
export function knowWindows(windows: Json[]): void {
  windowsById = new Map(windows.map((w) => [str(w.id), w]));
}
export const windowOf = (g: Json): Json => {
  const w = obj(g.maintenanceWindow);
  return { ...windowsById.get(str(w.id)), ...w };
};
export const muted = (g: Json) => obj(g.maintenanceWindow).state === 'active';
/** Still to be dealt with: an alert in it is neither acknowledged nor (when the cause has none listed) counted so. */
export const open = (g: Json) => {
  const alerts = arr(g.alerts).map(obj);
  return alerts.length ? alerts.some((a) => !acked(a)) : Number(g.acknowledged) < Number(g.count);
};
/** Most urgent first (src/rules/ranking.ts): open, unmuted, data availability (critical), the newest. */
export const urgency = (x: Json, y: Json): number => byUrgency(causeFacts(x), causeFacts(y));
const causeFacts = (g: Json) => ({
  open: open(g),
  muted: muted(g),
  eventTypeName: str(g.eventTypeName),
  newest: newest(g),
});

/**
 * An agent's log line without its clock stamp ("[07:27:26.418]": a time of day with no date or zone, in the
 * agent's own clock): the words stay, the one time form of the app is not broken by a second one.
 */
const logWords = (v: unknown) =>
  str(v)
    .replace(/\s*\[\d\d:\d\d:\d\d(?:\.\d+)?\]\s*/g, ' ')
    .trim();

/** "DISK_PARTITION_SPACE_USED_DATA > 85 RAW (AVERAGE)" as the text answer names the cause, "(global)" kept. */
export const causeName = (g: Json) => {
  const what = str(g.metricName) || str(g.eventTypeName);
  const conds = arr(g.conditions)
    .map(str)
    .map((c) => (/^[<>=!]/.test(c) && what ? `${what} ${c}` : c));
  return `${conds.join('; ') || str(g.cause)}${g.global ? ' (global)' : ''}`;
};

/** One triage as the app reads it: the parts it draws from, sorted, and the names of the ids they carry. */
export interface Triage {
  s: Json;
  app: App;
  win: Json;
  project: string;
  say: (text: string, tone?: 'ok' | 'warn' | 'error') => void;
  alertsPart: Json | undefined;
  /** Causes, most urgent first. */
  groups: Json[];
  /** What broke and what changed, newest first. */
  timeline: Json[];
  changes: Json[];
  windows: Json[];
  alerts: Json[];
  errors: Json[];
  /** What a person calls the ids the timeline's changes name. */
  names: Map<string, string>;
  details: HTMLElement;
}

const notRead = (t: Triage, section: string) =>
  `not read: ${str(t.errors.find((e) => e.section === section)?.message) || 'unavailable'}`;

export function alertsLine(t: Triage): string {
  const { alertsPart, alerts, groups } = t;
  if (!alertsPart) return notRead(t, 'alerts');
  const total = Number(alertsPart.totalCount ?? alerts.length);
  const tracking = Number(alertsPart.trackingCount ?? 0);
  const ack = Number(alertsPart.acknowledgedCount ?? 0);
  const critical = groups.filter((g) => severity(g) === SEVERITIES[0] && open(g)).length;
  return total
    ? `${total} alerts (${total - tracking} open, ${tracking} tracking), ${ack} acknowledged, in ${groups.length} cause${groups.length === 1 ? '' : 's'}${critical ? `; ${critical} critical (data availability)` : ''}`
    : 'none open in this project';
}

export function automationLine(t: Triage): string {
  if (!t.s.automation) return notRead(t, 'automation');
  const auto = obj(t.s.automation);
  const behind = arr(auto.behind).map(obj);
  const n = Number(auto.processCount ?? 0);
  const err = behind.find((p) => failing(p));
  return behind.length
    ? `${behind.length} of ${n} processes behind goal version ${str(auto.goalVersion)}: ${behind
        .slice(0, 2)
        .map((p) => `${str(p.name)} on ${str(p.hostname)}`)
        .join(
          ', ',
        )}${n && behind.length > 2 ? ` +${behind.length - 2} more` : ''}${err ? `; error: ${logWords(err.errorString || err.errorCodeHumanReadable)}` : ''}`
    : `all ${n} processes at goal version ${str(auto.goalVersion)}`;
}

export function agentsLine(t: Triage): string {
  if (!t.alertsPart) return 'unknown (alerts not read)';
  const agentOf = (g: Json) => agentTypeOfAlert(str(g.eventTypeName));
  const agentsDown = t.groups.filter((g) => agentOf(g) !== undefined);
  // Agents are counted by host: an alert copied a hundred times on one host is one agent down.
  const line = (g: Json) => {
    const { hosts, total } = causeHosts(g);
    const alerts = Number(g.count) || 0;
    const more = total > hosts.length ? ` +${total - hosts.length} more` : '';
    return `${total} ${String(agentOf(g)).toLowerCase()} agent${total === 1 ? '' : 's'} down (${hosts.map((h) => h.host).join(', ')}${more}${alerts > total ? `; ${alerts} alerts` : ''})`;
  };
  return agentsDown.length ? agentsDown.map(line).join('; ') : 'no agent-down alert open';
}

export function maintenanceLine(t: Triage): string {
  const { windows } = t;
  const state = (w: Json) =>
    windowState({ startDate: str(w.startDate), endDate: str(w.endDate) }, new Date());
  const inForce = windows.filter((w) => state(w) === 'active');
  const upcoming = windows.filter((w) => state(w) === 'upcoming');
  return t.s.maintenanceWindows === null
    ? 'this server lists no maintenance windows'
    : inForce.length || upcoming.length
      ? [
          ...new Set(
            [...inForce, ...upcoming].map(
              (w) =>
                `${str(w.description) || 'a window'} (${ms(w.startDate) <= Date.now() ? 'in force' : `from ${whenAgo(w.startDate)}`} until ${whenAgo(w.endDate)}; mutes ${arr(w.alertTypeNames).join(', ')})`,
            ),
          ),
        ]
          .slice(0, 3)
          .join('; ')
      : 'none in force or upcoming';
}

export function changesLine(t: Triage): string {
  const { s, changes, win } = t;
  const cutTimeline = arr(s.leftOut).some((c) => obj(c).path === 'timeline');
  return s.timeline && !t.errors.some((e) => e.section === 'events')
    ? changes.length
      ? `${changes.length}${cutTimeline ? ' shown, the newest (more were left out)' : ' in the window'}, the latest ${ago(changes[0]?.time)}`
      : `none in the last ${str(win.hours)} h`
    : notRead(t, 'events');
}
