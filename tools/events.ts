// The events toolset: what changed and who did it, in a project and across the installation.
import { z } from 'zod';
import { projectTargets, searched, type Targets } from '../src/feeds/event-search.js';
import { eventsEverywhere } from '../src/feeds/everywhere-lists.js';
import { type History, loadHistory } from '../src/feeds/history.js';
import { findHosts } from '../src/feeds/names.js';
import { eventAnswer, eventsAnswer, noTargets } from '../src/format/views/events.js';
import { eventFilterWords, eventsAcross } from '../src/format/views/events-all.js';
import { historyAnswer } from '../src/format/views/events-history.js';
import { ids, isoTime, page, text, typeName, upTo } from '../src/tool/ids.js';
import {
  ALL_PROJECTS,
  acrossQuery,
  defineTool,
  listOutput,
  pageQuery,
  recordOutput,
  ToolInputError,
} from '../src/tool/index.js';

const filters = {
  eventType: upTo(typeName('event type names are upper case, e.g. HOST_DOWN'), 20, 'eventType')
    .min(1)
    .optional()
    .describe('e.g. HOST_DOWN'),
  minDate: isoTime('minDate').optional().describe('Earliest'),
  maxDate: isoTime('maxDate').optional().describe('Latest'),
  who: text('who', 200).optional().describe('Username or public key'),
  target: text('target', 200).optional().describe('Id or name it is about'),
};

function checkRange(args: { minDate?: string; maxDate?: string }): void {
  if (args.minDate && args.maxDate && Date.parse(args.minDate) > Date.parse(args.maxDate))
    throw new ToolInputError('minDate must not be after maxDate.');
}

/** The tool's read, with the keys' descriptions learned alongside (a failed look-up never fails the call). */
const withKeys = async <T>(keys: Promise<void>, read: Promise<T>): Promise<T> =>
  (await Promise.all([read, keys]))[0];

export const listProjectEvents = defineTool({
  name: 'list_project_events',
  title: 'List project events',
  toolset: 'events',
  example: {},
  description:
    'Events, newest first. Use for "what changed, who did it"; with history, "did it happen before": outages and alerts as episodes.',
  kind: 'read',
  acrossProjects: true,
  input: {
    projectId: ids.projects.optional(),
    ...filters,
    history: z.boolean().optional().describe('As episodes'),
    includeRaw: z.boolean().optional().describe('Raw documents (large)'),
    ...page,
  },
  output: listOutput,
  check: (args) => {
    checkRange(args);
    if (args.projectId === ALL_PROJECTS && (args.who || args.target || args.history))
      throw new ToolInputError(
        'who, target and history search one project; with projectId "all" narrow by eventType, minDate and maxDate.',
      );
  },
  run: async (ctx, args): Promise<EventsRead> => {
    const { eventType, minDate, maxDate, includeRaw } = args;
    if (args.projectId === ALL_PROJECTS) {
      const q = acrossQuery(args);
      const rows = q.pageNum * q.itemsPerPage;
      return { across: await eventsEverywhere(ctx, { eventType, minDate, maxDate, rows }) };
    }
    if (args.history)
      return {
        history: await loadHistory(ctx.api, args.projectId, {
          host: args.target,
          minDate,
          maxDate,
          signal: ctx.signal,
        }),
      };
    const keys = ctx.names.learnKeys({ projectId: args.projectId }, ctx.signal);
    // Names first when searching by target (a condition or description may be what was given).
    const targetsP = projectTargets(ctx, args.projectId);
    const targets = args.target ? await targetsP : noTargets;
    const page = await withKeys(
      keys,
      searched(
        (q, signal) =>
          ctx.api.events.listForProject(
            args.projectId,
            { eventType, minDate, maxDate, includeRaw, ...q },
            { signal },
          ),
        args,
        ctx.signal,
        targets,
      ),
    );
    // Nothing matched: if a host was meant, the names near what was typed (the resolver's).
    const near =
      args.target && page.totalCount === 0
        ? (
            await findHosts(ctx.api, args.target, { projectId: args.projectId, signal: ctx.signal }).catch(
              () => undefined,
            )
          )?.near
        : undefined;
    return { ...page, targets: await targetsP, ...(near?.length ? { near } : {}) };
  },
  format: (result, args, f) => {
    if ('across' in result) return eventsAcross(result.across, acrossQuery(args), eventFilterWords(args), f);
    if ('history' in result)
      return historyAnswer(result.history, pageQuery(args), { ...args, project: args.projectId }, f);
    return eventsAnswer(
      result,
      pageQuery(args),
      `Events of project ${f.names.project(args.projectId)}`,
      'get_project_event with an eventId for who, from where and what changed',
      f,
    );
  },
});

type EventsRead =
  | { history: History }
  | { across: Awaited<ReturnType<typeof eventsEverywhere>> }
  | (Awaited<ReturnType<typeof searched>> & { targets: Targets });

export const getProjectEvent = defineTool({
  name: 'get_project_event',
  title: 'Get a project event',
  toolset: 'events',
  example: { eventId: '533a2ad526c21e76a7735798' },
  description: 'One project event in full: who, from where, target, changes. Use after list_project_events.',
  kind: 'read',
  input: {
    projectId: ids.project.optional(),
    eventId: ids.event,
    includeRaw: z.boolean().optional().describe("Add the event's raw document"),
    responseFormat: page.responseFormat,
  },
  output: recordOutput,
  run: async (ctx, args) => {
    const targets = projectTargets(ctx, args.projectId);
    const e = await withKeys(
      ctx.names.learnKeys({ projectId: args.projectId }, ctx.signal),
      ctx.api.events.getForProject(
        args.projectId,
        args.eventId,
        { includeRaw: args.includeRaw ?? false },
        ctx.req,
      ),
    );
    return { e, targets: await targets };
  },
  format: ({ e, targets }, args, f) => eventAnswer(e, targets, args, f),
});

export const listGlobalEvents = defineTool({
  name: 'list_global_events',
  title: 'List global events',
  toolset: 'events',
  example: {},
  description:
    'Installation-wide events (organizations, users, settings), newest first; needs a global key. Use for changes outside projects.',
  kind: 'read',
  input: { ...filters, ...page },
  output: listOutput,
  check: checkRange,
  run: (ctx, args) => {
    const { eventType, minDate, maxDate } = args;
    return withKeys(
      ctx.names.learnKeys({ orgId: ctx.defaults.orgId }, ctx.signal),
      searched(
        (q, signal) => ctx.api.events.listGlobal({ eventType, minDate, maxDate, ...q }, { signal }),
        args,
        ctx.signal,
      ),
    );
  },
  format: (result, args, f) =>
    eventsAnswer(
      result,
      pageQuery(args),
      'Global events',
      'list_project_events for the events of one project',
      f,
    ),
});

/** This set's tools, in the order tools/list shows them. */
export const tools = [listProjectEvents, getProjectEvent, listGlobalEvents];
