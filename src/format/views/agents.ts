// How an agent looks to a person: host, state (in words), last configuration and ping, managed, tag; and
// what the agents of a project say once reconciled with the open agent-down alerts.
import type { Agent, Alert } from '../../api/types.js';
import { cell } from '../../untrusted.js';
import type { ListView } from '../answers.js';
import { age, plural } from '../markdown.js';

/** What an agent's state means, in words: STANDBY and NO_PROCESSES are not failures, and not work either. */
export const AGENT_STATE_WORDS: Record<string, string> = {
  ACTIVE: 'active: doing the work',
  STANDBY: 'standby: running, takes over if the active agent stops; does no work now',
  NO_PROCESSES: 'no processes: running, but has no processes assigned to watch or back up',
};

/** The same, short, for a legend said once under many agents. */
export const AGENT_LEGEND: Record<string, string> = {
  STANDBY: 'running, takes over if the active agent stops',
  NO_PROCESSES: 'running, but has no processes assigned to watch or back up',
};

export const stateWords = (state: string | undefined) => (state ? (AGENT_STATE_WORDS[state] ?? state) : '—');

export const agentList: ListView<Agent> = {
  columns: ['hostname', 'state', 'last conf', 'last ping', 'managed', 'tag'],
  row: (a: Agent, now: Date) => [
    a.hostname,
    a.stateName,
    age(a.lastConf, now),
    age(a.lastPing, now),
    a.isManaged === undefined ? undefined : a.isManaged ? 'yes' : 'no',
    a.tag,
  ],
};

/** The shape of a reconciled agent (src/feeds/agents.ts) as far as drawing it goes. */
export interface AgentCheckView {
  type: string;
  agent: Agent;
  lastSeen?: string;
  seenBy: 'lastPing' | 'lastConf';
  thresholdMin: number;
  silent: boolean;
  alerts: Array<{ alert: Alert; global: boolean }>;
}

/** The verdict on one agent: down (an alert is open), silent (past its threshold), or its state in words. */
export function agentVerdict(c: AgentCheckView, now: Date): string {
  const parts: string[] = [];
  // The alerts themselves are listed under the table (a cell holds one short line).
  if (c.alerts.length)
    parts.push(`DOWN (${c.alerts.length > 1 ? `${c.alerts.length} alerts` : 'alert'} below)`);
  if (c.silent)
    parts.push(
      `SILENT: last ${c.seenBy === 'lastPing' ? 'ping' : 'conf'} ${age(c.lastSeen, now)}, over ${c.thresholdMin} min${c.alerts.length ? '' : ', no alert open'}`,
    );
  if (!parts.length) return stateWords(c.agent.stateName);
  return `${parts.join('; ')}; state ${c.agent.stateName ?? '—'}`;
}

export const reconciledColumns = ['hostname', 'state', 'last conf', 'last ping', 'verdict'];

export const reconciledRow = (c: AgentCheckView, now: Date) => [
  c.agent.hostname,
  c.agent.stateName,
  age(c.agent.lastConf, now),
  age(c.agent.lastPing, now),
  agentVerdict(c, now),
];

/** One line on an agent-down alert: where, for how long, and whether an agent of its type is listed there. */
export function unmatchedLine(d: { alert: Alert; global: boolean }, now: Date, matched = false): string {
  const host = cell((d.alert.hostnameAndPort ?? '?').replace(/:\d+$/, ''));
  return `${d.alert.eventTypeName}${d.global ? ' (global)' : ''} open ${age(d.alert.created, now)?.replace(/ ago$/, '')} on ${host} (alertId ${d.alert.id})${matched ? '' : ' — no agent of that type is listed on that host now'}`;
}

/** "2 monitoring agents: 1 active, 1 standby" — counts by state. */
export function stateCounts(agents: Agent[], type: string): string {
  const by = new Map<string, number>();
  for (const a of agents) by.set(a.stateName ?? '?', (by.get(a.stateName ?? '?') ?? 0) + 1);
  const parts = [...by].map(([s, n]) => `${n} ${s.toLowerCase().replace('_', ' ')}`);
  return `${plural(agents.length, `${type.toLowerCase()} agent`)}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}
