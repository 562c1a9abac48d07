// The deployment area as a person sees it: agents (host, state in words, last configuration and ping, and what
// they say once reconciled with the open agent-down alerts), the automation plan (which processes reached the
// goal, the rest's plan) and monitored hosts.
import type {
  Agent,
  Alert,
  ApiEvent,
  AutomationStatus,
  DiskPartition,
  Host,
  MaintenanceWindow,
  Page,
  Process,
} from '../../api/types.js';
import { atGoal, failing, windowState } from '../../rules/index.js';
import { cell, sanitize } from '../../untrusted.js';
import { type FormatContext, type ListView, recordAnswer, type ToolAnswer } from '../answers.js';
import { age, fields, plural, stamp, table, utc } from '../markdown.js';
import { redact } from '../redact.js';
import { windowCalled } from './alerts.js';
import { eventWho } from './events.js';

/** What an agent's state means, in words: STANDBY and NO_PROCESSES are not failures, and not work either. */
const AGENT_STATE_WORDS: Record<string, string> = {
  ACTIVE: 'active: doing the work',
  STANDBY: 'standby: running, takes over if the active agent stops; does no work now',
  NO_PROCESSES: 'no processes: running, but has no processes assigned to watch or back up',
};

/** The same, short, for a legend said once under many agents. */
export const AGENT_LEGEND: Record<string, string> = {
  STANDBY: 'takes over if the active agent stops',
  NO_PROCESSES: 'running, no processes assigned',
};

export const stateWords = (state: string | undefined) => (state ? (AGENT_STATE_WORDS[state] ?? state) : '—');

/** The shape of a reconciled agent (src/model/agents.ts) as far as drawing it goes. */
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
function agentVerdict(c: AgentCheckView, now: Date): string {
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

export const reconciledColumns = ['hostname', 'state', utc('last conf'), utc('last ping'), 'verdict'];

export const reconciledRow = (c: AgentCheckView, now: Date) => [
  c.agent.hostname,
  c.agent.stateName,
  stamp(c.agent.lastConf, now),
  stamp(c.agent.lastPing, now),
  agentVerdict(c, now),
];

/** One line on an agent-down alert: where, for how long, and whether an agent of its type is listed there. */
function unmatchedLine(d: { alert: Alert; global: boolean }, now: Date, matched = false): string {
  const host = cell((d.alert.hostnameAndPort ?? '?').replace(/:\d+$/, ''));
  return `${d.alert.eventTypeName}${d.global ? ' (global)' : ''} open ${age(d.alert.created, now)?.replace(/ ago$/, '')} on ${host} (alertId ${d.alert.id})${matched ? '' : ' — no agent of that type is listed on that host now'}`;
}

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
function processError(p: Process): string | undefined {
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
const planWords = (p: Process) => ((p.plan ?? []).length ? (p.plan ?? []).join(' → ') : undefined);

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
    /** The plan is said beside it already (the triage's summary line). */
    planSaid?: boolean;
  },
): string {
  let err = processError(p);
  // "The process rs-search_2 on db-stg-03… failed to start: …" — the line already names process and host.
  // "rs-ledger_2 failed to start." too.
  for (const lead of [`The process ${p.name} on ${p.hostname} `, `${p.name} `])
    if (err?.startsWith(lead)) err = err.slice(lead.length);
  err = err?.replace(/\.$/, '');
  const plan = planWords(p);
  const parts = [
    err
      ? `error: ${err.length > (o.errorMax ?? 240) ? `${err.slice(0, (o.errorMax ?? 240) - 1)}…` : err}`
      : 'no error reported',
    ...(o.planSaid ? [] : [plan ? `plan ${plan}` : `reports version ${p.lastGoalVersionAchieved ?? '?'}`]),
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
    const failingWord = failing(p) ? ', failing' : '';
    return `${literal(p.name ?? '?', 60)} (${plan ? `plan ${literal(plan, 100)}` : `at version ${p.lastGoalVersionAchieved ?? '?'}`}${failingWord})`;
  });
  return `${shown.join(', ')}${behind.length > max ? ` +${behind.length - max} more` : ''}`;
}

/** "db-1.example.com:27017": how people name a process. */
export const hostAddress = (h: Pick<Host, 'hostname' | 'port'>) =>
  h.port !== undefined ? `${h.hostname ?? '?'}:${h.port}` : h.hostname;

export const hostList: ListView<Host> = {
  columns: ['hostId', 'host', 'type', 'replica set', utc('last ping')],
  row: (h: Host, now: Date) => [
    h.id,
    hostAddress(h),
    h.typeName,
    h.replicaSetName,
    stamp((h as Record<string, unknown>).lastPing, now),
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
    text: `# Disk partitions of host ${f.names.host(hostId)} — ${total}\n${body}\n${PARTITION_NAME_ONLY}\nNext: ${DISK_USAGE_NEXT}.`,
    structured: { partitions: names, note: PARTITION_NAME_ONLY },
  };
}

/** The honest dead end: what the spec's disk endpoints give, and where disk usage is instead. */
const PARTITION_NAME_ONLY =
  "The spec gives a partition's name only, no size or usage: disk usage comes from disk alerts' values.";
const DISK_USAGE_NEXT =
  "list_open_alerts for disk alerts' values (usage now); list_project_events with target and history=true for past disk episodes";

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
    `${DISK_USAGE_NEXT}. ${PARTITION_NAME_ONLY.replace(/\.$/, '')}`,
  );

/** The agents of a project reconciled with their open agent-down alerts (src/model/agents.ts), as drawn. */
export interface AgentReportView {
  checks: AgentCheckView[];
  typesRead: readonly string[];
  unmatched: Array<{ alert: Alert; global: boolean }>;
  downAlerts: Array<{ alert: Alert; global: boolean }>;
  thresholds: Partial<Record<string, { minutes: number; from: 'configuration' | 'default' }>>;
}

/** The automation of a project as read: its status, the goal's newest publish, the windows (null: no list). */
export interface AutomationRead {
  status: AutomationStatus;
  published?: ApiEvent;
  windows?: MaintenanceWindow[] | null;
}

/** The processes behind the goal, and why each is stuck: its error, the goal's publish and by whom, a window. */
function behindLines(r: AutomationRead, behind: Process[], f: FormatContext): string[] {
  const { status: s, published, windows } = r;
  const body = [table(automationColumns, behind.map(automationRow))];
  const active = (windows ?? []).filter((w) => windowState(w, f.now) === 'active');
  const pub = published ? { created: published.created, who: eventWho(published, f.names) } : undefined;
  const why = behind.map(
    (p) =>
      `- ${stuckWords(p, { goalVersion: s.goalVersion, published: pub, windows: active.map((w) => windowCalled(w)), now: f.now })}`,
  );
  return [
    `### Behind the goal (${behind.length})`,
    f.fence.notice,
    f.fence.wrap([...body, ...why].join('\n')),
  ];
}

/** A project's automation: who is behind the goal and why, who reached it (listed when detailed). */
export function automationAnswer(r: AutomationRead, project: string, f: FormatContext): ToolAnswer {
  const s = r.status;
  const processes = redact(s.processes ?? []);
  const behind = processes.filter((p) => !atGoal(p, s.goalVersion));
  const done = processes.filter((p) => atGoal(p, s.goalVersion));
  const lines = [automationHeadline(project, processes, s.goalVersion)];
  if (behind.length > 0) lines.push(...behindLines(r, behind, f));
  if (done.length > 0) {
    if (f.detailed) {
      lines.push(`### At the goal (${done.length})`);
      if (behind.length === 0) lines.push(f.fence.notice);
      lines.push(
        f.fence.wrap(
          table(
            automationColumns.slice(0, 3),
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
}

/** What list_agents was asked and read: one type's page of agents, and why open alerts are missing if they are. */
interface AgentsRead {
  projectId: string;
  type: string;
  page: Page<Agent>;
  q: { pageNum: number; itemsPerPage: number };
  /** Why the open alerts could not be read, when they could not. */
  alertsError?: string;
  globalNote?: string;
  /** list_agents' `silent`: the agents it keeps — in trouble (true) or reporting (false). */
  only?: { silent: boolean; checks: AgentReportView['checks'] };
}

/** The heading's verdict: open agent-down alerts, silent agents. */
function agentsVerdict(report: AgentReportView, type: string): string {
  const down = report.checks.filter((c) => c.alerts.length > 0);
  const silent = report.checks.filter((c) => c.silent);
  const threshold = report.thresholds[type]!;
  return [
    down.length || report.unmatched.length
      ? `${plural(report.downAlerts.length, `open ${type}_AGENT_DOWN alert`)}`
      : `no ${type}_AGENT_DOWN alert open`,
    silent.length ? `${plural(silent.length, 'agent')} silent past ${threshold.minutes} min` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** Where to go next: acknowledge the agent-down alerts (project's or global), or the hosts and automation. */
function agentsNext(report: AgentReportView): string {
  const local = report.downAlerts.some((d) => !d.global);
  const global = report.downAlerts.some((d) => d.global);
  return report.downAlerts.length
    ? `Next: ${local ? 'acknowledge_alert' : ''}${local && global ? ' or ' : ''}${global ? 'acknowledge_global_alert (global alerts)' : ''} with an alertId once someone is on it; triage_project for the project's whole story.`
    : 'Next: list_hosts for the hosts they watch; get_automation_status for automation progress.';
}

/** One type of agents of a project, each with its verdict, the agent-down alerts under the table. */
export function agentsAnswer(r: AgentsRead, report: AgentReportView, f: FormatContext): ToolAnswer {
  const { type, page: agents, q } = r;
  const threshold = report.thresholds[type]!;
  const first = (q.pageNum - 1) * q.itemsPerPage + 1;
  const shown = agents.results.length;
  // The verdict counts every agent read; the table keeps those the `silent` filter asks for.
  const checks = r.only?.checks ?? report.checks;
  const only = r.only
    ? `; listed: ${r.only.silent ? 'silent or alerting' : 'reporting'} only (${checks.length})`
    : '';
  const lines = [
    `# ${type} agents of project ${f.names.project(r.projectId)} — ${agents.totalCount} total${shown ? `, showing ${first}–${first + shown - 1}` : ''}; ${agentsVerdict(report, type)}${only}`,
  ];
  const body: string[] = [];
  if (checks.length)
    body.push(
      table(
        reconciledColumns,
        checks.map((c) => reconciledRow(c, f.now)),
      ),
    );
  for (const c of checks) for (const d of c.alerts) body.push(`- ${unmatchedLine(d, f.now, true)}`);
  for (const d of report.unmatched) body.push(`- ${unmatchedLine(d, f.now)}`);
  if (body.length) lines.push(f.fence.notice, f.fence.wrap(body.join('\n')));
  if (!shown)
    lines.push(`No ${type} agents in this project${agents.totalCount ? ` on page ${q.pageNum}` : ''}.`);
  const seen =
    type === 'MONITORING' ? 'last ping' : 'last configuration call (the platform gives no ping for these)';
  lines.push(
    `Silent means no ${seen} for longer than ${threshold.minutes} min (${threshold.from === 'configuration' ? `the ${type}_AGENT_DOWN alert configuration` : 'the default; no alert configuration sets it'}).`,
  );
  if (r.alertsError !== undefined)
    lines.push(
      `Open alerts could not be read (${cell(r.alertsError, 160)}): agent-down alerts are not shown.`,
    );
  else if (r.globalNote) lines.push(r.globalNote);
  const left = agents.totalCount - (first - 1 + shown);
  if (left > 0 && shown > 0) lines.push(`${left} more — call again with pageNum=${q.pageNum + 1}.`);
  lines.push(agentsNext(report));
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
}
