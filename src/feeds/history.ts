// History as episodes: what went down and came back, with start, end and duration, for "did it happen
// before". Outages are paired from events (host down → up or recovered; an agent down → up, else the close of
// the agent-down alert on that host), alert episodes from the alerts themselves (opened → closed, the field's
// `?status=CLOSED`). Event names are not in the spec: the pairs below are what servers are seen to write, and
// the answer says so.
import type { Alert, ApiClient, ApiEvent } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { fetchAll } from '../api/paging.js';
import { loadOpenAlerts } from './alerts.js';
import { hostMatches, hostName, shortName } from './names.js';

/** The event that starts an outage, and the events that end it. */
export const PAIRS: ReadonlyArray<{ down: string; up: readonly string[]; what: string }> = [
  { down: 'HOST_DOWN', up: ['HOST_UP', 'HOST_RECOVERED'], what: 'host down' },
  { down: 'MONITORING_AGENT_DOWN', up: ['MONITORING_AGENT_UP'], what: 'monitoring agent down' },
  { down: 'BACKUP_AGENT_DOWN', up: ['BACKUP_AGENT_UP'], what: 'backup agent down' },
  { down: 'AUTOMATION_AGENT_DOWN', up: ['AUTOMATION_AGENT_UP'], what: 'automation agent down' },
];

export interface Episode {
  /** "host down", "monitoring agent down", or an alert's type (and metric). */
  what: string;
  where: string;
  start: string;
  /** Absent while it lasts, or when no end was recorded (unknownEnd). */
  end?: string;
  /** Nothing records its end and nothing open says it lasts. */
  unknownEnd?: boolean;
  /** What the start and end were read from: "HOST_DOWN → HOST_RECOVERED", "alert 64b… opened → closed". */
  pairedBy: string;
  /** The event or alert that started it. */
  id: string;
}

export interface History {
  episodes: Episode[];
  /** The outage pairs read, "HOST_DOWN → HOST_UP or HOST_RECOVERED". */
  pairs: string[];
  /** Outage events read, of how many the platform has in the range. */
  events: { read: number; of: number };
  /** Alerts read (open and closed), or why closed ones could not be read. */
  alerts: { read: number; closedUnread?: string };
}

const MAX_EVENTS = 5_000;
const MAX_ALERTS = 2_000;
const HOUR = 3_600_000;
const time = (s: string | undefined) => Date.parse(s ?? '') || 0;

/** Where an event happened, as a key two events of the same host share (short name, or the host id). */
const whereOf = (e: ApiEvent) => (e.hostname ? shortName(hostName(e.hostname).name) : (e.hostId ?? '?'));
const alertWhere = (a: Alert) =>
  a.hostnameAndPort
    ? shortName(hostName(a.hostnameAndPort).name)
    : (a.replicaSetName ?? a.clusterName ?? '?');

/** Outages from events, oldest first; an agent's without an up event ends with its agent-down alert's close. */
export function pairEvents(events: ApiEvent[], alerts: Alert[]): Episode[] {
  const sorted = [...events].sort((a, b) => time(a.created) - time(b.created));
  const out: Episode[] = [];
  for (const [i, e] of sorted.entries()) {
    const pair = PAIRS.find((p) => p.down === e.eventTypeName);
    if (!pair || !e.created) continue;
    const where = whereOf(e);
    const rest = sorted.slice(i + 1).filter((x) => whereOf(x) === where);
    const up = rest.find((x) => pair.up.includes(x.eventTypeName ?? ''));
    // Down again before any up: this one's end is not recorded (the later down starts its own episode).
    const again = rest.find((x) => x.eventTypeName === pair.down);
    const ended = up && (!again || time(up.created) <= time(again.created)) ? up : undefined;
    const base = { what: pair.what, where, start: e.created, id: e.id };
    if (ended?.created) {
      out.push({ ...base, end: ended.created, pairedBy: `${pair.down} → ${ended.eventTypeName}` });
      continue;
    }
    // The agent-down alert of that host that opened with it and closed: its close is the agent's return.
    const closed = pair.down.endsWith('_AGENT_DOWN')
      ? alerts.find(
          (a) =>
            a.eventTypeName === pair.down &&
            a.resolved &&
            alertWhere(a) === where &&
            Math.abs(time(a.created) - time(e.created)) < HOUR &&
            (!again || time(a.resolved) <= time(again.created)),
        )
      : undefined;
    if (closed?.resolved) {
      out.push({ ...base, end: closed.resolved, pairedBy: `${pair.down} → alert ${closed.id} closed` });
      continue;
    }
    // No end recorded: going on only while an alert of it is open there; else its end is not known.
    const open =
      !again &&
      alerts.some((a) => a.eventTypeName === pair.down && a.status === 'OPEN' && alertWhere(a) === where);
    out.push({
      ...base,
      ...(open ? {} : { unknownEnd: true }),
      pairedBy: `${pair.down}, no ${pair.up.join(' or ')} since${open ? ', its alert open' : ''}`,
    });
  }
  return out;
}

/** Alert episodes: opened → closed, or still open. */
export function alertEpisodes(alerts: Alert[]): Episode[] {
  return alerts
    .filter((a) => a.created && a.status !== 'TRACKING')
    .map((a) => ({
      what: `alert ${[a.eventTypeName, a.metricName].filter(Boolean).join(' ')}`,
      where: alertWhere(a),
      start: a.created as string,
      ...(a.resolved && a.status !== 'OPEN' ? { end: a.resolved } : {}),
      pairedBy: `alert ${a.id} ${a.status === 'OPEN' ? 'open' : `opened → ${String(a.status).toLowerCase()}`}`,
      id: a.id,
    }));
}

/** An alert of an outage the events already show (the host-down alert of that host, opened within the hour). */
function foldedInto(a: Episode, outages: Episode[]): boolean {
  const pair = PAIRS.find((p) => a.what === `alert ${p.down}`);
  return Boolean(
    pair &&
      outages.some(
        (o) => o.what === pair.what && o.where === a.where && Math.abs(time(o.start) - time(a.start)) < HOUR,
      ),
  );
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
