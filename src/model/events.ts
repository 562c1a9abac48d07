// Events of a time window (a project's or the installation's), newest first, and the publishes of a project's
// automation configuration (who set the goal, and when).
import type { ApiClient, ApiEvent } from '../api/client.js';
import { fetchAll } from '../api/paging.js';

/** Upper bound of events read for one window. */
const MAX_EVENTS = 2_000;

type EventScope = { projectId: string } | 'global';

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

/** Sorted as newestFirst does, each time parsed once (not per comparison: hundreds of projects a call). */
function byNewest(events: ApiEvent[]): ApiEvent[] {
  return events
    .map((e) => ({ e, t: ms(e) }))
    .sort((a, b) => b.t - a.t || b.e.id.localeCompare(a.e.id))
    .map((x) => x.e);
}

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
  const events = byNewest(r.items.filter((e) => ms(e) >= since.getTime()));
  return { since: minDate, events, totalCount: r.totalCount, truncated: r.truncated };
}

const PUBLISHED = 'AUTOMATION_CONFIG_PUBLISHED_AUDIT';
/** How far back the publish of the current goal is looked for. */
const PUBLISH_LOOKBACK_MS = 30 * 24 * 3_600_000;

/** The publishes of a project's automation configuration over the lookback before `now`, newest first. */
export async function loadPublishes(
  api: ApiClient,
  projectId: string,
  o: { now: number; signal: AbortSignal; maxItems: number },
): Promise<ApiEvent[]> {
  const { signal } = o;
  // From the start of the hour: the same read for an hour, so it is kept and shared (the read cache keys on it).
  const minDate = new Date(Math.floor((o.now - PUBLISH_LOOKBACK_MS) / 3_600_000) * 3_600_000).toISOString();
  const { items } = await fetchAll(
    (q) => api.events.listForProject(projectId, { ...q, eventType: [PUBLISHED], minDate }, { signal }),
    { signal, maxItems: o.maxItems },
  );
  return byNewest(items.filter((e) => e.eventTypeName === PUBLISHED));
}
