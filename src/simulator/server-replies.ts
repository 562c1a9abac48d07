// How the simulator answers: the platform's headers, error bodies and digest challenges, paging links, and
// the envelope and pretty flags. Every answer is counted by status.

import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { DigestVerifier } from './digest-server.js';
import type { QueryFlags } from './server-request.js';
import { bump, type Stats } from './stats.js';
import { errorBody, type SimError, type SimRequest, type SimResponse } from './types.js';

const VERSION_STRING = '8.0.12';
const GIT_HASH = createHash('sha1').update(`dbops-simulator ${VERSION_STRING}`).digest('hex');
const SERVICE_VERSION = `gitHash=${GIT_HASH}; versionString=${VERSION_STRING}`;

const UNAUTHORIZED_BODY = JSON.stringify({
  reason: 'Unauthorized',
  error: 401,
  detail: 'You are not authorized for this resource.',
});

export interface Replies {
  send(res: ServerResponse, status: number, headers: Record<string, string>, body?: string): void;
  error(res: ServerResponse, e: SimError, extra?: Record<string, string>): void;
  /** 401 with a fresh digest challenge (stale = the nonce expired, sign again). */
  challenge(res: ServerResponse, stale: boolean): void;
  success(res: ServerResponse, status: number, payload: unknown, pretty: boolean): void;
}

export function createReplies(stats: Stats, digest: DigestVerifier): Replies {
  const send: Replies['send'] = (res, status, headers, body = '') => {
    bump(stats.byStatus, String(status));
    res.writeHead(status, {
      'Strict-Transport-Security': 'max-age=300',
      ...headers,
      'Content-Length': String(Buffer.byteLength(body)),
    });
    res.end(body);
  };
  return {
    send,
    error(res, e, extra = {}) {
      const body = errorBody(e.status, e.errorCode, e.detail, e.parameters);
      send(res, e.status, { 'Content-Type': 'application/json', ...extra }, JSON.stringify(body));
    },
    challenge(res, stale) {
      stats.challenges++;
      const headers = {
        'WWW-Authenticate': digest.challenge(stale),
        'Content-Type': 'application/json;charset=ISO-8859-1',
      };
      send(res, 401, headers, UNAUTHORIZED_BODY);
    },
    success(res, status, payload, pretty) {
      const headers = {
        'X-Vendor-Service-Version': SERVICE_VERSION,
        Vary: 'Accept-Encoding',
        'Content-Type': 'application/json',
      };
      const body =
        status === 204 || payload === undefined ? '' : JSON.stringify(payload, null, pretty ? 2 : undefined);
      send(res, status, headers, body);
    },
  };
}

/** A list as the platform pages it: {links, results, totalCount}, with self/next/previous links. */
function page(
  list: unknown[],
  req: SimRequest,
  flags: QueryFlags,
  paged: boolean,
  render: (item: never) => unknown = (x) => x,
) {
  const total = list.length;
  if (!paged) {
    const query = req.query.toString();
    const self = `${req.baseUrl}${req.path}${query ? `?${query}` : ''}`;
    return {
      links: [{ rel: 'self', href: self }],
      results: list.map((x) => render(x as never)),
      totalCount: total,
    };
  }
  const { pageNum, itemsPerPage: size } = flags;
  const start = (pageNum - 1) * size;
  const href = (n: number) => {
    const q = new URLSearchParams(req.query);
    q.set('pageNum', String(n));
    q.set('itemsPerPage', String(size));
    return `${req.baseUrl}${req.path}?${q}`;
  };
  const links = [{ rel: 'self', href: href(pageNum) }];
  if (start + size < total) links.push({ rel: 'next', href: href(pageNum + 1) });
  if (pageNum > 1) links.push({ rel: 'previous', href: href(pageNum - 1) });
  return {
    links,
    results: list.slice(start, start + size).map((x) => render(x as never)),
    totalCount: total,
  };
}

/** A route's result as sent: a list paged (unless the route is not), wrapped when ?envelope=true. */
export function payloadOf(result: SimResponse, req: SimRequest, flags: QueryFlags, paged: boolean): unknown {
  const payload = 'list' in result ? page(result.list, req, flags, paged, result.render) : result.body;
  if (!flags.envelope || result.status === 204) return payload;
  return 'list' in result
    ? { ...(payload as object), status: result.status }
    : { status: result.status, content: payload ?? null };
}
