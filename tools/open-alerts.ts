// list_open_alerts: a project's open and tracking alerts across all its alert configurations, by cause.
import { z } from 'zod';
import { alertContext, groupByCause, loadOpenAlerts, OPEN_STATUSES } from '../src/feeds/alerts.js';
import { redact } from '../src/format/redact.js';
import {
  ackTool,
  alertCounts,
  alertHeadline,
  fallbackNote,
  groupSummary,
  groupsMarkdown,
} from '../src/format/views/alerts.js';
import { ids, page } from '../src/tool/ids.js';
import { DEFAULT_ROWS, defineTool } from '../src/tool/index.js';

export const listOpenAlerts = defineTool({
  name: 'list_open_alerts',
  title: 'List open alerts of a project',
  description:
    'Lists a project\'s open alerts across all configurations, by cause, with acknowledgement and age. Use for "what is alerting"; for changes too use triage_project.',
  kind: 'read',
  input: {
    projectId: ids.project.optional(),
    status: z
      .enum(OPEN_STATUSES)
      .optional()
      .describe('OPEN, or TRACKING (before the notification delay); default both'),
    responseFormat: page.responseFormat,
  },
  output: {
    projectId: z.string(),
    source: z.enum(['project', 'per-config']),
    totalCount: z.number(),
    trackingCount: z.number(),
    acknowledgedCount: z.number(),
    truncated: z.boolean(),
    groups: z.array(z.looseObject({})),
    alerts: z.array(z.looseObject({})),
  },
  run: async (ctx, args) => {
    const projectId = args.projectId;
    const [r] = await Promise.all([
      loadOpenAlerts(ctx.api, projectId, {
        signal: ctx.signal,
        windows: true,
        statuses: args.status ? [args.status] : OPEN_STATUSES,
        progress: (done, total, message) => ctx.progress(done, total, `read ${message}`),
      }),
      ctx.names.learnKeys({ projectId }, ctx.signal),
    ]);
    return { projectId, ...r };
  },
  format: (r, _args, f) => {
    const groups = groupByCause(r.alerts, r.configs, f.now, alertContext(r));
    const lines = [
      `# Open alerts of project ${f.names.project(r.projectId)} — ${alertHeadline(r.alerts, groups, f.now, r.globalAlertIds)}`,
    ];
    for (const note of [fallbackNote(r.source), r.globalNote]) if (note) lines.push(note);
    if (!r.alerts.length)
      lines.push('Nothing is alerting. triage_project shows recent changes and deployments.');
    else {
      const { body, hidden } = groupsMarkdown(
        groups,
        f.now,
        f.detailed ? Number.MAX_SAFE_INTEGER : DEFAULT_ROWS,
        f.names,
      );
      lines.push(f.fence.notice, f.fence.wrap(body));
      if (hidden)
        lines.push(
          `${hidden} more alerts not shown: list_open_alerts_for_config per configuration, or responseFormat=detailed.`,
        );
      lines.push(
        `Next: ${ackTool(groups)} with an alertId while someone works on it; get_alert_config with an alertConfigId; triage_project for what changed before.`,
      );
    }
    if (r.truncated) lines.push('Some lists were longer than could be read; counts are lower bounds.');
    return {
      text: lines.join('\n'),
      structured: {
        projectId: r.projectId,
        source: r.source,
        ...alertCounts(r.alerts, f.now),
        truncated: r.truncated,
        groups: groups.map(groupSummary),
        alerts: redact(r.alerts),
      },
    };
  },
});

// ---------------------------------------------------------------------------------------------------------

export const openAlertTools = [listOpenAlerts];
