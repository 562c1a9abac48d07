// How the automation plan looks to a person: which processes reached the goal version, and the rest's plan.
import type { Process } from '../../api/client.js';

export const atGoal = (p: Process, goal: number) => p.lastGoalVersionAchieved === goal;

export const automationRow = (p: Process) => [
  p.name,
  p.hostname,
  p.lastGoalVersionAchieved,
  (p.plan ?? []).join(' → ') || '—',
  p.errorCodeHumanReadable || (p.errorCode ? `error ${p.errorCode}` : ''),
];
