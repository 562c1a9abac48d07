// Alerts of the project configurations: a few per configuration, statuses from a cycle (open, closed,
// tracking, cancelled), every third open one acknowledged; and the subject fields by event type.

import type { AlertStatus } from '../../platform/index.js';
import type { AlertRec, HostRec, MatcherRec, MetricThresholdRec } from '../records.js';
import { timestamp } from '../values.js';
import { type Build, DAY, HOUR, MINUTE } from './gen.js';
import { TOPOLOGY } from './topology.js';

/** Statuses handed out in turn across all project alerts (a disabled configuration has none open). */
const STATUS_CYCLE: AlertStatus[] = [
  'OPEN',
  'CLOSED',
  'TRACKING',
  'OPEN',
  'CLOSED',
  'CANCELLED',
  'OPEN',
  'CLOSED',
];
const ACKNOWLEDGERS = ['priya.raman@example.com', 'marcus.chen@example.com', 'oncall-bot'];
const ACK_COMMENTS = [
  'Known issue, fix deploying tonight',
  'Investigating with the app team',
  'Expected during the batch import',
];

interface AlertSource {
  config: { id: string; eventTypeName: string; metricThreshold?: MetricThresholdRec };
  groupId: string;
  matchers: MatcherRec[];
  status: AlertStatus;
}

/** An alert with its times for the status, and its subject (host, replica set, cluster, value). */
export function makeAlert(b: Build, { config, groupId, matchers, status }: AlertSource): AlertRec {
  const { r } = b;
  const created =
    status === 'TRACKING'
      ? b.ago(1 * MINUTE, 9 * MINUTE)
      : status === 'OPEN'
        ? b.ago(1 * HOUR, 5 * DAY)
        : b.ago(1 * DAY, 28 * DAY);
  const createdMs = Date.parse(created);
  const alert: AlertRec = {
    id: r.id(),
    alertConfigId: config.id,
    created,
    updated: created,
    status,
    eventTypeName: config.eventTypeName,
  };
  alert.groupId = groupId;
  if (status === 'OPEN') {
    alert.lastNotified = b.ago(0, Math.min(b.now.getTime() - createdMs, 50 * MINUTE));
    alert.updated = alert.lastNotified;
  }
  if (status === 'CLOSED') {
    alert.resolved = timestamp(new Date(createdMs + r.int(10, 360) * MINUTE));
    alert.updated = alert.resolved;
    alert.lastNotified = timestamp(new Date(createdMs + 5 * MINUTE));
  }
  if (status === 'CANCELLED') alert.updated = timestamp(new Date(createdMs + r.int(2, 90) * MINUTE));
  fillSubject(b, alert, matchers, config.metricThreshold);
  return alert;
}

/** The project's hosts a configuration's matchers point at (all but mongos when they name no set). */
function hostsFor(b: Build, groupId: string, matchers: MatcherRec[]): HostRec[] {
  const all = b.data.hosts.filter((h) => h.groupId === groupId && h.typeName !== 'SHARD_MONGOS');
  const rs = matchers.find(
    (x) => (x.fieldName ?? x.field) === 'REPLICA_SET_NAME' || (x.fieldName ?? x.field) === 'SHARD_NAME',
  );
  const narrowed = rs === undefined ? all : all.filter((h) => h.replicaSetName === rs.value);
  return narrowed.length > 0 ? narrowed : all;
}

function fillSubject(b: Build, alert: AlertRec, matchers: MatcherRec[], mt?: MetricThresholdRec): void {
  const { r } = b;
  const groupId = alert.groupId!;
  const host = r.pick(hostsFor(b, groupId, matchers));
  const hostFields = (): void => {
    alert.hostId = host.id;
    alert.hostnameAndPort = `${host.hostname}:${host.port}`;
    if (host.replicaSetName !== undefined) alert.replicaSetName = host.replicaSetName;
  };
  const clusterFields = (): void => {
    if (host.replicaSetName !== undefined) alert.replicaSetName = host.replicaSetName;
    if (host.clusterId !== undefined) alert.clusterId = host.clusterId;
    const topo = TOPOLOGY.find((t) => b.data.projects.find((p) => p.name === t.name)?.id === groupId);
    alert.clusterName = topo?.cluster ?? host.replicaSetName ?? host.hostname;
  };
  switch (alert.eventTypeName) {
    case 'OUTSIDE_METRIC_THRESHOLD': {
      hostFields();
      if (mt !== undefined) {
        alert.metricName = mt.metricName;
        const over = mt.operator === 'LESS_THAN' ? -1 : 1;
        const value = mt.threshold * (1 + over * (0.05 + r.next() * 0.6));
        alert.currentValue = { number: Math.round(value * 100) / 100, units: mt.units };
      }
      break;
    }
    case 'HOST_DOWN':
      hostFields();
      break;
    case 'REPLICATION_OPLOG_WINDOW_RUNNING_OUT':
      hostFields();
      clusterFields();
      alert.currentValue = { number: r.int(6, 23), units: 'HOURS' };
      break;
    case 'NO_PRIMARY':
      clusterFields();
      break;
    case 'RESYNC_REQUIRED':
      clusterFields();
      alert.sourceTypeName = 'REPLICA_SET';
      break;
    default:
      // Agent alerts name the agent's host.
      alert.hostnameAndPort = `${host.hostname}:${host.port}`;
  }
}

/** Every third open alert is acknowledged: one far ahead, one for hours, one whose ack has lapsed. */
function acknowledge(b: Build, alert: AlertRec, nth: number): void {
  const { r } = b;
  alert.acknowledgingUsername = b.user(r.pick(ACKNOWLEDGERS)).username;
  alert.acknowledgementComment = r.pick(ACK_COMMENTS);
  const kind = nth % 3;
  alert.acknowledgedUntil =
    kind === 0 ? b.at(100 * 365 * DAY) : kind === 1 ? b.at(r.int(2, 12) * HOUR) : b.at(-r.int(1, 5) * HOUR);
}

export function buildAlerts(b: Build): void {
  let alertCount = 0;
  let openCount = 0;
  for (const [i, config] of b.data.alertConfigs.entries()) {
    const count = 2 + (i % 3);
    for (let n = 0; n < count; n++) {
      let status = STATUS_CYCLE[alertCount % STATUS_CYCLE.length]!;
      alertCount += 1;
      if (!config.enabled && (status === 'OPEN' || status === 'TRACKING')) status = 'CLOSED';
      const alert = makeAlert(b, { config, groupId: config.groupId, matchers: config.matchers, status });
      if (status === 'OPEN') {
        openCount += 1;
        if (openCount % 3 === 0) acknowledge(b, alert, openCount / 3);
      }
      b.data.alerts.push(alert);
    }
  }
}
