// Project events (list, get) and global events (list; beyond the spec: get one). Lists are newest first;
// eventType (repeatable or comma-separated), minDate and maxDate (inclusive) filter; includeRaw adds the
// raw document to project events.

import { GLOBAL_ROLES } from '../../vocabulary/index.js';
import type { EventRec } from '../records.js';
import { requireGlobalRole, requireProjectRole } from '../roles.js';
import type { SimRequest, SimResponse, SimRoute } from '../types.js';
import { selfLinks } from './render.js';
import { findById, queryBoolean, queryDate, queryList } from './validate.js';

/** `global` events ignore includeRaw and link to /globalEvents. */
function renderEvent(
  req: SimRequest,
  e: EventRec,
  includeRaw: boolean,
  global = false,
): Record<string, unknown> {
  const { raw, ...fields } = e;
  const path = global ? `/globalEvents/${e.id}` : `/groups/${e.groupId}/events/${e.id}`;
  return {
    ...structuredClone(fields),
    ...(includeRaw && raw !== undefined ? { raw: structuredClone(raw) } : {}),
    links: selfLinks(req, path),
  };
}

/** Newest first; events of the same second keep their recorded order reversed. */
function newestFirst(events: readonly EventRec[]): EventRec[] {
  return events
    .map((e, i) => [e, i] as const)
    .sort(([a, i], [b, j]) => b.created.localeCompare(a.created) || j - i)
    .map(([e]) => e);
}

function listEvents(
  req: SimRequest,
  events: readonly EventRec[],
  includeRaw: boolean,
  global = false,
): SimResponse {
  const types = new Set(queryList(req.query, 'eventType'));
  const min = queryDate(req.query, 'minDate')?.getTime();
  const max = queryDate(req.query, 'maxDate')?.getTime();
  const selected = events.filter((e) => {
    if (types.size > 0 && !types.has(e.eventTypeName)) return false;
    const at = Date.parse(e.created);
    return (min === undefined || at >= min) && (max === undefined || at <= max);
  });
  return {
    status: 200,
    list: newestFirst(selected),
    render: (e: EventRec) => renderEvent(req, e, includeRaw, global),
  };
}

const EVENT_CODES = { invalid: 'INVALID_EVENT_ID', notFound: 'EVENT_NOT_FOUND', what: 'event' };

export const eventRoutes: SimRoute[] = [
  {
    method: 'GET',
    path: '/groups/:groupId/events',
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.groupId ?? '', 'read');
      const includeRaw = queryBoolean(req.query, 'includeRaw');
      return listEvents(req, ctx.store.ofProject('events', project.id), includeRaw);
    },
  },
  {
    method: 'GET',
    path: '/groups/:groupId/events/:eventId',
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.groupId ?? '', 'read');
      const includeRaw = queryBoolean(req.query, 'includeRaw');
      const event = findById(
        req.params.eventId ?? '',
        (id) => ctx.store.data.events.find((e) => e.id === id && e.groupId === project.id),
        EVENT_CODES,
      );
      return { status: 200, body: renderEvent(req, event, includeRaw) };
    },
  },
  {
    method: 'GET',
    path: '/globalEvents',
    handle(req, ctx) {
      requireGlobalRole(req, GLOBAL_ROLES);
      return listEvents(req, ctx.store.data.globalEvents, false, true);
    },
  },
  {
    method: 'GET',
    path: '/globalEvents/:eventId',
    beyondSpec: true,
    handle(req, ctx) {
      requireGlobalRole(req, GLOBAL_ROLES);
      const event = findById(
        req.params.eventId ?? '',
        (id) => ctx.store.data.globalEvents.find((e) => e.id === id),
        EVENT_CODES,
      );
      return { status: 200, body: renderEvent(req, event, false, true) };
    },
  },
];
