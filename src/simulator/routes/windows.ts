// Maintenance windows. A window exists for the API only while its end date is in the future: a past one
// reads, updates and deletes as 404 MAINTENANCE_WINDOW_NOT_FOUND. Beyond the spec: list and create.

import { ALERT_TYPE_NAMES, MORE_ALERT_TYPE_NAMES } from '../../vocabulary/index.js';
import type { WindowRec } from '../records.js';
import { requireProjectRole } from '../roles.js';
import type { SimContext, SimRequest, SimRoute } from '../types.js';
import { newObjectId, timestamp } from '../values.js';
import { audit, compact, selfLinks } from './render.js';
import { badRequest, findById, invalidJsonAttribute, parseBody } from './validate.js';

/** The API reference's alert types and the further categories real servers accept, in alphabetical order. */
const WINDOW_ALERT_TYPES = [...ALERT_TYPE_NAMES, ...MORE_ALERT_TYPE_NAMES].sort();

function renderWindow(req: SimRequest, w: WindowRec): Record<string, unknown> {
  return compact({
    id: w.id,
    groupId: w.groupId,
    created: w.created,
    updated: w.updated,
    startDate: w.startDate,
    endDate: w.endDate,
    alertTypeNames: [...w.alertTypeNames],
    description: w.description,
    links: selfLinks(req, `/groups/${w.groupId}/maintenanceWindows/${w.id}`),
  });
}

const isCurrent = (w: WindowRec, now: Date): boolean => Date.parse(w.endDate) > now.getTime();

function findWindow(ctx: SimContext, projectId: string, windowId: string): WindowRec {
  return findById(
    windowId,
    (id) =>
      ctx.store.data.maintenanceWindows.find(
        (w) => w.id === id && w.groupId === projectId && isCurrent(w, ctx.now()),
      ),
    { invalid: 'INVALID_WINDOW_ID', notFound: 'MAINTENANCE_WINDOW_NOT_FOUND', what: 'maintenance window' },
  );
}

const WINDOW_BODY = {
  startDate: { kind: 'date' },
  endDate: { kind: 'date' },
  alertTypeNames: { kind: 'strings', values: WINDOW_ALERT_TYPES },
  description: { kind: 'string', max: 1000 },
} as const;

function checkDates(start: string, end: string): void {
  if (Date.parse(start) >= Date.parse(end)) {
    throw badRequest(
      'MAINTENANCE_WINDOW_START_DATE_AFTER_END_DATE',
      `The start date ${start} of a maintenance window must precede its end date ${end}.`,
    );
  }
}

function checkAlertTypes(names: string[] | undefined): void {
  if (names !== undefined && names.length === 0) {
    throw invalidJsonAttribute('alertTypeNames', 'at least one alert type is required');
  }
}

export const windowRoutes: SimRoute[] = [
  {
    method: 'GET',
    path: '/groups/:projectId/maintenanceWindows/:maintenanceWindowId',
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      return {
        status: 200,
        body: renderWindow(req, findWindow(ctx, project.id, req.params.maintenanceWindowId ?? '')),
      };
    },
  },
  {
    method: 'PATCH',
    path: '/groups/:projectId/maintenanceWindows/:maintenanceWindowId',
    mutates: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'monitoring');
      const window = findWindow(ctx, project.id, req.params.maintenanceWindowId ?? '');
      const body = parseBody(req.body, WINDOW_BODY);
      if (body.alertTypeNames === undefined && body.startDate === undefined && body.endDate === undefined) {
        throw badRequest(
          'MISSING_ATTRIBUTE',
          'At least one of alertTypeNames, startDate and endDate must be specified.',
          ['alertTypeNames', 'startDate', 'endDate'],
        );
      }
      checkAlertTypes(body.alertTypeNames);
      const startDate = body.startDate === undefined ? window.startDate : timestamp(body.startDate);
      const endDate = body.endDate === undefined ? window.endDate : timestamp(body.endDate);
      checkDates(startDate, endDate);
      window.startDate = startDate;
      window.endDate = endDate;
      if (body.alertTypeNames !== undefined) window.alertTypeNames = body.alertTypeNames;
      if (body.description !== undefined) window.description = body.description;
      window.updated = timestamp(ctx.now());
      audit(req, ctx, {
        eventTypeName: 'MAINTENANCE_WINDOW_CHANGED_AUDIT',
        groupId: project.id,
        maintenanceWindowId: window.id,
      });
      return { status: 201, body: renderWindow(req, window) };
    },
  },
  {
    method: 'DELETE',
    path: '/groups/:projectId/maintenanceWindows/:maintenanceWindowId',
    mutates: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'monitoring');
      const window = findWindow(ctx, project.id, req.params.maintenanceWindowId ?? '');
      const windows = ctx.store.data.maintenanceWindows;
      windows.splice(windows.indexOf(window), 1);
      audit(req, ctx, {
        eventTypeName: 'MAINTENANCE_WINDOW_DELETED_AUDIT',
        groupId: project.id,
        maintenanceWindowId: window.id,
      });
      return { status: 204 };
    },
  },
  {
    method: 'GET',
    path: '/groups/:projectId/maintenanceWindows',
    beyondSpec: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      const now = ctx.now();
      const windows = ctx.store.data.maintenanceWindows
        .filter((w) => w.groupId === project.id && isCurrent(w, now))
        .sort((a, b) => a.startDate.localeCompare(b.startDate));
      return { status: 200, list: windows.map((w) => renderWindow(req, w)) };
    },
  },
  {
    method: 'POST',
    path: '/groups/:projectId/maintenanceWindows',
    mutates: true,
    beyondSpec: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'monitoring');
      const body = parseBody(req.body, {
        ...WINDOW_BODY,
        startDate: { kind: 'date', required: true },
        endDate: { kind: 'date', required: true },
        alertTypeNames: { kind: 'strings', values: WINDOW_ALERT_TYPES, required: true },
      } as const);
      checkAlertTypes(body.alertTypeNames);
      const startDate = timestamp(body.startDate);
      const endDate = timestamp(body.endDate);
      checkDates(startDate, endDate);
      const created = timestamp(ctx.now());
      const window: WindowRec = compact({
        id: newObjectId(),
        groupId: project.id,
        created,
        updated: created,
        startDate,
        endDate,
        alertTypeNames: body.alertTypeNames,
        description: body.description,
      });
      ctx.store.data.maintenanceWindows.push(window);
      audit(req, ctx, {
        eventTypeName: 'MAINTENANCE_WINDOW_ADDED_AUDIT',
        groupId: project.id,
        maintenanceWindowId: window.id,
      });
      return { status: 200, body: renderWindow(req, window) };
    },
  },
];
