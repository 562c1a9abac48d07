// Alert configurations: what raises alerts in a project, and the switch to enable or disable one.
import { z } from 'zod';
import type { AlertConfig, ApiEvent } from '../src/api/client.js';
import { type FormatContext, listAnswer, recordAnswer } from '../src/format/answers.js';
import { fields, when } from '../src/format/markdown.js';
import { condition, configList, configName, matcherSummary } from '../src/format/views/alert-configs.js';
import { alertList } from '../src/format/views/alerts.js';
import { eventWho, whatChanged } from '../src/format/views/events.js';
import { ids, page } from '../src/tool/ids.js';
import { defineTool, listOutput, pageQuery, recordOutput, type ToolContext } from '../src/tool/index.js';
import { named } from '../src/untrusted.js';

export const listAlertConfigs = defineTool({
  name: 'list_alert_configs',
  title: 'List alert configurations',
  description:
    "Lists a project's alert configurations: event type, enabled, condition, targets. Use for alertConfigId values.",
  kind: 'read',
  input: { projectId: ids.project.optional(), ...page },
  output: listOutput,
  run: (ctx, args) => ctx.api.alertConfigs.list(args.projectId, pageQuery(args), ctx.req),
  format: (result, args, f) =>
    listAnswer(
      result,
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

const TIMING = new Set(['typeName', 'delayMin', 'intervalMin', 'links']);

/** Each notification with its target and timing: "EMAIL to oncall@example.com after 5 min, every 60 min". */
const notifyTargets = (c: AlertConfig) =>
  (c.notifications ?? []).map((n) => {
    const r = n as Record<string, unknown>;
    // Targets as sent (the record is redacted first: keys show their last 4 characters only).
    const to = Object.entries(r)
      .filter(([k, v]) => !TIMING.has(k) && v !== undefined && v !== null && v !== '')
      .flatMap(([k, v]) => {
        // Lists of plain values (the roles a GROUP or ORG notification pages) are who gets paged.
        if (Array.isArray(v))
          return v.length > 0 && v.every((x) => typeof x !== 'object') ? [`${k} ${v.join(', ')}`] : [];
        if (typeof v === 'object') return [];
        return [/address|username|name$/i.test(k) ? String(v) : `${k} ${String(v)}`];
      })
      .join(', ');
    const after = n.delayMin ? ` after ${n.delayMin} min` : '';
    const every = r.intervalMin ? `, every ${r.intervalMin} min` : '';
    return `${n.typeName ?? '?'}${to ? ` to ${to}` : ''}${after}${every}`;
  });

export const getAlertConfig = defineTool({
  name: 'get_alert_config',
  title: 'Get an alert configuration',
  description:
    'Shows one alert configuration in full: condition, matchers, notification targets (keys masked). Use after list_alert_configs.',
  kind: 'read',
  input: {
    projectId: ids.project.optional(),
    alertConfigId: ids.alertConfig,
    responseFormat: page.responseFormat,
  },
  output: recordOutput,
  run: async (ctx, args) => {
    const [config, changes] = await Promise.all([
      ctx.api.alertConfigs.get(args.projectId, args.alertConfigId, ctx.req),
      changesOf(ctx, args.projectId, args.alertConfigId),
      // Who changed it may be an API key: named by its description where the keys can be read.
      ctx.names.learnKeys({ projectId: args.projectId }, ctx.signal),
    ]);
    return { config, changes };
  },
  format: ({ config: c, changes }, args, f) => {
    const last = changes?.[0];
    const answer = recordAnswer(
      `Alert configuration ${named(configName(c), args.alertConfigId)}`,
      c,
      (s) => [
        ['Event type', s.eventTypeName],
        ['Enabled', s.enabled === undefined ? undefined : s.enabled ? 'yes' : 'no'],
        ['Condition', condition(s)],
        ['Matchers', matcherSummary(s)],
        ['Notifications', notifyTargets(s).join('; ')],
        ['Updated', updatedLine(s.updated, last, f)],
      ],
      f,
      `list_open_alerts_for_config with alertConfigId=${args.alertConfigId}; set_alert_config_enabled to switch it; list_project_events with target=${args.alertConfigId} for every change`,
    );
    return answer;
  },
});

/** The change events a configuration's own "updated" must agree with. */
const CONFIG_CHANGES = [
  'ALERT_CONFIG_CHANGED_AUDIT',
  'ALERT_CONFIG_ENABLED_AUDIT',
  'ALERT_CONFIG_DISABLED_AUDIT',
];

/** This configuration's change events, newest first; undefined when the events cannot be read. */
async function changesOf(ctx: ToolContext, projectId: string, alertConfigId: string) {
  try {
    const page = await ctx.api.events.listForProject(
      projectId,
      { eventType: CONFIG_CHANGES, itemsPerPage: 500 },
      ctx.req,
    );
    return page.results
      .filter((e) => e.alertConfigId === alertConfigId)
      .sort((a, b) => (Date.parse(b.created ?? '') || 0) - (Date.parse(a.created ?? '') || 0));
  } catch (e) {
    ctx.logger.debug('change events not readable; Updated shows the platform field alone', {
      error: String(e),
    });
    return undefined;
  }
}

/**
 * When it last changed, never contradicting its own change events: the later of the platform's `updated` and
 * the newest change event, with who made that change.
 */
function updatedLine(updated: string | undefined, last: ApiEvent | undefined, f: FormatContext) {
  const u = Date.parse(updated ?? '') || 0;
  const e = Date.parse(last?.created ?? '') || 0;
  if (!last || u > e) return updated && when(updated, f.now);
  const who = eventWho(last, f.names);
  const change = whatChanged(last);
  return `${when(last.created, f.now)}${who ? ` by ${who}` : ''} (${last.eventTypeName}${change ? `: ${change}` : ''}, eventId ${last.id})`;
}

export const setAlertConfigEnabled = defineTool({
  name: 'set_alert_config_enabled',
  title: 'Enable or disable an alert configuration',
  description:
    'Enables or disables one alert configuration. Disabling silences its alerts for good; to silence for a time use a maintenance window.',
  kind: (args) => (args.enabled ? 'write' : 'destructive'),
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
    return {
      action: `${args.enabled ? 'Enable' : 'Disable'} alert configuration ${named(configName(current), args.alertConfigId)}`,
      target: { project: args.projectId, alertConfigId: args.alertConfigId },
      current: { eventType: current.eventTypeName, enabled: current.enabled, condition: condition(current) },
      changes: [{ field: 'enabled', from: current.enabled, to: args.enabled }],
      notes: args.enabled
        ? []
        : ['While disabled, this configuration raises no alerts and sends no notifications.'],
    };
  },
  run: (ctx, args) =>
    ctx.api.alertConfigs.setEnabled(args.projectId, args.alertConfigId, args.enabled, {
      signal: ctx.signal,
    }),
  format: (c, args, f) =>
    recordAnswer(
      `Alert configuration ${named(configName(c), args.alertConfigId)} is now ${c.enabled ? 'enabled' : 'disabled'}`,
      c,
      (s) => [
        ['Event type', s.eventTypeName],
        ['Condition', condition(s)],
      ],
      f,
    ),
});

export const listOpenAlertsForConfig = defineTool({
  name: 'list_open_alerts_for_config',
  title: 'List open alerts of an alert configuration',
  description:
    'Lists the open alerts of one alert configuration: status, age, host, value, acknowledgement. For a whole project use list_open_alerts.',
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
  description:
    'Lists the field names alert-configuration matchers accept (e.g. HOSTNAME, REPLICA_SET_NAME). Rarely needed.',
  kind: 'read',
  input: {},
  output: { fieldNames: z.array(z.string()) },
  run: (ctx) => ctx.api.alertConfigs.matcherFieldNames(ctx.req),
  format: (names, _args, f) => ({
    text: `# Matcher field names — ${names.length}\n${f.fence.wrap(fields([['Field names', names]]))}`,
    structured: { fieldNames: names },
  }),
});

export const alertConfigTools = [
  listAlertConfigs,
  getAlertConfig,
  setAlertConfigEnabled,
  listOpenAlertsForConfig,
  listMatcherFieldNames,
];
