// What every area module gets from the client: typed calls that validate leniently and page lists.

import type { z } from 'zod';
import type { Page, PageQuery } from '../paging.js';
import type { TransportRequest } from '../transport.js';

export interface CallOptions {
  signal?: AbortSignal;
}

export interface AreaContext {
  /** One call whose answer is checked against `schema` (named in warnings); undefined schema = no body. */
  call<T>(schema: z.ZodType<T> | undefined, name: string, req: TransportRequest, o?: CallOptions): Promise<T>;
  /** A call whose answer is a page of `item`; missing links/totalCount filled in. */
  page<T>(item: z.ZodType<T>, name: string, req: TransportRequest, o?: CallOptions): Promise<Page<T>>;
  /** GET of a paged list; pageNum/itemsPerPage are clamped, missing links/totalCount filled in. */
  list<T>(
    item: z.ZodType<T>,
    name: string,
    path: string,
    /** pageNum, itemsPerPage and filters (Query values). */
    query?: PageQuery | object,
    o?: CallOptions,
  ): Promise<Page<T>>;
}
