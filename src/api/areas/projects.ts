// The projects area: the projects (groups) a key sees.

import type { Page, PageQuery } from '../paging.js';
import { apiPath } from '../path.js';
import { type Project, ProjectSchema } from '../schemas.js';
import type { AreaContext, CallOptions } from './context.js';

export function projectsArea(ctx: AreaContext) {
  return {
    async list(page?: PageQuery, o?: CallOptions): Promise<Page<Project>> {
      return ctx.list(ProjectSchema, 'Project', '/groups', page, o);
    },
    async get(projectId: string, o?: CallOptions): Promise<Project> {
      return ctx.call(ProjectSchema, 'Project', { method: 'GET', path: apiPath`/groups/${projectId}` }, o);
    },
    /** Beyond the spec (the field has it): the project the key sees under exactly this name. */
    async byName(name: string, o?: CallOptions): Promise<Project> {
      return ctx.call(ProjectSchema, 'Project', { method: 'GET', path: apiPath`/groups/byName/${name}` }, o);
    },
  };
}
