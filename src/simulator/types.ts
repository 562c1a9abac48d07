// Contract between the simulator's HTTP layer (server.ts, digest-server.ts, faults, stats, persistence)
// and its data layer (records.ts, store.ts, data/, routes/*.ts). The HTTP layer knows nothing of resources;
// the routes know nothing of sockets, digest or paging links.

import { STATUS_CODES } from 'node:http';
import type { KeyRecord } from './records.js';

type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Who is calling, resolved by the HTTP layer after digest auth succeeded. */
export interface Caller {
  key: KeyRecord;
  remoteAddress: string;
}

export interface SimOptions {
  /** Email validation of usernames: false (any string), loose, strict. */
  usernameValidation: 'false' | 'loose' | 'strict';
  /** Bypass-invite setting for existing users (role updates applied directly when true). */
  bypassInvite: boolean;
  /** The names it speaks: the spec's (default) or the field's (integration types and fields). */
  dialect: 'spec' | 'field';
}

export interface SimRequest {
  method: HttpMethod;
  /** Path after the /api/public/v1.0 prefix, decoded per segment into params. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body (undefined when none was sent). */
  body: unknown;
  /** null only for routes with auth: 'none'. */
  caller: Caller | null;
  remoteAddress: string;
  /** Absolute URL of the API prefix, e.g. http://127.0.0.1:8080/api/public/v1.0 (for links). */
  baseUrl: string;
  now: Date;
}

/**
 * What a route returns. `body` is sent as is (after envelope/pretty). `list` asks the HTTP layer to page
 * the items with pageNum/itemsPerPage and build {links, results, totalCount} with self/next/previous.
 */
/**
 * A route's answer: a body, or a list the HTTP layer pages. `render` draws one item as sent; it runs on the
 * page's items only, so a long list (100× the demo data) is not copied whole for every page read.
 */
export type SimResponse =
  | { status: number; body?: unknown }
  | { status: number; list: unknown[]; render?: (item: never) => unknown };

export interface SimContext {
  store: import('./store.js').Store;
  options: SimOptions;
  now(): Date;
}

export interface SimRoute {
  method: HttpMethod;
  /** Pattern relative to the prefix, with :name segments, e.g. '/groups/:projectId/alertConfigs/:alertConfigId'. */
  path: string;
  /** 'none' = answers without a digest challenge (only POST /unauth/users). Default 'digest'. */
  auth?: 'digest' | 'none';
  /** Marks a change: the HTTP layer persists the snapshot after a 2xx answer. */
  mutates?: boolean;
  /** Default true: `list` answers are paged; false returns every item (pageNum/itemsPerPage still checked). */
  paged?: boolean;
  /** An endpoint real servers offer beyond the spec (a note for readers of the route table). */
  beyondSpec?: boolean;
  handle(req: SimRequest, ctx: SimContext): SimResponse;
}

/** Thrown by routes and the HTTP layer; answered with errorBody(...) and this status. */
export class SimError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string | undefined,
    readonly detail: string,
    readonly parameters?: unknown[],
  ) {
    super(detail);
  }
}

/** The platform's error body: {error, errorCode, reason, detail, parameters}, absent parts left out. */
export function errorBody(
  status: number,
  errorCode: string | undefined,
  detail: string,
  parameters?: unknown[],
) {
  return {
    error: status,
    ...(errorCode === undefined ? {} : { errorCode }),
    reason: STATUS_CODES[status] ?? 'Error',
    detail,
    ...(parameters === undefined ? {} : { parameters }),
  };
}
