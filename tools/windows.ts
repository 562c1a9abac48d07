// The windows toolset: maintenance windows — list, read, create, change, delete — and what each silences.
import { z } from 'zod';
import type { MaintenanceWindow } from '../src/api/client.js';
import { ApiError } from '../src/api/errors.js';
import { windowsEverywhere } from '../src/feeds/everywhere-lists.js';
import { whatGoesQuiet, windowsNextTo } from '../src/feeds/windows.js';
import { listAnswer } from '../src/format/answers.js';
import {
  windowAnswer,
  windowCreatedAnswer,
  windowCreatePreview,
  windowDeletedAnswer,
  windowDeletePreview,
  windowList,
  windowUpdatedAnswer,
  windowUpdatePreview,
} from '../src/format/views/windows.js';
import { windowsAcross } from '../src/format/views/windows-all.js';
import { windowState } from '../src/rules/index.js';
import { ids, isoTime, page, text, typeName, upTo } from '../src/tool/ids.js';
import {
  ALL_PROJECTS,
  acrossQuery,
  defineTool,
  listOutput,
  type Preview,
  pageQuery,
  recordOutput,
  type ToolContext,
  ToolInputError,
} from '../src/tool/index.js';

const alertTypeNames = upTo(
  typeName('alert type names are upper case, e.g. HOST or REPLICA_SET'),
  50,
  'alertTypeNames',
)
  .min(1)
  .describe('Alert types to mute, e.g. HOST, REPLICA_SET, BACKUP');

const description = text('description', 1000, 0).describe('Why; shown to everyone in the project');

/**
 * Reads one window. The API answers MAINTENANCE_WINDOW_NOT_FOUND for a window that has ended, too: the
 * message says so, or a person looks for a typo in an id that was right.
 */
async function readWindow(ctx: ToolContext, projectId: string, windowId: string): Promise<MaintenanceWindow> {
  try {
    return await ctx.api.maintenanceWindows.get(projectId, windowId, ctx.req);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404 && e.errorCode === 'MAINTENANCE_WINDOW_NOT_FOUND')
      throw e.withAdvice(
        'A window that has ended can no longer be read, changed or deleted, so it may simply have ended. list_maintenance_windows shows the active and upcoming ones.',
      );
    throw e;
  }
}

/** Silencing pages is a risk whatever the verb: such a window asks the person first (their own consent). */
const pagingRisk = (p: Preview) => (Number(p.proposed?.pagesSilenced ?? 0) > 0 ? 'destructive' : 'write');

function checkDates(start: string | undefined, end: string | undefined, now: Date): void {
  if (start && end && Date.parse(start) >= Date.parse(end))
    throw new ToolInputError('startDate must be before endDate.');
  if (end && Date.parse(end) <= now.getTime())
    throw new ToolInputError(
      'endDate is in the past: a maintenance window must end in the future. Pick a later endDate.',
    );
}

export const listMaintenanceWindows = defineTool({
  name: 'list_maintenance_windows',
  title: 'List maintenance windows',
  toolset: 'windows',
  example: {},
  description: `Active and upcoming maintenance windows, soonest first: when, what they mute, why. Use for planned work or silenced alerts.`,
  beyondSpec: true,
  kind: 'read',
  acrossProjects: true,
  input: {
    projectId: ids.projects.optional(),
    state: z.enum(['active', 'upcoming']).optional().describe('active: in force'),
    startsWithinHours: z.number().int().min(1).max(8_760).optional().describe('Upcoming, starting this soon'),
    ...page,
  },
  output: listOutput,
  run: async (ctx, args) =>
    args.projectId === ALL_PROJECTS || args.state !== undefined || args.startsWithinHours !== undefined
      ? { across: await windowsEverywhere(ctx, args.projectId, args) }
      : { page: await ctx.api.maintenanceWindows.list(args.projectId, pageQuery(args), ctx.req) },
  format: ({ page: result, across }, args, f) =>
    across
      ? windowsAcross(across, acrossQuery(args), args, f)
      : listAnswer(
          result!,
          pageQuery(args),
          {
            title: `Maintenance windows of project ${f.names.project(args.projectId)}`,
            ...windowList,
            next: 'update_maintenance_window or delete_maintenance_window with a maintenanceWindowId',
            empty: 'No active or upcoming maintenance windows. create_maintenance_window adds one.',
          },
          f,
        ),
});

export const getMaintenanceWindow = defineTool({
  name: 'get_maintenance_window',
  title: 'Get a maintenance window',
  toolset: 'windows',
  example: { maintenanceWindowId: 'ebb313b9c657c7947e3e60aa' },
  description:
    'One maintenance window: state, times, muted alert types, description. Use after list_maintenance_windows.',
  kind: 'read',
  input: {
    projectId: ids.project.optional(),
    maintenanceWindowId: ids.window,
    responseFormat: page.responseFormat,
  },
  output: recordOutput,
  run: (ctx, args) => readWindow(ctx, args.projectId, args.maintenanceWindowId),
  format: (w, args, f) => windowAnswer(w, args.maintenanceWindowId, f),
});

export const createMaintenanceWindow = defineTool({
  name: 'create_maintenance_window',
  title: 'Create a maintenance window',
  toolset: 'windows',
  example: (at) => ({
    startDate: at(10),
    endDate: at(12),
    alertTypeNames: ['HOST'],
    description: 'Kernel patching',
  }),
  description: `Mutes alert types project-wide from startDate to endDate. Use for planned work; for one alert, acknowledge_alert.`,
  beyondSpec: true,
  kind: 'write',
  maxKind: 'destructive',
  asksWhen: 'if it silences paging alerts',
  checkWith: 'list_maintenance_windows',
  input: {
    projectId: ids.project.optional(),
    startDate: isoTime('startDate').describe('When muting begins'),
    endDate: isoTime('endDate').describe('When muting ends; after startDate, in the future'),
    alertTypeNames,
    description: description.optional(),
  },
  output: recordOutput,
  check: (args, now) => checkDates(args.startDate, args.endDate, now),
  kindFromPreview: pagingRisk,
  preview: async (ctx, args) => {
    const now = ctx.now();
    const [quiet, next] = await Promise.all([
      whatGoesQuiet(ctx, args.projectId, args.alertTypeNames),
      windowsNextTo(ctx, args.projectId, args),
    ]);
    return windowCreatePreview(args, quiet, ctx.names.project(args.projectId), now, next);
  },
  run: async (ctx, args) => {
    const w = await ctx.api.maintenanceWindows.create(
      args.projectId,
      {
        startDate: args.startDate,
        endDate: args.endDate,
        alertTypeNames: args.alertTypeNames,
        description: args.description,
      },
      ctx.req,
    );
    return { w, next: await windowsNextTo(ctx, args.projectId, w) };
  },
  format: ({ w, next }, _args, f) => windowCreatedAnswer(w, f, next),
});

export const updateMaintenanceWindow = defineTool({
  name: 'update_maintenance_window',
  title: 'Update a maintenance window',
  toolset: 'windows',
  example: (at) => ({ maintenanceWindowId: 'ebb313b9c657c7947e3e60aa', endDate: at(48) }),
  description:
    'Moves, extends or shortens a maintenance window, or changes what it mutes. Use to adjust planned work.',
  kind: 'write',
  maxKind: 'destructive',
  asksWhen: 'if it silences more paging alerts',
  checkWith: 'get_maintenance_window',
  idempotent: true,
  input: {
    projectId: ids.project.optional(),
    maintenanceWindowId: ids.window,
    startDate: isoTime('startDate').optional().describe('New start'),
    endDate: isoTime('endDate').optional().describe('New end, in the future'),
    alertTypeNames: alertTypeNames.optional(),
    description: description.optional(),
  },
  output: recordOutput,
  check: checkUpdate,
  kindFromPreview: pagingRisk,
  preview: async (ctx, args) => {
    const projectId = args.projectId;
    const body = updateBody(args);
    const w = await readWindow(ctx, projectId, args.maintenanceWindowId);
    const start = body.startDate ?? w.startDate;
    const end = body.endDate ?? w.endDate;
    if (start && end && Date.parse(start) >= Date.parse(end))
      throw new ToolInputError(
        `The window would start after it ends (start ${start}, end ${end}); change both dates together.`,
      );
    const now = ctx.now();
    const types = body.alertTypeNames ?? w.alertTypeNames ?? [];
    const [quiet, next] = await Promise.all([
      whatGoesQuiet(ctx, projectId, types),
      windowsNextTo(ctx, projectId, { id: w.id, startDate: start, endDate: end }),
    ]);
    // Widening: new types, an earlier start or a later end. Pages it silences that it did not before, or
    // silences for longer, ask first; narrowing never does.
    const oldTypes = w.alertTypeNames ?? [];
    const later = (a?: string, b?: string) => Boolean(a && b && Date.parse(a) > Date.parse(b));
    const widens =
      types.some((t) => !oldTypes.includes(t)) || later(end, w.endDate) || later(w.startDate, start);
    const change = { ...args, body, start, end, types, widens };
    return windowUpdatePreview(w, change, quiet, ctx.names.project(projectId), now, next);
  },
  run: async (ctx, args) => {
    const w = await ctx.api.maintenanceWindows.update(
      args.projectId,
      args.maintenanceWindowId,
      updateBody(args),
      ctx.req,
    );
    return { w, next: await windowsNextTo(ctx, args.projectId, { ...w, id: args.maintenanceWindowId }) };
  },
  format: ({ w, next }, args, f) => windowUpdatedAnswer(w, args.maintenanceWindowId, f, next),
});

type WindowUpdate = { startDate?: string; endDate?: string; alertTypeNames?: string[]; description?: string };

function checkUpdate(args: WindowUpdate, now: Date): void {
  if (!args.startDate && !args.endDate && !args.alertTypeNames)
    throw new ToolInputError(
      'Give at least one of startDate, endDate or alertTypeNames (description alone cannot be changed).',
    );
  checkDates(args.startDate, args.endDate, now);
}

function updateBody(args: WindowUpdate) {
  const { startDate, endDate, alertTypeNames, description } = args;
  return { startDate, endDate, alertTypeNames, description };
}

export const deleteMaintenanceWindow = defineTool({
  name: 'delete_maintenance_window',
  title: 'Delete a maintenance window',
  toolset: 'windows',
  example: { maintenanceWindowId: 'ebb313b9c657c7947e3e60aa' },
  description:
    'Deletes an active or upcoming maintenance window; muted notifications resume at once. Use to end or cancel planned work.',
  kind: 'destructive',
  checkWith: 'list_maintenance_windows',
  idempotent: true,
  input: { projectId: ids.project.optional(), maintenanceWindowId: ids.window },
  output: { deleted: z.boolean(), maintenanceWindowId: z.string(), state: z.string().optional() },
  preview: async (ctx, args) => {
    const w = await readWindow(ctx, args.projectId, args.maintenanceWindowId);
    return windowDeletePreview(w, args, ctx.names.project(args.projectId), ctx.now());
  },
  run: async (ctx, args) => {
    const projectId = args.projectId;
    // Its state before the delete decides what the answer may claim (an upcoming window muted nothing).
    const w = await readWindow(ctx, projectId, args.maintenanceWindowId);
    await ctx.api.maintenanceWindows.delete(projectId, args.maintenanceWindowId, ctx.req);
    return { deleted: true, maintenanceWindowId: args.maintenanceWindowId, state: windowState(w, ctx.now()) };
  },
  format: (r) => windowDeletedAnswer(r),
});

/** This set's tools, in the order tools/list shows them. */
export const tools = [
  listMaintenanceWindows,
  getMaintenanceWindow,
  createMaintenanceWindow,
  updateMaintenanceWindow,
  deleteMaintenanceWindow,
];
