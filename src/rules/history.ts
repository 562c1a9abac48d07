// History as episodes: what went down and came back, with start, end and duration. Outages are paired from
// events (host down → up or recovered; an agent down → up, else the close of the agent-down alert on that
// host), alert episodes from the alerts themselves (opened → closed). Event names are not in the spec: the
// pairs are what servers are seen to write, and answers say which were read. Loading: src/feeds/history.ts.
import { hostName, shortName } from './names.js';

interface EventFields {
  id: string;
  created?: string;
  eventTypeName?: string;
  hostId?: string;
  hostname?: string;
}

interface AlertFields {
  id: string;
  created?: string;
  resolved?: string;
  status?: string;
  eventTypeName?: string;
  metricName?: string;
  hostnameAndPort?: string;
  replicaSetName?: string;
  clusterName?: string;
}

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

const HOUR = 3_600_000;
const time = (s: string | undefined) => Date.parse(s ?? '') || 0;

/** Where an event happened, as a key two events of the same host share (short name, or the host id). */
const whereOf = (e: EventFields) => (e.hostname ? shortName(hostName(e.hostname).name) : (e.hostId ?? '?'));
const alertWhere = (a: AlertFields) =>
  a.hostnameAndPort
    ? shortName(hostName(a.hostnameAndPort).name)
    : (a.replicaSetName ?? a.clusterName ?? '?');

/** Outages from events, oldest first; an agent's without an up event ends with its agent-down alert's close. */
export function pairEvents(events: EventFields[], alerts: AlertFields[]): Episode[] {
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
export function alertEpisodes(alerts: AlertFields[]): Episode[] {
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
export function foldedInto(a: Episode, outages: Episode[]): boolean {
  const pair = PAIRS.find((p) => a.what === `alert ${p.down}`);
  return Boolean(
    pair &&
      outages.some(
        (o) => o.what === pair.what && o.where === a.where && Math.abs(time(o.start) - time(a.start)) < HOUR,
      ),
  );
}
