// Project events and global events.

import type { Page, PageQuery } from '../paging.js';
import { apiPath } from '../path.js';
import { type ApiEvent, ApiEventSchema } from '../schemas.js';
import type { AreaContext, CallOptions } from './context.js';

export interface EventFilter extends PageQuery {
  /** Sent as repeated eventType parameters. */
  eventType?: string[];
  minDate?: string;
  maxDate?: string;
}

export function eventsArea(ctx: AreaContext) {
  return {
    async listForProject(
      groupId: string,
      q: EventFilter & { includeRaw?: boolean } = {},
      o?: CallOptions,
    ): Promise<Page<ApiEvent>> {
      return ctx.list(ApiEventSchema, 'ApiEvent', apiPath`/groups/${groupId}/events`, q, o);
    },
    async getForProject(
      groupId: string,
      eventId: string,
      q: { includeRaw?: boolean } = {},
      o?: CallOptions,
    ): Promise<ApiEvent> {
      const path = apiPath`/groups/${groupId}/events/${eventId}`;
      return ctx.call(ApiEventSchema, 'ApiEvent', { method: 'GET', path, query: q }, o);
    },
    async listGlobal(q: EventFilter = {}, o?: CallOptions): Promise<Page<ApiEvent>> {
      return ctx.list(ApiEventSchema, 'ApiEvent', '/globalEvents', q, o);
    },
  };
}
