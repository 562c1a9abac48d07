// The automation feed drawn for people and models (dbops://projects/{id}/automation): the processes behind
// the goal, with their plans and errors.
import type { AutomationStatus } from '../../api/types.js';
import { atGoal } from '../../rules/index.js';
import type { FormatContext } from '../answers.js';
import { table } from '../markdown.js';
import { redact } from '../redact.js';
import { automationColumns, automationHeadline, automationRow } from './deployment.js';

export function automationDigest(s: AutomationStatus, projectId: string, f: FormatContext): string {
  const processes = redact(s.processes ?? []);
  const behind = processes.filter((p) => !atGoal(p, s.goalVersion));
  const lines = [automationHeadline(projectId, processes, s.goalVersion)];
  if (behind.length)
    lines.push(f.fence.notice, f.fence.wrap(table(automationColumns, behind.map(automationRow))));
  else lines.push('Every process has deployed the current configuration.');
  return lines.join('\n');
}
