// The agents of a project as the triage tells them: silent ones first, each type with what its silence means
// (src/rules/agents.ts decides whether the type's work is still done), on one summary line that leads the
// answer when a monitoring agent is silent — alerts may not fire, so everything below may be incomplete.
import type { AgentCheck, AgentReport } from '../../model/index.js';
import { stillDone } from '../../rules/index.js';
import { cell } from '../../untrusted.js';
import { age, plural } from '../markdown.js';

/** A host outside a fence: its first label, code-quoted (the full names are in the story's tables). */
const host = (c: AgentCheck) => `\`${cell((c.agent.hostname ?? '?').split('.')[0], 60).replace(/`/g, "'")}\``;

/** What the silence of a type's agents means, given the type's other agents. */
function meaning(type: string, silent: AgentCheck[], all: AgentCheck[]): string {
  if (type === 'AUTOMATION') return 'the automation cannot move their processes to a new goal';
  const doer = all.find((c) => c.agent.stateName === 'ACTIVE' && !c.silent);
  if (stillDone(all) && doer) {
    const work = type === 'MONITORING' ? 'alerts still fire' : 'backups go on';
    return `the active one on ${host(doer)} is heard, so ${work}${silent.some((c) => c.agent.stateName === 'STANDBY') ? ', but this one cannot take over if it stops' : ''}`;
  }
  return type === 'MONITORING'
    ? 'no active monitoring agent is heard, so host and metric alerts may not fire'
    : 'no active backup agent is heard, so backups may not run';
}

/** One type's silent agents: where, in what state, last heard, past which threshold, an open down alert. */
function silentWords(type: string, silent: AgentCheck[], all: AgentCheck[], now: Date): string {
  const heard = (c: AgentCheck) =>
    `last ${c.seenBy === 'lastPing' ? 'ping' : 'conf call'} ${age(c.lastSeen, now)}`;
  // Monitoring and backup agents are one active, the others standing by: which one went quiet matters.
  const which = (c: AgentCheck) => `${type === 'AUTOMATION' ? '' : `${c.agent.stateName ?? '?'} `}${host(c)}`;
  const where =
    silent.length === 1
      ? `${which(silent[0]!)}, ${heard(silent[0]!)}`
      : `${silent
          .slice(0, 3)
          .map((c) => `${which(c)} (${heard(c)})`)
          .join(', ')}${silent.length > 3 ? ` +${silent.length - 3} more` : ''}`;
  // One threshold per type: the smallest enabled configuration's (or the default).
  const down = [...new Set(silent.flatMap((c) => c.alerts.map((a) => a.alert.eventTypeName)))];
  const kind = `${type.toLowerCase()} ${silent.length > 1 ? 'agents' : 'agent'}`;
  return `⚠ silent ${kind}: ${where}, past ${silent[0]!.thresholdMin} min${down.length ? `; ${down.join(', ')} open` : ''}: ${meaning(type, silent, all)}`;
}

/** The triage's agents line, and whether it leads the answer (a monitoring agent is silent). */
export function agentsSummary(r: AgentReport, now: Date): { text: string; leads: boolean } {
  const parts: string[] = [];
  let leads = false;
  for (const type of r.typesRead) {
    const all = r.checks.filter((c) => c.type === type);
    const silent = all.filter((c) => c.silent);
    if (!silent.length) continue;
    if (type === 'MONITORING') leads = true;
    parts.push(silentWords(type, silent, all, now));
  }
  return {
    text: parts.length
      ? parts.join('; ')
      : r.checks.length
        ? `${plural(r.checks.length, 'agent')} heard from, none silent`
        : 'none listed',
    leads,
  };
}

/** The silent agents for the structured content. */
export const silentAgents = (r: AgentReport) =>
  r.checks
    .filter((c) => c.silent)
    .map((c) => ({
      type: c.type,
      hostname: c.agent.hostname,
      stateName: c.agent.stateName,
      lastSeen: c.lastSeen,
      thresholdMin: c.thresholdMin,
    }));
