// A project's history for "did it happen before": its outage events and its alerts, open (the global
// configurations' too) and closed (the field's `?status=CLOSED`, beyond the spec), read and paired into
// episodes by the rule (src/rules/history.ts), by host when one is given as a person types it.
import type { Alert, ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { fetchAll } from '../api/paging.js';
import { loadOpenAlerts } from '../model/index.js';
import { alertEpisodes, type Episode, foldedInto, hostMatches, PAIRS, pairEvents } from '../rules/index.js';

const MAX_EVENTS = 5_000;
const MAX_ALERTS = 2_000;
const time = (s: string | undefined) => Date.parse(s ?? '') || 0;

export interface History {
  episodes: Episode[];
  /** The outage pairs read, "HOST_DOWN → HOST_UP or HOST_RECOVERED". */
  pairs: string[];
  /** Outage events read, of how many the platform has in the range. */
  events: { read: number; of: number };
  /** Alerts read (open and closed), or why closed ones could not be read. */
  alerts: { read: number; closedUnread?: string };
}

/** A project's episodes, newest first: by host when `host` is given (as people type it). */
export async function loadHistory(
  api: ApiClient,
  projectId: string,
  o: { host?: string; minDate?: string; maxDate?: string; signal?: AbortSignal },
): Promise<History> {
  const events = fetchAll(
    (q, s) =>
      api.events.listForProject(
        projectId,
        { eventType: PAIRS.flatMap((p) => [p.down, ...p.up]), minDate: o.minDate, maxDate: o.maxDate, ...q },
        { signal: s },
      ),
    { maxItems: MAX_EVENTS, signal: o.signal },
  );
  // Closed alerts are beyond the spec: a server without them leaves the events' episodes.
  const closed = fetchAll((q, s) => api.alerts.list(projectId, { status: 'CLOSED', ...q }, { signal: s }), {
    maxItems: MAX_ALERTS,
    signal: o.signal,
  })
    .then((r) => r.items)
    .then(
      (items) => ({ items, why: undefined }),
      (e: unknown) => {
        if (e instanceof ApiError && e.status < 500) return { items: [] as Alert[], why: e.message };
        throw e;
      },
    );
  // Open alerts of the global configurations too: a host down may alert only there.
  const openP = loadOpenAlerts(api, projectId, { signal: o.signal }).then((r) =>
    r.alerts.filter((a) => a.status === 'OPEN'),
  );
  const [ev, open, shut] = await Promise.all([events, openP, closed]);
  const inRange = (a: Alert) =>
    (!o.minDate || time(a.resolved ?? a.created) >= time(o.minDate)) &&
    (!o.maxDate || time(a.created) <= time(o.maxDate));
  const onHost = (r: { id?: string; hostname?: string; port?: number | string }) =>
    !o.host || hostMatches(o.host, r);
  const alerts = [...open, ...shut.items].filter(
    (a) => inRange(a) && onHost({ id: a.hostId, hostname: a.hostnameAndPort }),
  );
  const hostEvents = ev.items.filter((e) =>
    onHost({ id: e.hostId, hostname: e.hostname, port: e.port ?? e.Port }),
  );
  const outages = pairEvents(hostEvents, alerts);
  const episodes = [...outages, ...alertEpisodes(alerts).filter((a) => !foldedInto(a, outages))].sort(
    (a, b) => time(b.start) - time(a.start),
  );
  return {
    episodes,
    pairs: PAIRS.map((p) => `${p.down} → ${p.up.join(' or ')}`),
    events: { read: ev.items.length, of: ev.totalCount },
    alerts: { read: alerts.length, ...(shut.why ? { closedUnread: shut.why } : {}) },
  };
}
