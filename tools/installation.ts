// "What is on fire across the installation?": every project the key sees, ranked by what matters now —
// unmuted data-availability problems (no primary, host down, automation failing) above muted and informational
// ones, paging above non-paging — each with its worst causes in words, its failing automation, its agents
// reconciled with agent-down alerts, and its global alerts. With sinceHours: what changed across the
// installation (events, windows that started or ended, alerts that opened or closed, and who did it).
import { z } from 'zod';
import { fetchAll } from '../src/api/paging.js';
import { type AgentCheck, type AgentReport, agentTypeOfAlert } from '../src/feeds/agents.js';
import {
  byTier,
  type CauseView,
  changesOf,
  type ProjectView,
  readInstallation,
  TIERS,
  viewProject,
} from '../src/feeds/installation.js';
import { age, plural } from '../src/format/markdown.js';
import { redact } from '../src/format/redact.js';
import { AGENT_LEGEND } from '../src/format/views/agents.js';
import { alertWhere, mutedUntil, windowName } from '../src/format/views/alerts.js';
import { stuckWords } from '../src/format/views/automation.js';
import { changeSummary, eventWho } from '../src/format/views/events.js';
import { defineTool, type FormatContext, listOutput } from '../src/tool/index.js';
import { cell, named as nameOf } from '../src/untrusted.js';
import { otherIntegrationName } from '../src/vocabulary/index.js';

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

export const installationTools = [triageInstallation];
