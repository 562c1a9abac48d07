// What an alert is, by the platform's rules: the alert type a window mutes it by, whether it is about data
// availability (and so its severity), which agent an agent-down alert is about, and whether an event is a
// change to an alert configuration. The platform gives alerts no severity: this is ours, in one place.
import type { AgentType } from '../vocabulary/index.js';

/**
 * Event types that mean data is unavailable: no primary to write to, a host down, a member that must be
 * resynced, a cluster without its router. An agent down is not among them: the data is served, only unwatched
 * (agents.ts says when that matters).
 */
const DATA_AVAILABILITY_EVENTS: ReadonlySet<string> = new Set([
  'HOST_DOWN',
  'NO_PRIMARY',
  'RESYNC_REQUIRED',
  'CLUSTER_MONGOS_IS_MISSING',
]);

export const dataAvailability = (eventTypeName: string | undefined): boolean =>
  DATA_AVAILABILITY_EVENTS.has(eventTypeName ?? '');

/** The two severities, most severe first. */
export const SEVERITIES = ['critical', 'warning'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Data availability is critical, everything else a warning. */
export const severity = (eventTypeName: string | undefined): Severity =>
  dataAvailability(eventTypeName) ? SEVERITIES[0] : SEVERITIES[1];

export const isCritical = (eventTypeName: string | undefined): boolean =>
  severity(eventTypeName) === SEVERITIES[0];

/**
 * The maintenance-window alert type (HOST, REPLICA_SET, CLUSTER, AGENT, BACKUP) an alert's event type falls
 * under; a window listing that type mutes the alert's notifications. Host metrics count as HOST alerts.
 */
export function alertTypeOf(eventTypeName: string | undefined): string | undefined {
  const t = eventTypeName ?? '';
  if (/^BACKUP|BACKUP_AGENT/.test(t)) return 'BACKUP';
  if (/AGENT_(DOWN|UP)$|^AGENT/.test(t)) return 'AGENT';
  if (/^(HOST_|(OUTSIDE|INSIDE)_METRIC_THRESHOLD|DISK_)/.test(t)) return 'HOST';
  if (/^(REPLICATION_|NO_PRIMARY|PRIMARY_ELECTED|RESYNC_|TOO_MANY_ELECTIONS|MEMBER_|REPLICA_SET)/.test(t))
    return 'REPLICA_SET';
  if (/^(CLUSTER|SHARD_|BALANCER|MONGOS)/.test(t)) return 'CLUSTER';
  return undefined;
}

/** The agent type an agent-down alert is about (MONITORING_AGENT_DOWN → MONITORING), if it is one. */
export function agentTypeOfAlert(eventTypeName: string | undefined): AgentType | undefined {
  const m = /^(MONITORING|BACKUP|AUTOMATION)_AGENT_DOWN$/.exec(eventTypeName ?? '');
  return m ? (m[1] as AgentType) : undefined;
}

/** A change to an alert configuration, the project's or a global one (created, changed, enabled, deleted…). */
export const isConfigChange = (eventTypeName: string | undefined): boolean =>
  /^(GLOBAL_)?ALERT_CONFIG_/.test(eventTypeName ?? '');

/** An acknowledgement given or withdrawn (the field's audit events; the spec names none). */
export const isAckEvent = (eventTypeName: string | undefined): boolean =>
  /^ALERT_(UN)?ACKNOWLEDGED_AUDIT$/.test(eventTypeName ?? '');

/** Statuses of an alert that is still open: it notifies (OPEN) or will when it lasts (TRACKING). */
export const isOpen = (a: { status?: string }): boolean => a.status === 'OPEN' || a.status === 'TRACKING';
