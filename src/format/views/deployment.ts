// The deployment area as a person sees it: agents (host, state in words, last configuration and ping, and what
// they say once reconciled with the open agent-down alerts), the automation plan (which processes reached the
// goal, the rest's plan) and monitored hosts.
import type { Agent, Alert, DiskPartition, Host, Process } from '../../api/types.js';
import { cell, sanitize } from '../../untrusted.js';
import { type FormatContext, type ListView, recordAnswer, type ToolAnswer } from '../answers.js';
import { age, fields, plural } from '../markdown.js';

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

/**
 * Done: reached the goal version with nothing left in its plan. A process can report the goal version and
 * still have steps pending (seen in the field): that one is not done.
 */
export const atGoal = (p: Process, goal: number) =>
  p.lastGoalVersionAchieved === goal && (p.plan ?? []).length === 0;

export const automationRow = (p: Process) => [
  p.name,
  p.hostname,
  p.lastGoalVersionAchieved,
  (p.plan ?? []).join(' → ') || '—',
  p.errorCodeHumanReadable || (p.errorCode ? `error ${p.errorCode}` : ''),
];

export const automationColumns = ['process', 'hostname', 'last goal version', 'remaining plan', 'error'];

/** "# Automation of project X — 5 of 6 processes at goal version 57" */
export function automationHeadline(project: string, processes: Process[], goalVersion: number): string {
  const done = processes.filter((p) => atGoal(p, goalVersion)).length;
  return `# Automation of project ${project} — ${done} of ${plural(processes.length, 'process', 'processes')} at goal version ${goalVersion}`;
}

/** A process's error in a person's words: what the agent says, then the underlying error, once each. */
export function processError(p: Process): string | undefined {
  // The agent's log line starts "<rs-ledger_2> [07:27:32.418] ": the process is named already, the clock is noise.
  const logged = p.errorString?.replace(/^<[^>]*>\s*\[[\d:.]+\]\s*/, '');
  const parts = [p.errorCodeDescription || p.errorCodeHumanReadable, logged].filter((x): x is string =>
    Boolean(x),
  );
  if (!parts.length) return p.errorCode ? `error ${p.errorCode}` : undefined;
  // "exit status 48 (address already in use)" is often in both: keep the fuller first, the other only if new.
  return [...new Set(parts)].join(' — ');
}

/** The pending plan: "Download → Start → WaitRsInit", or undefined when nothing is left. */
export const planWords = (p: Process) => ((p.plan ?? []).length ? (p.plan ?? []).join(' → ') : undefined);

/**
 * Why a process is stuck, as far as the platform can tell: its error, its plan, how long since the goal it
 * works towards was published and by whom, and a maintenance window in force (windows are project-wide).
 */
export function stuckWords(
  p: Process,
  o: {
    goalVersion: number;
    /** The newest publish of the configuration: when and by whom. */
    published?: { created?: string; who?: string };
    /** Windows in force now, by description or id. */
    windows?: string[];
    now: Date;
    errorMax?: number;
    /** How hosts are named (a shared domain left out). */
    short?: (host: string) => string;
  },
): string {
  let err = processError(p);
  // "The process rs-search_2 on db-stg-03… failed to start: …" — the line already names process and host.
  const lead = `The process ${p.name} on ${p.hostname} `;
  if (err?.startsWith(lead)) err = err.slice(lead.length);
  err = err?.replace(/\.$/, '');
  const plan = planWords(p);
  const parts = [
    err
      ? `error: ${err.length > (o.errorMax ?? 240) ? `${err.slice(0, (o.errorMax ?? 240) - 1)}…` : err}`
      : 'no error reported',
    plan ? `plan ${plan}` : `reports version ${p.lastGoalVersionAchieved ?? '?'}`,
    o.published?.created
      ? `goal ${o.goalVersion} published ${age(o.published.created, o.now)}${o.published.who ? ` by ${o.published.who}` : ''}`
      : `goal ${o.goalVersion}`,
  ];
  if (o.windows?.length) parts.push(`maintenance window in force: ${o.windows.join(', ')}`);
  const host = o.short ? o.short(p.hostname ?? '?') : (p.hostname ?? '?');
  return `${p.name ?? '?'} on ${host} — ${parts.join('; ')}`;
}

/** Platform text outside a fence: one line, bounded, code-quoted so it reads as a literal. */
const literal = (s: string, max = 80) => {
  const flat = sanitize(s).replace(/`/g, "'").replace(/\s+/g, ' ').trim();
  return `\`${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}\``;
};

/**
 * The processes behind the goal for a summary line, by name with their plan: "`rs-ledger_2` (plan
 * `Download → Start → WaitRsInit`)", a failing one marked; at most `max`, the rest counted.
 */
export function behindWords(behind: Process[], max = 2): string {
  const shown = behind.slice(0, max).map((p) => {
    const plan = planWords(p);
    const failing = p.errorCode || p.errorString || p.errorCodeDescription ? ', failing' : '';
    return `${literal(p.name ?? '?', 60)} (${plan ? `plan ${literal(plan, 100)}` : `at version ${p.lastGoalVersionAchieved ?? '?'}`}${failing})`;
  });
  return `${shown.join(', ')}${behind.length > max ? ` +${behind.length - max} more` : ''}`;
}

/** "db-1.example.com:27017": how people name a process. */
export const hostAddress = (h: Pick<Host, 'hostname' | 'port'>) =>
  h.port !== undefined ? `${h.hostname ?? '?'}:${h.port}` : h.hostname;

export const hostList: ListView<Host> = {
  columns: ['hostId', 'host', 'type', 'replica set', 'last ping'],
  row: (h: Host, now: Date) => [
    h.id,
    hostAddress(h),
    h.typeName,
    h.replicaSetName,
    age((h as Record<string, unknown>).lastPing, now),
  ],
};

/** Which agent lists a project offers: its link relations fenced, and a list_agents call per agent type. */
export function agentLinksAnswer(
  links: Array<{ rel: string; href: string }>,
  agentTypes: string[],
  projectId: string,
  f: FormatContext,
): ToolAnswer {
  const calls = agentTypes.map((t) => `list_agents with agentType=${t}`);
  return {
    text: [
      `# Agent resources of project ${f.names.project(projectId)} — ${agentTypes.length} agent lists`,
      f.fence.notice,
      f.fence.wrap(fields([['Relations', links.map((l) => l.rel)]])),
      calls.length ? `Next: ${calls.join('; ')}.` : 'The project offers no agent lists.',
    ].join('\n'),
    structured: { agentTypes, links },
  };
}

/** A host's disk partitions by name, for get_disk_partition without a partitionName. */
export function partitionsAnswer(
  partitions: DiskPartition[],
  total: number,
  hostId: string,
  f: FormatContext,
): ToolAnswer {
  const names = partitions.map((p) => String(p.partitionName ?? '?'));
  const body = names.length ? f.fence.wrap(names.join(', ')) : 'No partitions reported.';
  return {
    text: `# Disk partitions of host ${f.names.host(hostId)} — ${total}\n${body}\nNext: get_disk_partition with a partitionName.`,
    structured: { partitions: names },
  };
}

/** One disk partition: the spec names only partitionName; servers add more, so every plain field they send. */
export const partitionAnswer = (d: DiskPartition, partitionName: string, hostId: string, f: FormatContext) =>
  recordAnswer(
    `Disk partition ${partitionName} of host ${hostId}`,
    d,
    (s) =>
      Object.entries(s)
        .filter(([k, v]) => k !== 'links' && (v === null || typeof v !== 'object'))
        .map(([k, v]) => [k, v] as [string, unknown]),
    f,
  );
