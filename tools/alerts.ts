// Alerts: the rows a person triages (status, age, host, value vs threshold, ack state) and acknowledgement.
import { z } from 'zod';
import { ifSupported } from '../src/api/capabilities.js';
import type { Alert } from '../src/api/client.js';
import { listAnswer, recordAnswer } from '../src/format/answers.js';
import { when } from '../src/format/markdown.js';
import { ackState, alertWhat, alertWhere, closedNote, globalAlertList } from '../src/format/views/alerts.js';
import { ids, isoTime, page, text } from '../src/tool/ids.js';
import {
  defineTool,
  listOutput,
  type Preview,
  pageQuery,
  recordOutput,
  ToolInputError,
} from '../src/tool/index.js';
import { named } from '../src/untrusted.js';

const comment = text('acknowledgementComment', 200, 0)
  .optional()
  .describe('Why; shown with the acknowledgement');

function checkUntil(args: { acknowledgedUntil?: string; forHours?: number }): void {
  if (args.acknowledgedUntil && args.forHours !== undefined)
    throw new ToolInputError('Give either acknowledgedUntil or forHours, not both.');
}

function untilFrom(args: { acknowledgedUntil?: string; forHours?: number }, now: Date): string | undefined {
  if (args.forHours !== undefined) return new Date(now.getTime() + args.forHours * 3_600_000).toISOString();
  return args.acknowledgedUntil;
}

function ackPreview(
  a: Alert | undefined,
  alertId: string,
  until: string | undefined,
  note: string[],
): Omit<Preview, 'target'> {
  const closed = closedNote(a, alertId);
  if (closed && until) note.push(closed);
  const alert = named(a && `${alertWhat(a)} on ${alertWhere(a)}`, alertId);
  return {
    action: until
      ? `Acknowledge alert ${alert} until ${until}`
      : `Remove the acknowledgement of alert ${alert}`,
    current: a
      ? {
          status: a.status,
          what: alertWhat(a),
          where: alertWhere(a),
          acknowledgedUntil: a.acknowledgedUntil ?? 'not acknowledged',
        }
      : undefined,
    changes: [{ field: 'acknowledgedUntil', from: a?.acknowledgedUntil, to: until ?? '(none)' }],
    notes: note,
  };
}

export const acknowledgeAlert = defineTool({
  name: 'acknowledge_alert',
  title: 'Acknowledge or unacknowledge an alert',
  description:
    'Acknowledges an open project alert until a time, or unacknowledges it without a time. Use while someone works on the cause; for planned work use a maintenance window.',
  kind: 'write',
  checkWith: 'list_open_alerts',
  idempotent: true,
  input: {
    projectId: ids.project.optional(),
    alertId: ids.alert,
    acknowledgedUntil: isoTime('acknowledgedUntil').optional().describe('Until this time; or give forHours'),
    forHours: z.number().positive().max(876_600).optional().describe('Hours from now; 876600 = indefinitely'),
    acknowledgementComment: comment,
  },
  output: recordOutput,
  check: checkUntil,
  preview: async (ctx, args) => {
    const projectId = args.projectId;
    const a = await ifSupported(ctx.api, 'alert', () => ctx.api.alerts.get(projectId, args.alertId, ctx.req));
    const until = untilFrom(args, ctx.now());
    return {
      ...ackPreview(a, args.alertId, until, []),
      target: { project: projectId, alertId: args.alertId },
    };
  },
  run: (ctx, args) => {
    const until = untilFrom(args, ctx.now());
    const body = until
      ? { acknowledgedUntil: until, acknowledgementComment: args.acknowledgementComment }
      : {};
    return ctx.api.alerts.acknowledge(args.projectId, args.alertId, body, ctx.req);
  },
  format: (a, args, f) => {
    const answer = recordAnswer(
      a.acknowledgedUntil
        ? `Alert ${args.alertId} acknowledged`
        : `Alert ${args.alertId} is not acknowledged`,
      a,
      (s) => [
        ['Status', s.status],
        ['What', alertWhat(s)],
        ['Where', alertWhere(s)],
        ['Acknowledged until', when(s.acknowledgedUntil, f.now)],
        ['By', s.acknowledgingUsername],
        ['Comment', s.acknowledgementComment],
      ],
      f,
    );
    const closed = a.acknowledgedUntil ? closedNote(a, args.alertId) : undefined;
    if (closed) answer.text += `\n${closed}`;
    return answer;
  },
});

export const acknowledgeGlobalAlert = defineTool({
  name: 'acknowledge_global_alert',
  title: 'Acknowledge a global alert',
  description:
    'Acknowledges one global alert until a time; a past time unacknowledges. For project alerts use acknowledge_alert.',
  kind: 'write',
  checkWith: 'list_open_global_alerts_for_config',
  idempotent: true,
  input: {
    alertId: ids.globalAlert,
    acknowledgedUntil: isoTime('acknowledgedUntil').describe(
      'A past time unacknowledges; a far-future one acknowledges indefinitely',
    ),
    acknowledgementComment: comment,
  },
  output: recordOutput,
  preview: async (ctx, args) => {
    const a = await ifSupported(ctx.api, 'globalAlert', () =>
      ctx.api.globalAlerts.get(args.alertId, ctx.req),
    );
    const past = Date.parse(args.acknowledgedUntil) <= ctx.now().getTime();
    return {
      ...ackPreview(a, args.alertId, past ? undefined : args.acknowledgedUntil, []),
      target: { globalAlertId: args.alertId },
    };
  },
  run: (ctx, args) =>
    ctx.api.globalAlerts.acknowledge(
      args.alertId,
      { acknowledgedUntil: args.acknowledgedUntil, acknowledgementComment: args.acknowledgementComment },
      ctx.req,
    ),
  format: (a, args, f) =>
    recordAnswer(
      `Global alert ${args.alertId}`,
      a,
      (s) => [
        ['Status', s.status],
        ['What', alertWhat(s)],
        ['Where', alertWhere(s)],
        ['Acknowledged', ackState(s, f.now, f.names)],
        ['Comment', s.acknowledgementComment],
      ],
      f,
    ),
});

export const listOpenGlobalAlertsForConfig = defineTool({
  name: 'list_open_global_alerts_for_config',
  title: 'List open alerts of a global alert configuration',
  description:
    'Lists the open alerts of one global alert configuration (needs a global key). Use after list_global_alert_configs.',
  kind: 'read',
  input: { globalAlertConfigId: ids.globalAlertConfig, ...page },
  output: listOutput,
  run: (ctx, args) => ctx.api.globalAlerts.listForConfig(args.globalAlertConfigId, pageQuery(args), ctx.req),
  format: (result, args, f) =>
    listAnswer(
      result,
      pageQuery(args),
      {
        title: `Open alerts of global alert configuration ${args.globalAlertConfigId}`,
        // A global configuration spans projects: which project each alert is in is the first question.
        ...globalAlertList,
        next: 'acknowledge_global_alert with an alertId',
        empty: 'No open alerts for this global configuration.',
      },
      f,
    ),
});

export const alertTools = [acknowledgeAlert, acknowledgeGlobalAlert, listOpenGlobalAlertsForConfig];
