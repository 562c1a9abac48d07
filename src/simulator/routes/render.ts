// Output helpers shared by the routes: self links, secret masking and the audit events every change records.

import type { EventType } from '../../vocabulary/index.js';
import type { EventRec } from '../records.js';
import type { SimContext, SimRequest } from '../types.js';
import { newObjectId, timestamp } from '../values.js';

interface Link {
  href: string;
  rel: string;
}

/** Relation names of links other than self; clients match on the suffix. */
export const REL_BASE = 'https://dbops.example/rels/';

export function link(req: SimRequest, path: string, rel = 'self'): Link {
  return { href: `${req.baseUrl}${path}`, rel };
}

export function selfLinks(req: SimRequest, path: string): Link[] {
  return [link(req, path)];
}

/** `******7890`: the last four characters kept, fewer when the value is short. */
export function maskSecret(value: string): string {
  const keep = value.length > 8 ? 4 : value.length > 4 ? 2 : 0;
  return `******${value.slice(value.length - keep)}`;
}

/** A URL with its origin kept and its path (which carries the token) masked. */
export function maskUrl(value: string): string {
  try {
    const url = new URL(value);
    return `${url.origin}/${maskSecret(url.pathname + url.search)}`;
  } catch {
    return maskSecret(value);
  }
}

export const FULL_MASK = '******';

/** Removes keys whose value is undefined, so optional fields are absent rather than null. */
export function compact<T extends Record<string, unknown>>(record: T): T {
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return record;
}

interface AuditInput {
  /** A name of the spec's event types: a misspelt audit event fails the type check. */
  eventTypeName: EventType;
  /** Project events carry groupId; the rest go to the global events. */
  groupId?: string;
  orgId?: string;
  [field: string]: unknown;
}

/**
 * Records an event for a change, with the caller as actor: the key (apiKeyId + publicKey) for key callers,
 * or the given user for the unauthenticated first-user endpoint.
 */
export function audit(
  req: SimRequest,
  ctx: SimContext,
  input: AuditInput,
  actorUser?: { id: string; username: string },
): EventRec {
  const id = newObjectId();
  const created = timestamp(ctx.now());
  const actor: Record<string, unknown> =
    req.caller !== null
      ? { apiKeyId: req.caller.key.id, publicKey: req.caller.key.publicKey }
      : actorUser !== undefined
        ? { userId: actorUser.id, username: actorUser.username }
        : {};
  const event: EventRec = compact({
    id,
    created,
    ...input,
    ...actor,
    remoteAddress: req.remoteAddress,
  });
  if (input.groupId !== undefined) {
    event.raw = {
      _t: 'AuditEvent',
      cid: input.groupId,
      cre: created,
      id,
      et: input.eventTypeName,
      severity: 'INFO',
      source: req.caller !== null ? 'API' : 'USER',
      hidden: false,
    };
    ctx.store.data.events.push(event);
  } else {
    ctx.store.data.globalEvents.push(event);
  }
  return event;
}
