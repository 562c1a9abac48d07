// How the automation plan looks to a person: which processes reached the goal version, and the rest's plan.
import type { Process } from '../../api/types.js';
import { plural } from '../markdown.js';

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
export function automationHeadline(projectId: string, processes: Process[], goalVersion: number): string {
  const done = processes.filter((p) => atGoal(p, goalVersion)).length;
  return `# Automation of project ${projectId} — ${done} of ${plural(processes.length, 'process', 'processes')} at goal version ${goalVersion}`;
}
