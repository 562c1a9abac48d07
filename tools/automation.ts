// Automation status: which processes have deployed the current configuration (goal version), and for the
// others the plan steps still to run and the error that holds them back.
import { z } from 'zod';
import type { AutomationStatus } from '../src/api/client.js';
import { plural, table } from '../src/format/markdown.js';
import { redact } from '../src/format/redact.js';
import {
  atGoal,
  automationColumns,
  automationHeadline,
  automationRow,
} from '../src/format/views/automation.js';
import { ids, page } from '../src/tool/ids.js';
import { defineTool } from '../src/tool/index.js';

export const getAutomationStatus = defineTool({
  name: 'get_automation_status',
  title: 'Get automation status',
  description:
    "Shows which of a project's processes reached the automation goal; for the rest, the remaining plan and error. Use when a deployment seems stuck.",
  kind: 'read',
  input: { projectId: ids.project.optional(), responseFormat: page.responseFormat },
  output: {
    goalVersion: z.number(),
    processCount: z.number(),
    atGoalCount: z.number(),
    processes: z.array(z.looseObject({})),
  },
  run: (ctx, args) => ctx.api.automation.status(args.projectId, ctx.req),
  format: (s: AutomationStatus, args, f) => {
    const processes = redact(s.processes ?? []);
    const behind = processes.filter((p) => !atGoal(p, s.goalVersion));
    const done = processes.filter((p) => atGoal(p, s.goalVersion));
    const lines = [automationHeadline(args.projectId, processes, s.goalVersion)];
    const columns = automationColumns;
    if (behind.length > 0) {
      lines.push(`### Behind the goal (${behind.length})`, f.fence.notice);
      lines.push(f.fence.wrap(table(columns, behind.map(automationRow))));
      const detail = behind.filter((p) => p.errorString || p.errorCodeDescription);
      if (f.detailed && detail.length)
        lines.push(
          f.fence.wrap(
            detail.map((p) => `${p.name}: ${p.errorCodeDescription ?? ''} ${p.errorString ?? ''}`).join('\n'),
          ),
        );
    }
    if (done.length > 0) {
      if (f.detailed) {
        lines.push(`### At the goal (${done.length})`);
        if (behind.length === 0) lines.push(f.fence.notice);
        lines.push(
          f.fence.wrap(
            table(
              columns.slice(0, 3),
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
  },
});

export const automationTools = [getAutomationStatus];
