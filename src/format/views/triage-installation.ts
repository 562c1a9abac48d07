// The installation at a glance as a person reads it: projects ranked by urgency (each drawn by
// triage-projects.ts), or, over a time window, the state in a line per project and what changed across them.

import { alertWhere } from '../../model/index.js';
import { TIERS, timelineWorthy } from '../../rules/index.js';
import { cell, named as nameOf } from '../../untrusted.js';
import type { FormatContext, ToolAnswer } from '../answers.js';
import { plural } from '../markdown.js';
import { redact } from '../redact.js';
import { windowCalled } from './alerts.js';
import { AGENT_LEGEND } from './deployment.js';
import { changeSummary, eventWho } from './events.js';
import { missingLines } from './projects-all.js';
import {
  hostNamer,
  type Installation,
  type ProjectView,
  projectBlock,
  type Short,
} from './triage-projects.js';

/** Projects drawn in full at most; past the first, only while the answer stays within BUDGET characters. */
const SHOWN = 6;

/** The answer must stay under 4,000 characters, with room for the age of cached data said after it. */
const BUDGET = 3_700;

/** Projects past the ones drawn in full that are still named; the rest are counted by tier. */
const NAMED = 12;

/** Lines of "what changed" in the text. */
const CHANGES = 20;

interface Change {
  time: string;
  projectId: string;
  line: string;
}

/** What changed in the window across projects: events by people, windows started or ended, alerts opened or closed. */
function changesSince(views: ProjectView[], from: number, f: FormatContext, short: Short): Change[] {
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
          line: `window ${windowCalled(w, 34)} started (mutes ${(w.alertTypeNames ?? []).join(', ')}, ends ${hhmm(w.endDate)} UTC)`,
        });
      if (end >= from && end <= now.getTime())
        out.push({ time: w.endDate!, projectId: pid, line: `window ${windowCalled(w)} ended` });
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
    const acts = (v.read.events ?? []).filter(timelineWorthy);
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

/** A project with a cause that pages someone now: unmuted, not acknowledged, past its delay. */
const pagesNow = (v: ProjectView) => v.causes.some((c) => c.paging && c.loud > 0 && !c.tracking);

/**
 * The projects ranked, the first drawn in full (one fence around them all), the rest by name, and the legend.
 * What does not depend on how many are drawn in full is found once: the answer may be drawn six times to fit.
 */
function rankedLines(views: ProjectView[], f: FormatContext): (blocks: string[]) => string[] {
  const paging = views.map(pagesNow);
  const states = new Set(views.flatMap((v) => (v.agents?.checks ?? []).map((c) => c.agent.stateName ?? '')));
  const legend = ['STANDBY', 'NO_PROCESSES']
    .filter((s) => states.has(s))
    .map((s) => `${s.toLowerCase().replace('_', ' ')} = ${AGENT_LEGEND[s]}`);
  return (blocks) => {
    const lines: string[] = [];
    // One fence around every project: the causes, errors and window descriptions are the platform's text.
    lines.push(f.fence.wrap(blocks.join('\n')));
    const rest = views.slice(blocks.length);
    // Hundreds of projects: the next ones by name, the quiet tail counted by tier; those that page are counted
    // with where to see whom they page, so no page hides behind "N more".
    const named = rest.slice(0, NAMED);
    const tiers = new Map<string, number>();
    for (const v of rest.slice(NAMED)) tiers.set(v.tier, (tiers.get(v.tier) ?? 0) + 1);
    const counted = [...tiers].map(([tier, n]) => `${n} ${tier}`);
    // The named ones by tier (they come ranked), each tier said once.
    const byTier = new Map<string, string[]>();
    for (const v of named)
      byTier.set(v.tier, [...(byTier.get(v.tier) ?? []), nameOf(v.read.project.name, v.read.project.id)]);
    let pagingRest = 0;
    for (let i = blocks.length; i < views.length; i++) if (paging[i]) pagingRest++;
    if (rest.length)
      lines.push(
        `${plural(rest.length, 'more project')}${pagingRest ? `, ${pagingRest} of them paging` : ''} — ${[...byTier].map(([tier, names]) => `${tier}: ${names.join(', ')}`).join('; ')}${counted.length ? `; and ${counted.join(', ')}` : ''}.`,
      );
    if (pagingRest)
      lines.push(
        'Every paging alert, in every project: list_open_alerts with projectId "all" and paging true.',
      );
    if (legend.length) lines.push(`Agents: ${legend.join('; ')}.`);
    return lines;
  };
}

/** Over a time window: the state in a line per project, then the changes, oldest first. */
function changedLines(r: Installation, f: FormatContext, short: Short): string[] {
  const { views } = r;
  const from = Date.parse(r.since!);
  const lines: string[] = [];
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
    `## What changed since ${r.since!.slice(0, 16).replace('T', ' ')} UTC (last ${plural(r.hours!, 'hour')}), oldest first`,
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
  return lines;
}

function installationText(r: Installation, f: FormatContext): string {
  const { views } = r;
  const { domain, short } = hostNamer(views);
  const counts = TIERS.map((t) => [t, views.filter((v) => v.tier === t).length] as const).filter(
    ([, n]) => n,
  );
  const read = r.missing.length
    ? `${views.length} of ${plural(r.projects, 'project')} read`
    : plural(views.length, 'project');
  const lines = [
    `# Installation: ${read} — ${counts.map(([t, n]) => `${n} ${t}`).join(', ') || 'none'}`,
    // What is missing comes first: a long answer is cut at its end.
    ...missingLines({ ...r, read: views.length }),
  ];
  if (!views.length && !r.missing.length) return `${lines[0]}\nThis API key sees no projects.`;
  lines.push(
    // Each heading names its tier: unmuted data availability (host down, no primary, automation failing),
    // unmuted paging, unmuted alerts, muted or acknowledged, informational, quiet.
    'Most urgent first, paging before not. Windows mute alert types project-wide.' +
      (domain ? ` Hosts: *.${cell(domain, 60)}.` : ''),
    f.fence.notice,
  );
  const tail = [...new Set(views.map((v) => v.read.alerts?.globalNote).filter((n): n is string => !!n))];
  const next = ['triage_project'];
  if (views.some((v) => v.behind.length)) next.push('get_automation_status');
  if (views.some((v) => v.agents && (v.agents.downAlerts.length || v.agents.checks.some((c) => c.silent))))
    next.push('list_agents (agentType)');
  tail.push(`Next: ${next.join(', ')} with a projectId.`);
  if (r.hours !== undefined) return [...lines, ...changedLines(r, f, short), ...tail].join('\n');
  const blocks = views.slice(0, SHOWN).map((v, i) => projectBlock(v, i + 1, f, short).join('\n'));
  const ranked = rankedLines(views, f);
  const draw = (n: number) => [...lines, ...ranked(blocks.slice(0, n)), ...tail].join('\n');
  // Hundreds of projects: fewer drawn in full (the most urgent always) so that the answer stays within budget.
  let text = draw(blocks.length);
  for (let n = blocks.length - 1; n >= 1 && text.length > BUDGET; n--) text = draw(n);
  return text;
}

/** One project in the structured answer: its causes, automation and agents as data. */
function projectResult(v: ProjectView) {
  return {
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
    contradictions: v.contradictions,
    errors: v.read.errors,
  };
}

/** The installation's triage: ranked projects (or what changed) in text, every project as data. */
export function installationAnswer(r: Installation, f: FormatContext): ToolAnswer {
  return {
    text: installationText(r, f),
    structured: redact({
      totalCount: r.views.length,
      pageNum: 1,
      itemsPerPage: r.views.length || 1,
      results: r.views.map(projectResult),
    }) as Record<string, unknown>,
  };
}
