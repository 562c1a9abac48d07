// Events of a time window (a project's or the installation's), and which of them are changes someone made —
// the "what changed" that often explains "what broke" — as opposed to alert and metric noise or reads.
import type { ApiClient, ApiEvent } from '../api/client.js';
import { fetchAll } from '../api/paging.js';

/** Upper bound of events read for one window. */
const MAX_EVENTS = 2_000;

export type EventScope = { projectId: string } | 'global';

export interface RecentEvents {
  since: string;
  /** Newest first. */
  events: ApiEvent[];
  totalCount: number;
  truncated: boolean;
}

const ms = (e: ApiEvent) => Date.parse(e.created ?? '') || 0;
/** The API does not state an order: sort here, newest first (ties by id, so the order is stable). */
export const newestFirst = (a: ApiEvent, b: ApiEvent) => ms(b) - ms(a) || b.id.localeCompare(a.id);

export async function loadRecentEvents(
  api: ApiClient,
  scope: EventScope,
  since: Date,
  signal?: AbortSignal,
): Promise<RecentEvents> {
  const minDate = since.toISOString();
  // Asked from the start of the minute (the exact window is cut below): callers who ask at nearly the same
  // moment then send the same request, which the client shares and keeps.
  const from = new Date(Math.floor(since.getTime() / 60_000) * 60_000).toISOString();
  const r = await fetchAll(
    (q) =>
      scope === 'global'
        ? api.events.listGlobal({ ...q, minDate: from }, { signal })
        : api.events.listForProject(scope.projectId, { ...q, minDate: from }, { signal }),
    { signal, maxItems: MAX_EVENTS },
  );
  // A server that ignores minDate must not flood the window with older events.
  const events = r.items.filter((e) => ms(e) >= since.getTime()).sort(newestFirst);
  return { since: minDate, events, totalCount: r.totalCount, truncated: r.truncated };
}

/** The newest event(s): a new event changes it, events ageing out of the window do not. */
export function eventsFingerprint(events: ApiEvent[]): string {
  const newest = events.reduce((m, e) => Math.max(m, ms(e)), 0);
  const ids = events
    .filter((e) => ms(e) === newest)
    .map((e) => e.id)
    .sort();
  return `${newest}:${ids.join(',')}`;
}

// What kind of change an event records is the events view's word (src/format/views/events.ts): re-exported.
