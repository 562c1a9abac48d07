// How the automation plan looks to a person: which processes reached the goal version, and the rest's plan.
import type { Process } from '../../api/types.js';
import { sanitize } from '../../untrusted.js';
import { age, plural } from '../markdown.js';

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
