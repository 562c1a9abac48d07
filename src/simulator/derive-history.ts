// What happened in the demo's world (data/world.ts), recorded as events when it happened and by whom: hosts
// down and recovered, agents gone quiet, readings crossing thresholds (with the alert they opened),
// deployments published, thresholds changed, configurations disabled, keys rotated, windows added, alerts
// acknowledged. Drawn in this order from the one PRNG: a step moved changes every id after it.

import type { EventType } from '../vocabulary/index.js';
import type { Build } from './data/gen.js';
import { configOf, fqdn, hostRec } from './data/state.js';
import { WORLD } from './data/world.js';
import type { EventRec, HostRec, UserRec } from './records.js';

type Actor = (user: UserRec) => Record<string, unknown>;

function rawClass(eventTypeName: string): string {
  if (eventTypeName.startsWith('AUTOMATION_CONFIG')) return 'AutomationConfigEvent';
  if (eventTypeName.includes('METRIC_THRESHOLD')) return 'HostMetricEvent';
  if (eventTypeName.startsWith('HOST_') || eventTypeName === 'PRIMARY_ELECTED') return 'HostEvent';
  if (eventTypeName.startsWith('DATA_EXPLORER')) return 'DataExplorerAccessedEvent';
  if (eventTypeName.startsWith('ALERT_')) return 'AlertAudit';
  if (eventTypeName.startsWith('MAINTENANCE_WINDOW')) return 'MaintenanceWindowAudit';
  if (eventTypeName.includes('AGENT')) return 'AgentEvent';
  return 'UserEvent';
}
/** The raw document of a project event (shown with includeRaw). */
export function rawOf(event: EventRec, projectName: string, source: string): Record<string, unknown> {
  const type = event.eventTypeName;
  return {
    _t: rawClass(type),
    cid: event.groupId,
    cre: event.created,
    gn: projectName,
    id: event.id,
    et: type,
    severity:
      type === 'OUTSIDE_METRIC_THRESHOLD' ||
      type === 'HOST_DOWN' ||
      type.endsWith('_AGENT_DOWN') ||
      type === 'NO_PRIMARY'
        ? 'WARNING'
        : 'INFO',
    source,
    hidden: false,
  };
}

/** Adds the events of one kind of happening, each drawn in turn. */
interface Recorder {
  b: Build;
  add(groupId: string, at: number | string, type: EventType, fields: Record<string, unknown>): EventRec;
  hostFields(host: HostRec): Record<string, unknown>;
  by(username: string): Record<string, unknown>;
}

function recorder(b: Build, userActor: Actor, out: EventRec[]): Recorder {
  const { r, data } = b;
  return {
    b,
    add(groupId, at, type, fields) {
      const project = data.projects.find((p) => p.id === groupId)!;
      const created = typeof at === 'string' ? at : b.at(at);
      const event: EventRec = { id: r.id(), created, eventTypeName: type, groupId, ...fields };
      event.raw = rawOf(event, project.name, fields.username === undefined ? 'SYSTEM' : 'USER');
      out.push(event);
      return event;
    },
    hostFields: (host) => ({
      hostId: host.id,
      hostname: host.hostname,
      port: host.port,
      ...(host.replicaSetName === undefined ? {} : { replicaSetName: host.replicaSetName }),
      ...(host.clusterId === undefined ? {} : { clusterId: host.clusterId }),
    }),
    by: (username) => userActor(b.user(username)),
  };
}

/** Hosts unreachable and back; agents gone quiet and back (the platform records a monitoring agent's return only). */
function recordQuiet({ b, add, hostFields }: Recorder): void {
  for (const o of WORLD.outages) {
    const host = hostRec(b, o.host);
    add(host.groupId, o.from, 'HOST_DOWN', hostFields(host));
    if (o.to !== undefined) add(host.groupId, o.to, 'HOST_RECOVERED', hostFields(host));
  }
  // Their own silences, and the agents of a machine that went down.
  const machineQuiet = WORLD.outages
    .filter((o) => o.machine)
    .flatMap((o) =>
      Object.entries(WORLD.agents).flatMap(([project, agents]) =>
        agents
          .filter((a) => a.host === o.host)
          .map((a) => ({
            project,
            type: a.type,
            host: a.host,
            from: o.from,
            ...(o.to === undefined ? {} : { to: o.to }),
          })),
      ),
    );
  for (const s of [...WORLD.silences, ...machineQuiet]) {
    const groupId = b.project(s.project).id;
    add(groupId, s.from, s.type === 'MONITORING' ? 'MONITORING_AGENT_DOWN' : 'BACKUP_AGENT_DOWN', {
      hostname: fqdn(s.host),
    });
    if (s.to !== undefined && s.type === 'MONITORING')
      add(groupId, s.to, 'MONITORING_AGENT_UP', { hostname: fqdn(s.host) });
  }
}

/** Readings crossing thresholds: the alert each opened, and its return inside. */
function recordReadings({ b, add, hostFields }: Recorder): void {
  const { data } = b;
  for (const alert of [...data.alerts, ...data.globalAlerts]) {
    if (alert.eventTypeName !== 'OUTSIDE_METRIC_THRESHOLD' || alert.hostId === undefined) continue;
    const host = data.hosts.find((h) => h.id === alert.hostId)!;
    const fields = {
      ...hostFields(host),
      alertId: alert.id,
      alertConfigId: alert.alertConfigId,
      metricName: alert.metricName,
      currentValue: alert.currentValue,
    };
    if (alert.status !== 'TRACKING') add(alert.groupId!, alert.created, 'OUTSIDE_METRIC_THRESHOLD', fields);
    if (alert.resolved !== undefined) add(alert.groupId!, alert.resolved, 'INSIDE_METRIC_THRESHOLD', fields);
  }
}

/** Deployments published. */
function recordDeployments({ b, add, by }: Recorder): void {
  for (const d of WORLD.deployments) {
    const project = b.project(d.project);
    const diffs = d.hosts.map((short) => {
      const p = b.data.automation
        .find((a) => a.groupId === project.id)
        ?.processes.find((x) => x.hostname === fqdn(short));
      return {
        id: p?.name ?? short,
        name: p?.name ?? short,
        params: [d.change],
        status: 'MODIFIED',
        type: 'PROCESS',
        roles: [],
        priviileges: null,
      };
    });
    add(project.id, d.at, 'AUTOMATION_CONFIG_PUBLISHED_AUDIT', { ...by(d.by), diffs });
  }
}

/** Thresholds changed (who, and before → after), configurations disabled or enabled, keys rotated, windows added. */
function recordChanges({ b, add, by }: Recorder): void {
  for (const c of WORLD.thresholdChanges) {
    const config = configOf(b, c.config);
    const metric = config.metricThreshold?.metricName;
    add(b.project(c.config.project!).id, c.at, 'ALERT_CONFIG_CHANGED_AUDIT', {
      ...by(c.by),
      alertConfigId: config.id,
      diffs: [
        {
          id: config.id,
          name: metric ?? config.eventTypeName,
          params: [{ display: 'Threshold', param: 'threshold', old: String(c.from), new: String(c.to) }],
          status: 'MODIFIED',
          type: 'ALERT_CONFIG',
          roles: [],
          priviileges: null,
        },
      ],
    });
  }
  for (const t of WORLD.toggles) {
    const type = t.enabled ? 'ALERT_CONFIG_ENABLED_AUDIT' : 'ALERT_CONFIG_DISABLED_AUDIT';
    add(b.project(t.config.project!).id, t.at, type, {
      ...by(t.by),
      alertConfigId: configOf(b, t.config).id,
    });
  }
  for (const rot of WORLD.rotations)
    add(b.project(rot.project).id, rot.at, 'INTEGRATION_UPDATED', {
      ...by(rot.by),
      integrationType: rot.integration,
    });
  for (const [i, w] of WORLD.windows.entries()) {
    const rec = b.data.maintenanceWindows[i]!;
    add(rec.groupId, rec.created, 'MAINTENANCE_WINDOW_ADDED_AUDIT', {
      ...by(w.by),
      maintenanceWindowId: rec.id,
    });
  }
}

/** Alerts acknowledged. */
function recordAcks({ b, add, by }: Recorder): void {
  for (const alert of [...b.data.alerts, ...b.data.globalAlerts]) {
    if (alert.acknowledgingUsername === undefined) continue;
    const ack = WORLD.acks.find(
      (a) =>
        alert.hostnameAndPort?.startsWith(`${fqdn(a.host)}:`) &&
        configOf(b, a.config).id === alert.alertConfigId,
    );
    if (ack === undefined) continue;
    add(alert.groupId!, ack.at, 'ALERT_ACKNOWLEDGED_AUDIT', {
      ...by(ack.by),
      alertId: alert.id,
      alertConfigId: alert.alertConfigId,
    });
  }
}

/** The events of what happened in the world, each when it happened and by whom. */
export function recordWorld(b: Build, userActor: Actor): EventRec[] {
  const out: EventRec[] = [];
  const rec = recorder(b, userActor, out);
  for (const step of [recordQuiet, recordReadings, recordDeployments, recordChanges, recordAcks]) step(rec);
  return out;
}
