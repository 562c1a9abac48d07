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

export type ChangeKind = 'deployment' | 'access' | 'maintenance' | 'alerting' | 'settings' | 'data';

// Data operations that write (a delete or bulk update before errors is a classic cause); reads are not changes.
const DATA_WRITE =
  /^(INSERT|UPDATE|DELETE|REPLACE|DROP|RENAME|CREATE|BULK|FIND_AND_MODIFY|UPDATE_MANY|DELETE_MANY)/i;

// Alert and metric state, host and agent state, data reads and writes, logins: noise for "what changed".
const NOT_A_CHANGE =
  /^(ALERT_(ACKNOWLEDGED|UNACKNOWLEDGED)|(OUTSIDE|INSIDE)_METRIC_THRESHOLD|HOST_|PRIMARY_ELECTED|DATA_EXPLORER|.*AGENT_(DOWN|UP)$|.*LOGIN|DAEMON_|NO_PRIMARY|REPLICATION_|RESYNC_)/;

/**
 * What kind of change an event records, or undefined when it records none. Configuration publishes, role
 * and membership changes, maintenance windows, alert configurations and integrations are changes; so is any
 * other audited action of a person or key that is not in the noise list above.
 */
export function changeKind(e: ApiEvent): ChangeKind | undefined {
  const t = e.eventTypeName ?? '';
  const op = (e as Record<string, unknown>).opType;
  if (typeof op === 'string') return DATA_WRITE.test(op) ? 'data' : undefined;
  if (NOT_A_CHANGE.test(t)) return undefined;
  if (t.startsWith('AUTOMATION_CONFIG')) return 'deployment';
  if (t.startsWith('MAINTENANCE_WINDOW')) return 'maintenance';
  if (t.startsWith('ALERT_CONFIG') || t.startsWith('INTEGRATION')) return 'alerting';
  if (/ROLES?_|USER_|JOINED_|REMOVED_FROM|API_KEY|TEAM_|INVITATION/.test(t)) return 'access';
  const actor = e.username ?? e.userId ?? e.publicKey ?? e.apiKeyId;
  return actor !== undefined || t.endsWith('_AUDIT') || t.endsWith('_CHANGED') ? 'settings' : undefined;
}
