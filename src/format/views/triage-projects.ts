// One project of the installation as read and ranked (src/feeds/installation.ts), and as drawn in the
// installation's triage: the worst causes in words, the windows muting the rest, failing automation, the agents,
// with hosts named short under the domain they all share.

import type {
  Agent,
  Alert,
  ApiEvent,
  AutomationStatus,
  MaintenanceWindow,
  Project,
} from '../../api/types.js';
import type { Contradiction, OpenAlerts } from '../../model/index.js';
import { type AlertGroup, alertWhere } from '../../model/index.js';
import { ackInForce, agentTypeOfAlert, type Tier } from '../../rules/index.js';
import { cell, named as nameOf } from '../../untrusted.js';
import { type AgentType, otherIntegrationName } from '../../vocabulary/index.js';
import type { FormatContext } from '../answers.js';
import { age, plural } from '../markdown.js';
import { mutedUntil, shortWhen, windowCalled } from './alerts.js';
import { ackWords, causeFate, keyFlagWords, pageLabel } from './alerts-fate.js';
import { type AgentCheckView, type AgentReportView, stuckWords } from './deployment.js';
import { eventWho } from './events.js';
import type { Missing } from './projects-all.js';

/** What was read of one project; a part that failed is named in errors. */
export interface ProjectRead {
  project: Project;
  alerts?: OpenAlerts;
  automation?: AutomationStatus;
  agents?: Partial<Record<AgentType, Agent[]>>;
  /** The newest publishes of the automation configuration (read when a process is behind). */
  publishes?: ApiEvent[];
  /** Events of the time window, when one was asked for. */
  events?: ApiEvent[];
  /** Alerts closed in the time window; undefined when the server lists no closed alerts. */
  closed?: Alert[];
  errors: string[];
}

interface CauseView {
  group: AlertGroup;
  /** Alerts of the cause not acknowledged and not muted by a window in force. */
  loud: number;
  muted: boolean;
  dataAvailability: boolean;
  paging: boolean;
  /** Every alert is TRACKING (not yet past its delay). */
  tracking: boolean;
  tier: Tier;
}

export interface ProjectView {
  read: ProjectRead;
  causes: CauseView[];
  /** Processes behind the goal; failing: with an error. */
  behind: NonNullable<AutomationStatus['processes']>;
  failing: NonNullable<AutomationStatus['processes']>;
  agents?: AgentReportView;
  windowsActive: MaintenanceWindow[];
  tier: Tier;
  /** Sort key within a tier: loud alerts, then all alerts. */
  weight: number;
  /** Records that say opposite things (src/model/join.ts): both are told, neither is picked. */
  contradictions: Contradiction[];
}

/** The installation as read: its projects ranked, and the time window when one was asked for. */
export interface Installation {
  views: ProjectView[];
  /** Projects the key sees; those not read (out of time or budget), and why. */
  projects: number;
  missing: Missing[];
  partial?: string;
  since?: string;
  hours?: number;
}

/** Loud causes named per project; the rest are counted. */
const CAUSES = 2;

export type Short = (h: string) => string;

/** A host without its port (what /:\d+$/ would strip): asked for every host of hundreds of projects. */
function bare(h: string): string {
  const i = h.lastIndexOf(':');
  if (i < 0 || i === h.length - 1) return h;
  for (let j = i + 1; j < h.length; j++) {
    const c = h.charCodeAt(j);
    if (c < 48 || c > 57) return h;
  }
  return h.slice(0, i);
}

/** The domain every hostname shares ("example.internal"), said once so rows can name hosts short. */
function commonDomain(hosts: string[]): string | undefined {
  let domain: string | undefined;
  for (const raw of hosts) {
    const h = bare(raw);
    const dot = h.indexOf('.');
    if (!h || h === '—' || dot < 0) continue; // replica set and cluster names (no dot) are not hosts
    const d = h.slice(dot + 1);
    if (domain === undefined) domain = d;
    else if (d !== domain) return undefined;
  }
  return domain;
}

/** Hosts named short: without their port and the domain all of `hosts` share (said once by the answer). */
export function hostsNamer(hosts: string[]) {
  const domain = commonDomain(hosts);
  const short = (h: string | undefined) => {
    const b = bare(h ?? '?');
    return domain && b.endsWith(`.${domain}`) ? b.slice(0, -domain.length - 1) : b;
  };
  return { domain, short };
}

export const hostNamer = (views: ProjectView[]) => {
  const hosts: string[] = [];
  for (const v of views) {
    for (const c of v.causes) for (const a of c.group.alerts) hosts.push(alertWhere(a));
    for (const p of v.read.automation?.processes ?? []) hosts.push(p.hostname ?? '');
    for (const c of v.agents?.checks ?? []) hosts.push(c.agent.hostname ?? '');
  }
  return hostsNamer(hosts);
};

const pagingLabel = (t: string) => {
  const other = otherIntegrationName(t);
  return other ? `${t} (${other})` : t;
};

const since = (iso: string | undefined, now: Date) => age(iso, now)?.replace(/ ago$/, '') ?? '?';

/** A cause in words: what, where, for how long, whether it pages, acknowledged, muted by which window. */
function causeLine(c: CauseView, now: Date, short: Short, withWindow: boolean, twin?: CauseView): string {
  const g = c.group;
  // "CONNECTIONS > 4000" says enough: the unit RAW and the mode (AVERAGE) are left to triage_project.
  const what =
    g.metricName && g.conditions[0]
      ? g.conditions[0].replace(/ \([A-Z_]+\)$/, '').replace(/ RAW$/, '')
      : (g.eventTypeName ?? g.cause);
  const hosts = [...new Set(g.alerts.map((a) => short(alertWhere(a))))];
  const count = g.alerts.length + (twin?.group.alerts.length ?? 0);
  const where = hosts.length <= 2 ? hosts.join(', ') : `${hosts.slice(0, 2).join(', ')} +${hosts.length - 2}`;
  // What happens to it, where the records beyond the alerts were read: whom it pages, who acknowledged what
  // and why, lapsed acknowledgements, a differing key. Else the counts and the integration's type.
  const fate = g.fate
    ? causeFate(
        g.alerts,
        g.fate,
        now,
        (a) => short(alertWhere(a)),
        (a) => ackInForce(a, now),
      )
    : [
        g.acknowledged ? `${g.acknowledged} acknowledged` : '',
        // The platform's word for the integration, the other dialect's in parentheses (as integrations show it).
        c.paging ? `pages via ${(g.pages ?? []).map(pagingLabel).join(', ')}` : '',
      ];
  const flags = [
    // One alert needs no count: how long it has been open says enough.
    `${count > 1 ? `${count} alerts, ` : ''}${since(g.oldest, now)}`,
    c.tracking ? 'tracking (not yet past its delay)' : '',
    ...fate,
    withWindow && g.window?.state === 'active' ? mutedUntil(g.window, now) : '',
  ].filter(Boolean);
  const scope = twin ? ' (project and global)' : g.global ? ' (global)' : '';
  return `${what}${scope} on ${where} — ${flags.join('; ')}`;
}

/** The same condition on the same hosts with the same words after it, project and global. */
function sameCause(a: CauseView, b: CauseView, now: Date, short: Short): boolean {
  const words = (c: CauseView) =>
    causeLine({ ...c, group: { ...c.group, global: false, oldest: undefined } }, now, short, true);
  return words(a) === words(b);
}

/** Both sides of a contradiction, in the records' own terms. */
function disagreement(c: Contradiction, short: Short): string {
  if (c.kind === 'host pings and is down')
    return `${short(c.host)} pinged ${c.lastPing} and HOST_DOWN alert ${c.alertId ?? '?'} is open on it`;
  if (c.kind === 'primary pings and there is no primary')
    return `${short(c.primary)} pings as primary of ${cell(c.set, 60)} and NO_PRIMARY alert ${c.alertId} is open`;
  return `alert ${c.alertId} is ${c.status} and acknowledged until ${c.acknowledgedUntil}`;
}

/** A muted cause by its metric or type, with whom it pages and a differing key, where they were read. */
function mutedCause(c: CauseView, now: Date): string {
  const g = c.group;
  const what = g.metricName ?? g.eventTypeName ?? '?';
  if (!g.fate) return what;
  const flags = g.fate.keyFlags.map((k) => ` ⚠ on ${keyFlagWords(k, now)}: it may page the old service`);
  const pages = g.fate.pages.length ? `pages ${g.fate.pages.map(pageLabel).join(', ')}${flags.join('')}` : '';
  return pages ? `${what} (${pages})` : what;
}

/** The agents of a project that need a word: down, silent, or not active (standby, no processes). */
function agentLine(
  r: AgentReportView,
  now: Date,
  short: Short,
  /** Agent-down alerts a cause line above already tells (they page): their agent only points up. */
  told: ReadonlySet<string>,
  /** Hosts with an open HOST_DOWN: their agents' silence is said by it. */
  hostsDown: ReadonlySet<string>,
): string | undefined {
  const type = (c: AgentCheckView) => c.type.toLowerCase();
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
  const agentWords = (c: AgentCheckView) =>
    `agent ${c.agent.stateName ?? '?'}${c.silent ? `, SILENT ${age(c.lastSeen, now)}` : ''}`;
  for (const c of r.checks) {
    for (const d of c.alerts.filter((x) => !told.has(x.alert.id)))
      add(d, short(c.agent.hostname ?? ''), `, ${agentWords(c)}`);
    if (c.alerts.length && c.alerts.every((x) => told.has(x.alert.id)))
      parts.push(`${type(c)} ${agentWords(c)} on ${short(c.agent.hostname ?? '')} (alerts above)`);
  }
  for (const d of r.unmatched) add(d, short(d.alert.hostnameAndPort ?? ''), ', no agent there');
  for (const [key, hosts] of down) parts.push(`${key} open on ${hosts.join(', ')}`);
  // Silent agents no alert speaks for yet (a down alert above already says its host), by type: each host
  // with when it was last heard from, the threshold once.
  const silent = new Map<string, AgentCheckView[]>();
  for (const c of r.checks.filter((x) => x.silent && !x.alerts.length))
    silent.set(c.type, [...(silent.get(c.type) ?? []), c]);
  for (const cs of silent.values()) {
    const c0 = cs[0]!;
    // Agents on hosts an open HOST_DOWN names: the host's silence says theirs.
    if (cs.every((c) => hostsDown.has(short(c.agent.hostname ?? '')))) {
      const hosts = cs.map((c) => short(c.agent.hostname ?? ''));
      parts.push(
        `SILENT ${type(c0)} ${cs.length > 1 ? 'agents' : 'agent'} on ${hosts.join(', ')} (${cs.length > 1 ? 'hosts' : 'host'} down)`,
      );
      continue;
    }
    // Agents heard from last at the same time (hosts that went down together) say it once.
    const ages = new Set(cs.map((c) => age(c.lastSeen, now)));
    const one = ages.size === 1 ? ` ${age(c0.lastSeen, now)}` : '';
    const hosts = cs.map((c) => `${short(c.agent.hostname ?? '')}${one ? '' : ` (${age(c.lastSeen, now)})`}`);
    parts.push(
      `SILENT ${type(c0)} ${cs.length > 1 ? 'agents' : 'agent'} on ${hosts.join(', ')}: last ${c0.seenBy === 'lastPing' ? 'ping' : 'conf call'}${one}, past ${c0.thresholdMin} min, no alert open`,
    );
  }
  // Agents said above (down or silent) are not counted again among the idle.
  const idle = r.checks.filter(
    (c) =>
      c.type !== 'AUTOMATION' &&
      c.agent.stateName &&
      c.agent.stateName !== 'ACTIVE' &&
      !c.silent &&
      !c.alerts.length,
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

export function projectBlock(v: ProjectView, rank: number, f: FormatContext, short: Short): string[] {
  const now = f.now;
  const p = v.read.project;
  // Agent-down causes are told on the agents line, reconciled with the agents themselves.
  const told = (c: CauseView) =>
    v.agents !== undefined && agentTypeOfAlert(c.group.eventTypeName) !== undefined;
  // An agent-down cause that pages is a cause line too: the agents line does not say whom it pages.
  const loud = v.causes.filter(
    (c) => c.tier !== 'muted or acknowledged' && c.tier !== 'informational' && (!told(c) || c.paging),
  );
  const quiet = v.causes.filter((c) => !loud.includes(c) && !(told(c) && !c.muted));
  const lines: string[] = [];
  // Every cause that pages someone; beside them the worst one, and a second when it is data availability.
  // Only causes that page nobody are counted instead of named.
  const named = loud.filter((c, i) => c.paging || i === 0 || (i < CAUSES && c.dataAvailability));
  // A project cause and a global one of the same type on the same hosts, paging alike and nothing else to
  // say, are one line: the oldest's time, both configurations named.
  const twins = new Map<CauseView, CauseView>();
  for (const g of named.filter((c) => c.group.global)) {
    const p = named.find((c) => !c.group.global && !twins.has(c) && sameCause(c, g, now, short));
    if (p) twins.set(p, g);
  }
  const merged = new Set(twins.values());
  for (const c of named.filter((x) => !merged.has(x)))
    lines.push(`- ${causeLine(c, now, short, true, twins.get(c))}`);
  if (loud.length > named.length)
    lines.push(`- +${plural(loud.length - named.length, 'more unmuted cause')} (none pages)`);
  // Muted causes one line per window: which window, why it applies, and what it silences.
  const byWindow = new Map<string, CauseView[]>();
  for (const c of quiet.filter((x) => x.muted))
    byWindow.set(c.group.window!.id, [...(byWindow.get(c.group.window!.id) ?? []), c]);
  for (const cs of byWindow.values()) {
    // Each muted cause that would page, with whom and a differing key: what happens when the window ends. The
    // others are counted (triage_project names them).
    const pages = cs.filter((c) => c.group.fate?.pages.length || (!c.group.fate && c.paging));
    const what = [...new Set(pages.map((c) => mutedCause(c, now)))];
    if (cs.length > pages.length) what.push(`${cs.length - pages.length} paging nobody`);
    // The answer's header says once that windows mute their types project-wide.
    const w = cs[0]!.group.window!;
    lines.push(
      `- ${plural(cs.length, 'cause')} muted by ${windowCalled(w, 34)} until ${shortWhen(w.endDate, now)} (${w.types.join(', ') || '—'}): ${what.join(', ')}`,
    );
  }
  const acked = quiet.filter((c) => !c.muted && !c.tracking);
  if (acked.length)
    lines.push(
      `- acknowledged: ${acked.map((c) => `${c.group.metricName ?? c.group.eventTypeName} on ${short(alertWhere(c.group.alerts[0]!))}${c.group.alerts[0] ? ` ${ackWords(c.group.alerts[0], now)}` : ''}`).join(', ')}`,
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
    // A window a muted line above names is pointed to, not named again.
    const windows = v.windowsActive.map((w) => (byWindow.has(w.id) ? 'above' : windowCalled(w)));
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
  const toldAbove = new Set(named.flatMap((c) => c.group.alerts.map((a) => a.id)));
  const hostsDown = new Set(
    v.causes
      .filter((c) => c.group.eventTypeName === 'HOST_DOWN')
      .flatMap((c) => c.group.alerts.map((a) => short(alertWhere(a)))),
  );
  const agents = v.agents && agentLine(v.agents, now, short, toldAbove, hostsDown);
  if (agents) lines.push(`- ${agents}`);
  for (const c of v.contradictions) lines.push(`- ⚠ the records disagree: ${disagreement(c, short)}`);
  for (const e of v.read.errors) lines.push(`- not read: ${cell(e, 160)}`);
  const open = v.read.alerts ? `, ${v.read.alerts.alerts.length} open` : '';
  const head = `## ${rank}. ${nameOf(p.name, p.id)} — ${v.tier}${open}`;
  return [head, ...lines];
}
