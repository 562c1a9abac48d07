// The events toolset: what changed and who did it, in a project and across the installation.
import { z } from 'zod';
import type { ApiEvent, Page, PageQuery } from '../src/api/client.js';
import { fetchAll } from '../src/api/paging.js';
import { eventsEverywhere } from '../src/feeds/everywhere-lists.js';
import { type History, loadHistory } from '../src/feeds/history.js';
import { findHosts } from '../src/feeds/names.js';
import { conditionWords, configName } from '../src/format/views/alerts.js';
import {
  type EventTargets,
  eventAnswer,
  eventsAnswer,
  eventTarget,
  newestFirst,
  noTargets,
} from '../src/format/views/events.js';
import { eventFilterWords, eventsAcross } from '../src/format/views/events-all.js';
import { historyAnswer } from '../src/format/views/events-history.js';
import { loadWindows } from '../src/model/index.js';
import { hostMatches } from '../src/rules/index.js';
import { ids, isoTime, page, text, typeName, upTo } from '../src/tool/ids.js';
import {
  ALL_PROJECTS,
  acrossQuery,
  defineTool,
  listOutput,
  pageQuery,
  recordOutput,
  type ToolContext,
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

/** The platform filters by type and time; who and target are matched here over this many events at most. */
const SEARCH_LIMIT = 2_000;

type Search = { who?: string; target?: string };

const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

const holds = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase().includes(b.toLowerCase());

function matches(e: ApiEvent, q: Search, targets: Targets): boolean {
  const r = e as Record<string, unknown>;
  if (q.who && !same(e.username, q.who) && !same(e.publicKey, q.who)) return false;
  if (q.target) {
    const about = [
      e.alertConfigId,
      e.alertId,
      e.hostId,
      e.hostname,
      eventTarget(e),
      r.targetUsername,
      r.targetPublicKey,
      r.maintenanceWindowId,
      r.userId,
    ];
    // By name too: part of a configuration's condition ("disk space", "DISK_PARTITION_SPACE_USED_DATA") or of a
    // window's description, for "who changed the disk threshold" in one call.
    const named = [
      e.alertConfigId && targets.config(e.alertConfigId),
      e.alertConfigId && targets.raw?.(e.alertConfigId),
      typeof r.maintenanceWindowId === 'string' && targets.window(r.maintenanceWindowId),
    ];
    // A host as people type it: short name, with or without domain or port, or its id.
    const host = hostMatches(q.target, { id: e.hostId, hostname: e.hostname, port: e.port ?? e.Port });
    if (!host && !about.some((v) => same(v, q.target!)) && !named.some((v) => holds(v, q.target!)))
      return false;
  }
  return true;
}

type Targets = EventTargets & { raw?: (id: string) => string | undefined };

/**
 * The names of a project's alert configurations (their condition in words, and the platform's own) and of
 * its maintenance windows that can still be read (by description), for the target column and the target
 * search. A list that cannot be read leaves ids.
 */
async function projectTargets(ctx: ToolContext, projectId: string): Promise<Targets> {
  const [configs, windows] = await Promise.all([
    fetchAll((q, s) => ctx.api.alertConfigs.list(projectId, q, { signal: s }), {
      signal: ctx.signal,
      maxItems: 2_000,
    }).then(
      (r) => r.items,
      () => [],
    ),
    loadWindows(ctx.api, projectId, ctx.signal).catch(() => null),
  ]);
  const words = new Map(configs.map((c) => [c.id, conditionWords(c)]));
  const raw = new Map(configs.map((c) => [c.id, configName(c)]));
  const described = new Map((windows ?? []).map((w) => [w.id, w.description ?? '']));
  return {
    config: (id) => words.get(id),
    raw: (id) => raw.get(id),
    window: (id) => described.get(id),
  };
}

/**
 * With who or target, up to SEARCH_LIMIT events of the platform's (type and time filtered) list are read and
 * matched here; the answer says how many were read, and whether more were left unread.
 */
async function searched(
  list: (q: Required<PageQuery>, signal?: AbortSignal) => Promise<Page<ApiEvent>>,
  args: Search & { pageNum?: number; itemsPerPage?: number },
  signal: AbortSignal,
  targets: Targets = noTargets,
): Promise<Page<ApiEvent> & { searched?: { read: number; of: number } }> {
  if (!args.who && !args.target) return list(pageQuery(args), signal);
  const all = await fetchAll((q, s) => list(q as Required<PageQuery>, s), { maxItems: SEARCH_LIMIT, signal });
  const hits = newestFirst({
    results: all.items.filter((e) => matches(e, args, targets)),
    totalCount: 0,
    links: [],
  });
  const q = pageQuery(args);
  const from = (q.pageNum - 1) * q.itemsPerPage;
  return {
    results: hits.results.slice(from, from + q.itemsPerPage),
    totalCount: hits.results.length,
    links: [],
    searched: { read: all.items.length, of: all.totalCount },
  };
}

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
