// Alerts, derived from the world: for every enabled configuration (the project's and the global ones that
// apply to it), one alert per episode of its condition — a reading past its threshold, a host unreachable or
// an agent quiet for longer than the threshold, a replica set that lost its majority. An episode that still
// lasts is OPEN (TRACKING in its first minutes), one that ended is CLOSED (or CANCELLED); acknowledgements
// are the world's.

import type { AlertStatus } from '../../vocabulary/index.js';
import type { AlertRec, HostRec, ProjectRec } from '../records.js';
import { timestamp } from '../values.js';
import { type Build, MINUTE } from './gen.js';
import { type AnyConfig, agentQuiet, breaches, configOf, fqdn, matches } from './state.js';
import { TOPOLOGY } from './topology.js';
import { WORLD } from './world.js';

/** A metric condition younger than this is TRACKING: found, not yet notified. */
const TRACKING_FOR = 5 * MINUTE;

/** One episode of a configuration's condition: where, from when (ms from now) to when, and its value. */
export interface Episode {
  host?: HostRec;
  replicaSet?: string;
  from: number;
  to?: number;
  cancelled?: boolean;
  value?: { number: number; units: string };
}

const minutes = (c: AnyConfig): number => {
  const t = c.threshold;
  if (t === undefined) return 0;
  return t.units === 'HOURS' ? t.threshold * 60 : t.units === 'MINUTES' ? t.threshold : 0;
};

/** Spans of at least `min` ms become episodes starting `min` after the span began. */
function pastThreshold(
  spans: Array<{ from: number; to?: number }>,
  min: number,
): Array<{ from: number; to?: number }> {
  return spans
    .filter((s) => (s.to ?? 0) - s.from > min)
    .map((s) => ({ from: s.from + min, ...(s.to === undefined ? {} : { to: s.to }) }));
}

/** The episodes of a configuration's condition in one project. */
export function episodes(b: Build, config: AnyConfig, project: ProjectRec): Episode[] {
  const hosts = b.data.hosts.filter((h) => h.groupId === project.id && matches(b, config.matchers, h));
  const mongods = hosts.filter((h) => h.typeName !== 'SHARD_MONGOS');
  const threshold = minutes(config) * MINUTE;
  const out: Episode[] = [];
  switch (config.eventTypeName) {
    case 'OUTSIDE_METRIC_THRESHOLD':
    case 'REPLICATION_OPLOG_WINDOW_RUNNING_OUT': {
      const mt = config.metricThreshold;
      const metric = mt?.metricName ?? 'OPLOG_WINDOW';
      const limit = mt ?? config.threshold;
      if (limit === undefined) return out;
      const changes = WORLD.thresholdChanges.filter((c) => {
        try {
          return configOf(b, c.config) === config;
        } catch {
          return false;
        }
      });
      for (const r of WORLD.readings) {
        const host = mongods.find((h) => h.hostname === fqdn(r.host));
        if (host === undefined || r.metric !== metric || !breaches(r.value, limit.operator, limit.threshold))
          continue;
        // Past the threshold in force at the time: a lowered threshold opens the alert when it was changed.
        let from = r.since;
        for (const c of changes)
          if (c.at > from && !breaches(r.value, limit.operator, c.from) && (r.until ?? 0) > c.at) from = c.at;
        if (r.until !== undefined && r.until <= from) continue;
        out.push({
          host,
          from,
          ...(r.until === undefined ? {} : { to: r.until }),
          ...(r.cancelled ? { cancelled: true } : {}),
          value: { number: r.value, units: r.units },
        });
      }
      return out;
    }
    case 'HOST_DOWN':
      for (const host of hosts)
        for (const o of WORLD.outages.filter((x) => fqdn(x.host) === host.hostname))
          for (const e of pastThreshold([o], threshold)) out.push({ host, ...e });
      return out;
    case 'MONITORING_AGENT_DOWN':
    case 'BACKUP_AGENT_DOWN': {
      const type = config.eventTypeName === 'MONITORING_AGENT_DOWN' ? 'MONITORING' : 'BACKUP';
      for (const a of WORLD.agents[project.name] ?? []) {
        if (a.type !== type) continue;
        const host = b.data.hosts.find((h) => h.hostname === fqdn(a.host));
        if (host === undefined) continue;
        for (const e of pastThreshold(agentQuiet(WORLD, project.name, type, a.host), threshold))
          out.push({ host, ...e });
      }
      return out;
    }
    case 'NO_PRIMARY':
      for (const rs of new Set(mongods.map((h) => h.replicaSetName).filter((x) => x !== undefined))) {
        const members = b.data.hosts.filter((h) => h.groupId === project.id && h.replicaSetName === rs);
        if (members.some((h) => h.typeName === 'SHARD_CONFIG')) continue;
        for (const e of pastThreshold(noMajority(members), threshold)) out.push({ replicaSet: rs, ...e });
      }
      return out;
    default:
      return out;
  }
}

/** When a replica set had fewer than a majority of its members reachable. */
function noMajority(members: HostRec[]): Array<{ from: number; to?: number }> {
  const outages = WORLD.outages.filter((o) => members.some((h) => h.hostname === fqdn(o.host)));
  const points = [...new Set(outages.flatMap((o) => [o.from, ...(o.to === undefined ? [] : [o.to])]))].sort(
    (x, y) => x - y,
  );
  const need = members.length - Math.floor(members.length / 2);
  const spans: Array<{ from: number; to?: number }> = [];
  let open: number | undefined;
  for (const t of [...points, 0]) {
    const down = outages.filter((o) => o.from <= t && (o.to === undefined || o.to > t)).length;
    if (down >= need && open === undefined) open = t;
    if (down < need && open !== undefined) {
      spans.push({ from: open, to: t });
      open = undefined;
    }
  }
  if (open !== undefined) spans.push({ from: open });
  return spans;
}

/** An alert for an episode, with its times for the status and its subject. */
function makeAlert(b: Build, config: AnyConfig, project: ProjectRec, e: Episode): AlertRec {
  const { r } = b;
  const ended = e.to !== undefined;
  const status: AlertStatus = ended
    ? e.cancelled
      ? 'CANCELLED'
      : 'CLOSED'
    : config.eventTypeName === 'OUTSIDE_METRIC_THRESHOLD' && -e.from < TRACKING_FOR
      ? 'TRACKING'
      : 'OPEN';
  const created = b.at(e.from);
  const alert: AlertRec = {
    id: r.id(),
    alertConfigId: config.id,
    created,
    updated: created,
    status,
    eventTypeName: config.eventTypeName,
  };
  alert.groupId = project.id;
  if (status === 'OPEN') {
    alert.lastNotified = b.at(-Math.floor(r.next() * Math.min(-e.from, 50 * MINUTE)));
    alert.updated = alert.lastNotified;
  }
  if (status === 'CLOSED') {
    alert.resolved = b.at(e.to!);
    alert.updated = alert.resolved;
    alert.lastNotified = timestamp(
      new Date(Date.parse(created) + Math.min(5 * MINUTE, (e.to! - e.from) / 2)),
    );
  }
  if (status === 'CANCELLED') alert.updated = b.at(e.to!);
  const host = e.host;
  const topo = TOPOLOGY.find((t) => t.name === project.name);
  const hostFields = (): void => {
    if (host === undefined) return;
    alert.hostId = host.id;
    alert.hostnameAndPort = `${host.hostname}:${host.port}`;
    if (host.replicaSetName !== undefined) alert.replicaSetName = host.replicaSetName;
  };
  const clusterFields = (rs: string | undefined, clusterId: string | undefined): void => {
    if (rs !== undefined) alert.replicaSetName = rs;
    if (clusterId !== undefined) alert.clusterId = clusterId;
    alert.clusterName = topo?.cluster ?? rs ?? host?.hostname ?? project.name;
  };
  switch (config.eventTypeName) {
    case 'OUTSIDE_METRIC_THRESHOLD':
      hostFields();
      if (config.metricThreshold !== undefined) alert.metricName = config.metricThreshold.metricName;
      if (e.value !== undefined) alert.currentValue = { ...e.value };
      break;
    case 'HOST_DOWN':
      hostFields();
      break;
    case 'REPLICATION_OPLOG_WINDOW_RUNNING_OUT':
      hostFields();
      clusterFields(host?.replicaSetName, host?.clusterId);
      if (e.value !== undefined) alert.currentValue = { ...e.value };
      break;
    case 'NO_PRIMARY': {
      const member = b.data.hosts.find((h) => h.groupId === project.id && h.replicaSetName === e.replicaSet);
      clusterFields(e.replicaSet, member?.clusterId);
      break;
    }
    default:
      // Agent alerts name the agent's host.
      if (host !== undefined) alert.hostnameAndPort = `${host.hostname}:${host.port}`;
  }
  return alert;
}

/** The world's acknowledgement of an open alert, if it has one. */
function acknowledge(b: Build, config: AnyConfig, alert: AlertRec): void {
  for (const ack of WORLD.acks) {
    if (configOf(b, ack.config) !== config || alert.status !== 'OPEN') continue;
    if (!alert.hostnameAndPort?.startsWith(`${fqdn(ack.host)}:`)) continue;
    alert.acknowledgingUsername = b.user(ack.by).username;
    alert.acknowledgementComment = ack.comment;
    alert.acknowledgedUntil = b.at(ack.until);
  }
}

/** The alert type a window names for each event type the world raises (API reference › Alert). */
const WINDOW_TYPE: Record<string, string> = {
  HOST_DOWN: 'HOST',
  OUTSIDE_METRIC_THRESHOLD: 'HOST',
  REPLICATION_OPLOG_WINDOW_RUNNING_OUT: 'REPLICA_SET',
  NO_PRIMARY: 'REPLICA_SET',
  MONITORING_AGENT_DOWN: 'AGENT',
  BACKUP_AGENT_DOWN: 'BACKUP',
};

/**
 * Nobody is notified of an alert while a window mutes its type or while it is acknowledged: its last
 * notification is the last moment before such a span, or none when it opened inside one.
 */
function quietNotifications(b: Build, config: AnyConfig, project: ProjectRec, alert: AlertRec): void {
  if (alert.status !== 'OPEN' || alert.lastNotified === undefined) return;
  const now = b.now.getTime();
  const quiet = [
    ...WORLD.windows
      .filter(
        (w) =>
          w.project === project.name && w.alertTypeNames.includes(WINDOW_TYPE[alert.eventTypeName] ?? '?'),
      )
      .map((w) => ({ from: w.start, to: w.end })),
    ...WORLD.acks
      .filter(
        (a) => configOf(b, a.config) === config && alert.hostnameAndPort?.startsWith(`${fqdn(a.host)}:`),
      )
      .map((a) => ({ from: a.at, to: a.until })),
  ];
  let t = Date.parse(alert.lastNotified) - now;
  for (let moved = true; moved; ) {
    moved = false;
    for (const q of quiet)
      if (t > q.from && t < q.to) {
        t = q.from;
        moved = true;
      }
  }
  if (t < Date.parse(alert.created) - now) delete alert.lastNotified;
  else alert.lastNotified = b.at(t);
  alert.updated = alert.lastNotified ?? alert.created;
}

const byTime = (x: Episode, y: Episode): number => x.from - y.from;

export function buildAlerts(b: Build): void {
  for (const config of b.data.alertConfigs) {
    if (!config.enabled) continue;
    const project = b.data.projects.find((p) => p.id === config.groupId)!;
    for (const e of episodes(b, config, project).sort(byTime)) {
      const alert = makeAlert(b, config, project, e);
      acknowledge(b, config, alert);
      quietNotifications(b, config, project, alert);
      b.data.alerts.push(alert);
    }
  }
}

export function buildGlobalAlerts(b: Build): void {
  for (const config of b.data.globalAlertConfigs) {
    if (!config.enabled) continue;
    for (const project of b.data.projects) {
      if (!config.forAllGroups && !config.groupIds.includes(project.id)) continue;
      for (const e of episodes(b, config, project).sort(byTime)) {
        const alert = makeAlert(b, config, project, e);
        acknowledge(b, config, alert);
        quietNotifications(b, config, project, alert);
        b.data.globalAlerts.push(alert);
      }
    }
  }
}
