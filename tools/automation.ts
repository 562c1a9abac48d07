// Automation status: which processes have deployed the current configuration (goal version), and for the
// others the plan steps still to run and the error that holds them back.
import { z } from 'zod';
import type { ApiEvent, AutomationStatus, MaintenanceWindow } from '../src/api/client.js';
import { loadWindows } from '../src/feeds/alerts.js';
import { newestFirst } from '../src/feeds/events.js';
import { plural, table } from '../src/format/markdown.js';
import { redact } from '../src/format/redact.js';
import { windowName } from '../src/format/views/alerts.js';
import {
  atGoal,
  automationColumns,
  automationHeadline,
  automationRow,
  stuckWords,
} from '../src/format/views/automation.js';
import { eventWho } from '../src/format/views/events.js';
import { windowState } from '../src/format/views/windows.js';
import { ids, page } from '../src/tool/ids.js';
import { defineTool } from '../src/tool/index.js';

const PUBLISHED = 'AUTOMATION_CONFIG_PUBLISHED_AUDIT';
/** How far back the publish of the current goal is looked for. */
const PUBLISH_LOOKBACK_MS = 30 * 24 * 3_600_000;

interface Read {
  status: AutomationStatus;
  /** The newest publish of the automation configuration, when a process is behind. */
  published?: ApiEvent;
  /** The project's windows; null when the server cannot list them. */
  windows?: MaintenanceWindow[] | null;
}

export const getAutomationStatus = defineTool({
  name: 'get_automation_status',
  title: 'Get automation status',
  description:
    'Processes behind the automation goal: plan, error, publish, window. Use when a deployment seems stuck.',
  kind: 'read',
  input: { projectId: ids.project.optional(), responseFormat: page.responseFormat },
  output: {
    goalVersion: z.number(),
    processCount: z.number(),
    atGoalCount: z.number(),
    processes: z.array(z.looseObject({})),
  },
  run: async (ctx, args): Promise<Read> => {
    const status = await ctx.api.automation.status(args.projectId, ctx.req);
    if ((status.processes ?? []).every((p) => atGoal(p, status.goalVersion))) return { status };
    // Why a process is stuck: the goal's publish (and by whom), and a window in force. Both only explain:
    // failing to read them must not cost the status itself.
    const signal = ctx.signal;
    const from = new Date(ctx.now().getTime() - PUBLISH_LOOKBACK_MS).toISOString();
    // Each read only explains: a failure (or a server without it) leaves it out.
    const quietly = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await read();
      } catch {
        return undefined;
      }
    };
    const [published, windows] = await Promise.all([
      quietly(
        async () =>
          (
            await ctx.api.events.listForProject(
              args.projectId,
              { eventType: [PUBLISHED], minDate: from, itemsPerPage: 100 },
              { signal },
            )
          ).results
            .filter((e) => e.eventTypeName === PUBLISHED)
            .sort(newestFirst)[0],
      ),
      quietly(() => loadWindows(ctx.api, args.projectId, signal)),
      // Keys are named by their description where the organization's keys can be read (who published).
      quietly(() => ctx.names.learnKeys({ projectId: args.projectId }, signal)),
    ]);
    return { status, published, windows };
  },
  format: ({ status: s, published, windows }: Read, args, f) => {
    const processes = redact(s.processes ?? []);
    const behind = processes.filter((p) => !atGoal(p, s.goalVersion));
    const done = processes.filter((p) => atGoal(p, s.goalVersion));
    const lines = [automationHeadline(f.names.project(args.projectId), processes, s.goalVersion)];
    const columns = automationColumns;
    if (behind.length > 0) {
      lines.push(`### Behind the goal (${behind.length})`, f.fence.notice);
      const body = [table(columns, behind.map(automationRow))];
      // Why each is stuck: its error, how long since the goal was published and by whom, a window in force.
      const active = (windows ?? []).filter((w) => windowState(w, f.now) === 'active');
      const pub = published ? { created: published.created, who: eventWho(published, f.names) } : undefined;
      const why = behind.map(
        (p) =>
          `- ${stuckWords(p, { goalVersion: s.goalVersion, published: pub, windows: active.map(windowName), now: f.now })}`,
      );
      lines.push(f.fence.wrap([...body, ...why].join('\n')));
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
