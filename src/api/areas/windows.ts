// The windows area: a project's maintenance windows.

import type { Page, PageQuery } from '../paging.js';
import { apiPath } from '../path.js';
import { type MaintenanceWindow, MaintenanceWindowSchema } from '../schemas.js';
import type { AreaContext, CallOptions } from './context.js';

export interface MaintenanceWindowChange {
  alertTypeNames?: string[];
  startDate?: string;
  endDate?: string;
  description?: string;
}

export function maintenanceWindowsArea(ctx: AreaContext) {
  const one = (projectId: string, id: string) => apiPath`/groups/${projectId}/maintenanceWindows/${id}`;
  return {
    async list(projectId: string, page?: PageQuery, o?: CallOptions): Promise<Page<MaintenanceWindow>> {
      const path = apiPath`/groups/${projectId}/maintenanceWindows`;
      return ctx.list(MaintenanceWindowSchema, 'MaintenanceWindow', path, page, o);
    },
    async create(
      projectId: string,
      body: { startDate: string; endDate: string; alertTypeNames: string[]; description?: string },
      o?: CallOptions,
    ): Promise<MaintenanceWindow> {
      const path = apiPath`/groups/${projectId}/maintenanceWindows`;
      return ctx.call(MaintenanceWindowSchema, 'MaintenanceWindow', { method: 'POST', path, body }, o);
    },
    async get(projectId: string, id: string, o?: CallOptions): Promise<MaintenanceWindow> {
      return ctx.call(
        MaintenanceWindowSchema,
        'MaintenanceWindow',
        { method: 'GET', path: one(projectId, id) },
        o,
      );
    },
    async update(
      projectId: string,
      id: string,
      body: MaintenanceWindowChange,
      o?: CallOptions,
    ): Promise<MaintenanceWindow> {
      const req = { method: 'PATCH' as const, path: one(projectId, id), body };
      return ctx.call(MaintenanceWindowSchema, 'MaintenanceWindow', req, o);
    },
    /** Muted notifications resume. */
    async delete(projectId: string, id: string, o?: CallOptions): Promise<void> {
      await ctx.call(undefined, 'none', { method: 'DELETE', path: one(projectId, id) }, o);
    },
  };
}
