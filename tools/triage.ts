// The triage toolset: what is wrong and why, in one call, and what triage points to (the configuration, the
// automation, the agents, acknowledging an alert). Each tool reads through a feed (src/feeds/) and is drawn by
// a view (src/format/views/): what is here is what the model sees of it, and which feed and view it calls.
import { z } from 'zod';
import { ifSupported } from '../src/api/capabilities.js';
import { readAutomation } from '../src/feeds/automation.js';
import { agentsEverywhere, openAlertsEverywhere } from '../src/feeds/everywhere-lists.js';
import { loadInstallation } from '../src/feeds/installation.js';
import { configChanges, readTriage, triageCauses } from '../src/feeds/triage.js';
import { ackPreview } from '../src/format/views/alerts.js';
import { openAlertsAcross } from '../src/format/views/alerts-all.js';
import { agentsAnswer, automationAnswer } from '../src/format/views/deployment.js';
import { agentsAcross } from '../src/format/views/deployment-all.js';
import { triageAnswer } from '../src/format/views/triage.js';
import { ackAnswer, alertConfigAnswer, openAlertsAnswer } from '../src/format/views/triage-alerts.js';
import { installationAnswer } from '../src/format/views/triage-installation.js';
import {
  alertContext,
  fateOf,
  groupByCause,
  inTrouble,
  loadFateRecords,
  loadOpenAlerts,
  OPEN_STATUSES,
  reconcileAgents,
} from '../src/model/index.js';
import { ackComment, ids, isoTime, page } from '../src/tool/ids.js';
import {
  ALL_PROJECTS,
  acrossQuery,
  DEFAULT_ROWS,
  defineTool,
  listOutput,
  pageQuery,
  recordOutput,
  ToolInputError,
} from '../src/tool/index.js';
import { AGENT_TYPES } from '../src/vocabulary/index.js';

export const triageProject = defineTool({
  name: 'triage_project',
  title: 'Triage a project',
  toolset: 'triage',
  example: {},
  description:
    'One-call triage of a project: open alerts by cause, processes behind the automation goal, silent agents, recent changes and who made them, windows in force. Use first for "what is wrong and why".',
  kind: 'read',
  input: {
    projectId: ids.project.optional(),
    sinceHours: z
      .number()
      .int()
      .min(1)
      .max(720)
      .optional()
      .describe('Hours back to look for changes, default 24'),
    responseFormat: page.responseFormat,
  },
  output: {
    projectId: z.string(),
    projectName: z.string().optional(),
    window: z.looseObject({ since: z.string(), until: z.string(), hours: z.number() }),
    alerts: z.looseObject({}).nullable(),
    automation: z.looseObject({}).nullable(),
    agents: z.looseObject({}).nullable(),
    changes: z.array(z.looseObject({})).nullable(),
    maintenanceWindows: z.array(z.looseObject({})).nullable(),
    timeline: z.array(z.looseObject({})),
    errors: z.array(z.looseObject({ section: z.string(), message: z.string() })),
    /** What could not be checked and why (e.g. a server without global alert configurations). */
    notChecked: z.array(z.string()),
  },
  run: (ctx, args) => readTriage(ctx, args.projectId, args.sinceHours ?? 24),
  format: (t, _args, f) => triageAnswer(t, triageCauses(t, f.now), f),
});

export const triageInstallation = defineTool({
  name: 'triage_installation',
  title: 'Triage the whole installation',
  toolset: 'triage',
  example: {},
  description:
    'Projects ranked by urgency: causes, failing automation, agents; sinceHours: changes. Use for "what is on fire".',
  kind: 'read',
  input: {
    sinceHours: z.number().int().min(1).max(720).optional().describe('What changed in N hours'),
  },
  output: {
    ...listOutput,
  },
  run: (ctx, args) => loadInstallation(ctx, { sinceHours: args.sinceHours }),
  format: (r, _args, f) => installationAnswer(r, f),
});

/** Whether a filter or order of the installation's list was asked for (then one project is listed so too). */
const acrossAsked = (a: { acknowledged?: boolean; paging?: boolean; sort?: string }) =>
  a.acknowledged !== undefined || a.paging !== undefined || a.sort !== undefined;

export const listOpenAlerts = defineTool({
  name: 'list_open_alerts',
  title: 'List open alerts',
  toolset: 'triage',
  example: {},
  description:
    'Open alerts by cause: acknowledged, paging, age; detailed adds targets and raw times. Use for "what is alerting".',
  kind: 'read',
  acrossProjects: true,
  input: {
    projectId: ids.projects.optional(),
    status: z.enum(OPEN_STATUSES).optional().describe('Default both'),
    acknowledged: z.boolean().optional().describe('Filter'),
    paging: z.boolean().optional().describe('Pages now'),
    sort: z.enum(['urgency', 'age']).optional().describe('Default urgency'),
    pageNum: page.pageNum,
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
    const statuses = args.status ? [args.status] : OPEN_STATUSES;
    if (projectId === ALL_PROJECTS || acrossAsked(args))
      return { across: await openAlertsEverywhere(ctx, projectId, { ...args, statuses }) };
    const [r] = await Promise.all([
      loadOpenAlerts(ctx.api, projectId, {
        signal: ctx.signal,
        windows: true,
        fates: true,
        statuses,
        progress: (done, total, message) => ctx.progress(done, total, `read ${message}`),
      }),
      ctx.names.learnKeys({ projectId }, ctx.signal),
    ]);
    return { projectId, ...r, across: undefined };
  },
  format: (r, args, f) =>
    r.across
      ? openAlertsAcross(r.across, acrossQuery(args), args, f)
      : openAlertsAnswer(r, groupByCause(r.alerts, r.configs, f.now, alertContext(r)), f, DEFAULT_ROWS),
});

export const getAlertConfig = defineTool({
  name: 'get_alert_config',
  title: 'Get an alert configuration',
  toolset: 'triage',
  example: { alertConfigId: 'f4339b2088e78cc14aa40033' },
  description:
    'One alert configuration in full: condition, matchers, notification targets (keys masked). Use after list_alert_configs.',
  kind: 'read',
  input: {
    projectId: ids.project.optional(),
    alertConfigId: ids.alertConfig,
    responseFormat: page.responseFormat,
  },
  output: recordOutput,
  run: async (ctx, args) => {
    const [config, changes, records] = await Promise.all([
      ctx.api.alertConfigs.get(args.projectId, args.alertConfigId, ctx.req),
      configChanges(ctx, args.projectId, args.alertConfigId),
      // Its notifications' keys against the project's integrations, and who replaced those when.
      loadFateRecords(ctx.api, args.projectId, ctx.signal),
      // Who changed it may be an API key: named by its description where the keys can be read.
      ctx.names.learnKeys({ projectId: args.projectId }, ctx.signal),
    ]);
    return { config, changes, fate: fateOf([config], [], records, ctx.now(), false) };
  },
  format: ({ config, changes, fate }, args, f) =>
    alertConfigAnswer(config, changes, args.alertConfigId, f, fate),
});

function checkUntil(args: { acknowledgedUntil?: string; forHours?: number }): void {
  if (args.acknowledgedUntil && args.forHours !== undefined)
    throw new ToolInputError('Give either acknowledgedUntil or forHours, not both.');
}

function untilFrom(args: { acknowledgedUntil?: string; forHours?: number }, now: Date): string | undefined {
  if (args.forHours !== undefined) return new Date(now.getTime() + args.forHours * 3_600_000).toISOString();
  return args.acknowledgedUntil;
}

export const acknowledgeAlert = defineTool({
  name: 'acknowledge_alert',
  title: 'Acknowledge or unacknowledge an alert',
  toolset: 'triage',
  example: { alertId: '64b0d39ce21367b4cbafb13c', forHours: 2 },
  description:
    'Acknowledges a project alert until a time; without one, unacknowledges. Use while someone works on the cause; planned work: a maintenance window.',
  kind: 'write',
  checkWith: 'list_open_alerts',
  idempotent: true,
  input: {
    projectId: ids.project.optional(),
    alertId: ids.alert,
    acknowledgedUntil: isoTime('acknowledgedUntil').optional().describe('Until this time; or give forHours'),
    forHours: z.number().positive().max(876_600).optional().describe('Hours from now; 876600 = indefinitely'),
    acknowledgementComment: ackComment,
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
  format: (a, args, f) => ackAnswer(a, args.alertId, f),
});

export const getAutomationStatus = defineTool({
  name: 'get_automation_status',
  title: 'Get automation status',
  toolset: 'triage',
  example: {},
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
  run: (ctx, args) => readAutomation(ctx, args.projectId),
  format: (r, args, f) => automationAnswer(r, f.names.project(args.projectId), f),
});

export const listAgents = defineTool({
  name: 'list_agents',
  title: 'List agents of one type',
  toolset: 'triage',
  example: { agentType: 'MONITORING' },
  description: 'Agents of one type, with agent-down alerts and silence. Use for "is the agent running?".',
  kind: 'read',
  acrossProjects: true,
  input: {
    projectId: ids.projects.optional(),
    agentType: z.enum(AGENT_TYPES).describe('Which agents to list'),
    silent: z.boolean().optional().describe('Silent/alerting'),
    ...page,
  },
  output: {
    ...listOutput,
  },
  run: async (ctx, args) => {
    if (args.projectId === ALL_PROJECTS)
      return { across: await agentsEverywhere(ctx, args.agentType, { silent: args.silent }) };
    const [agents, alerts] = await Promise.all([
      ctx.api.agents.list(args.projectId, args.agentType, pageQuery(args), ctx.req),
      // The alerts only explain the agents: failing to read them must not cost the list.
      loadOpenAlerts(ctx.api, args.projectId, { signal: ctx.signal }).catch((e: unknown) => {
        if (ctx.signal.aborted) throw e;
        return e instanceof Error ? e.message : String(e);
      }),
    ]);
    return { agents, alerts, across: undefined };
  },
  format: ({ agents, alerts, across }, args, f) => {
    if (across)
      return agentsAcross(across, acrossQuery(args), { type: args.agentType, silent: args.silent }, f);
    const read = typeof alerts === 'string' ? undefined : alerts;
    const report = reconcileAgents({
      agents: { [args.agentType]: agents.results },
      alerts: read?.alerts ?? [],
      globalAlertIds: read?.globalAlertIds,
      configs: read?.configs,
      globalConfigs: read?.globalConfigs,
      now: f.now,
    });
    const alertsError = typeof alerts === 'string' ? alerts : undefined;
    const q = pageQuery(args);
    const r = {
      projectId: args.projectId,
      type: args.agentType,
      page: agents,
      q,
      alertsError,
      globalNote: read?.globalNote,
      ...(args.silent === undefined
        ? {}
        : {
            only: { silent: args.silent, checks: report.checks.filter((c) => inTrouble(c) === args.silent) },
          }),
    };
    return agentsAnswer(r, report, f);
  },
});

/** This set's tools, in the order tools/list shows them. */
export const tools = [
  triageProject,
  triageInstallation,
  listOpenAlerts,
  getAlertConfig,
  acknowledgeAlert,
  getAutomationStatus,
  listAgents,
];
