// The integrations area: a project's third-party integrations, listed and replaced.

import type { Page } from '../paging.js';
import { apiPath } from '../path.js';
import { type Integration, IntegrationSchema } from '../schemas.js';
import type { AreaContext, CallOptions } from './context.js';

export function integrationsArea(ctx: AreaContext) {
  return {
    async list(projectId: string, o?: CallOptions): Promise<Page<Integration>> {
      return ctx.list(IntegrationSchema, 'Integration', apiPath`/groups/${projectId}/integrations`, {}, o);
    },
    /** Create or update; the answer lists all of the project's integrations, secrets masked. */
    async put(
      projectId: string,
      integrationType: string,
      body: Record<string, unknown>,
      o?: CallOptions,
    ): Promise<Page<Integration>> {
      const path = apiPath`/groups/${projectId}/integrations/${integrationType}`;
      // The body's type must equal the path's; take it from the path so the two cannot disagree.
      const req = { method: 'PUT' as const, path, body: { ...body, type: integrationType } };
      return ctx.page(IntegrationSchema, 'Integration', req, o);
    },
  };
}
