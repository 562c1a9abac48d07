// The alerts toolset: alert configurations (project and global), their open alerts, matcher field names and
// acknowledging global alerts.

import { z } from 'zod';
import { ifSupported } from '../src/api/capabilities.js';
import { alertConfigsEverywhere } from '../src/feeds/everywhere-lists.js';
import { listAnswer } from '../src/format/answers.js';
import {
  ackPreview,
  alertList,
  configList,
  globalAlertList,
  globalConfigList,
} from '../src/format/views/alerts.js';
import { configsAcross } from '../src/format/views/alerts-all.js';
import {
  enabledAnswer,
  enabledPreview,
  globalAckAnswer,
  matcherNamesAnswer,
} from '../src/format/views/alerts-answers.js';
import { ackComment, ids, isoTime, page } from '../src/tool/ids.js';
import {
  ALL_PROJECTS,
  acrossQuery,
  defineTool,
  listOutput,
  pageQuery,
  recordOutput,
} from '../src/tool/index.js';

export const listGlobalAlertConfigs = defineTool({
  name: 'list_global_alert_configs',
  title: 'List global alert configurations',
  toolset: 'alerts',
  example: {},
  description: `Installation-wide alert configurations. Use for globalAlertConfigId values.`,
  beyondSpec: true,
  kind: 'read',
  input: { ...page },
  output: listOutput,
  run: (ctx, args) => ctx.api.globalAlerts.listConfigs(pageQuery(args), ctx.req),
  format: (result, args, f) =>
    listAnswer(
      result,
      pageQuery(args),
      {
        title: 'Global alert configurations',
        ...globalConfigList,
        next: 'list_open_global_alerts_for_config with a globalAlertConfigId',
        empty: 'No global alert configurations.',
      },
      f,
    ),
});

export const listAlertConfigs = defineTool({
  name: 'list_alert_configs',
  title: 'List alert configurations',
  toolset: 'alerts',
  example: {},
  description:
    'Alert configurations: type, enabled, condition, targets, who disabled. Use for alertConfigId.',
  kind: 'read',
  acrossProjects: true,
  input: {
    projectId: ids.projects.optional(),
    enabled: z.boolean().optional().describe('Filter'),
    ...page,
  },
  output: listOutput,
  run: async (ctx, args) =>
    args.projectId === ALL_PROJECTS || args.enabled !== undefined
      ? { across: await alertConfigsEverywhere(ctx, args.projectId, { enabled: args.enabled }) }
      : { page: await ctx.api.alertConfigs.list(args.projectId, pageQuery(args), ctx.req) },
  format: ({ page: result, across }, args, f) =>
    across
      ? configsAcross(across, acrossQuery(args), args.enabled, f)
      : listAnswer(
          result!,
          pageQuery(args),
          {
            title: `Alert configurations of project ${f.names.project(args.projectId)}`,
            ...configList,
            next: 'get_alert_config for details, list_open_alerts_for_config for its open alerts',
            empty: 'This project has no alert configurations.',
          },
          f,
        ),
});

export const setAlertConfigEnabled = defineTool({
  name: 'set_alert_config_enabled',
  title: 'Enable or disable an alert configuration',
  toolset: 'alerts',
  example: { alertConfigId: 'f4339b2088e78cc14aa40033', enabled: false },
  description:
    'Enables or disables one alert configuration. Disabling silences its alerts for good; to silence for a time use a maintenance window.',
  kind: (args) => (args.enabled ? 'write' : 'destructive'),
  asksWhen: 'when disabling',
  checkWith: 'get_alert_config',
  maxKind: 'destructive',
  idempotent: true,
  input: {
    projectId: ids.project.optional(),
    alertConfigId: ids.alertConfig,
    enabled: z.boolean().describe('true enables, false disables'),
  },
  output: recordOutput,
  preview: async (ctx, args) => {
    const current = await ctx.api.alertConfigs.get(args.projectId, args.alertConfigId, {
      signal: ctx.signal,
    });
    return enabledPreview(current, args);
  },
  run: (ctx, args) =>
    ctx.api.alertConfigs.setEnabled(args.projectId, args.alertConfigId, args.enabled, {
      signal: ctx.signal,
    }),
  format: (c, args, f) => enabledAnswer(c, args.alertConfigId, f),
});

export const listOpenAlertsForConfig = defineTool({
  name: 'list_open_alerts_for_config',
  title: 'List open alerts of an alert configuration',
  toolset: 'alerts',
  example: { alertConfigId: 'f4339b2088e78cc14aa40033' },
  description:
    'Open alerts of one alert configuration: status, age, host, value, acknowledgement. For a whole project use list_open_alerts.',
  kind: 'read',
  input: { projectId: ids.project.optional(), alertConfigId: ids.alertConfig, ...page },
  output: listOutput,
  run: async (ctx, args) =>
    (
      await Promise.all([
        ctx.api.alertConfigs.listOpenAlerts(args.projectId, args.alertConfigId, pageQuery(args), ctx.req),
        ctx.names.learnAlertConfig(args.projectId, args.alertConfigId, ctx.signal),
      ])
    )[0],
  format: (result, args, f) =>
    listAnswer(
      result,
      pageQuery(args),
      {
        title: `Open alerts of alert configuration ${f.names.alertConfig(args.alertConfigId)}`,
        ...alertList,
        next: 'acknowledge_alert with an alertId to silence one while you work on it',
        empty: 'No open alerts for this configuration.',
      },
      f,
    ),
});

export const listMatcherFieldNames = defineTool({
  name: 'list_matcher_field_names',
  title: 'List matcher field names',
  toolset: 'alerts',
  example: {},
  description:
    'Field names alert-configuration matchers accept (e.g. HOSTNAME, REPLICA_SET_NAME). Rarely needed.',
  kind: 'read',
  input: {},
  output: { fieldNames: z.array(z.string()) },
  run: (ctx) => ctx.api.alertConfigs.matcherFieldNames(ctx.req),
  format: (names, _args, f) => matcherNamesAnswer(names, f),
});

export const acknowledgeGlobalAlert = defineTool({
  name: 'acknowledge_global_alert',
  title: 'Acknowledge a global alert',
  toolset: 'alerts',
  example: (at) => ({ alertId: 'cf5cf29c7301c6845ca34f76', acknowledgedUntil: at(24) }),
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
    acknowledgementComment: ackComment,
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
  format: (a, args, f) => globalAckAnswer(a, args.alertId, f),
});

export const listOpenGlobalAlertsForConfig = defineTool({
  name: 'list_open_global_alerts_for_config',
  title: 'List open alerts of a global alert configuration',
  toolset: 'alerts',
  example: { globalAlertConfigId: 'fee3632e5fbb12c72c863c81' },
  description:
    'Open alerts of one global alert configuration (needs a global key). Use after list_global_alert_configs.',
  kind: 'read',
  input: { globalAlertConfigId: ids.globalAlertConfig, ...page },
  output: listOutput,
  run: async (ctx, args) => {
    const r = await ctx.api.globalAlerts.listForConfig(args.globalAlertConfigId, pageQuery(args), ctx.req);
    await ctx.names.learnProjects(
      r.results.flatMap((a) => (a.groupId ? [a.groupId] : [])),
      ctx.signal,
    );
    return r;
  },
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

/** This set's tools, in the order tools/list shows them. */
export const tools = [
  listAlertConfigs,
  setAlertConfigEnabled,
  listOpenAlertsForConfig,
  listMatcherFieldNames,
  listGlobalAlertConfigs,
  acknowledgeGlobalAlert,
  listOpenGlobalAlertsForConfig,
];
