// Alerts, alert configurations and maintenance windows (API reference › Alert, Alert configuration, Notification,
// Maintenance window, Alert status, endpoint "matcher field names").

/** Alert status values (API reference › States › Alert status). */
export const ALERT_STATUSES = ['TRACKING', 'OPEN', 'CLOSED', 'CANCELLED'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** Alert types a maintenance window mutes: the API reference's examples, in its order. */
export const ALERT_TYPE_NAMES = ['HOST', 'REPLICA_SET', 'CLUSTER', 'AGENT', 'BACKUP'] as const;
/** Further alert categories (API reference › Alert › eventTypeName categories) real servers accept in a window. */
export const MORE_ALERT_TYPE_NAMES = ['BI_CONNECTOR'] as const;

/** Values of matchers[].fieldName (GET /alertConfigs/matchers/fieldNames). */
export const MATCHER_FIELD_NAMES = [
  'TYPE_NAME',
  'HOSTNAME',
  'PORT',
  'HOSTNAME_AND_PORT',
  'REPLICA_SET_NAME',
  'SHARD_NAME',
  'CLUSTER_NAME',
] as const;
export type MatcherFieldName = (typeof MATCHER_FIELD_NAMES)[number];

/** Notification typeName values: the means of notification. */
const NOTIFICATION_TYPES = [
  'EMAIL',
  'SMS',
  'ORG',
  'GROUP',
  'USER',
  'WEBHOOK',
  'TEAM_CHAT_A',
  'TEAM_CHAT_B',
  'TEAM_CHAT_C',
  'INCIDENT_PAGING_A',
  'INCIDENT_PAGING_B',
  'INCIDENT_PAGING_C',
  'MONITORING_SAAS',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * Notification types that page a person by themselves, and the service's name: an incident-paging integration
 * (the spec's INCIDENT_PAGING_A/B/C, the field's PAGER_DUTY, OPS_GENIE, VICTOR_OPS) or a text message. Whether
 * a notification pages (USER, GROUP, ORG with smsEnabled too) is the rule's: src/rules/paging.ts.
 */
export const PAGING_NOTIFICATION_TYPES: Record<string, string> = {
  INCIDENT_PAGING_A: 'PagerDuty',
  INCIDENT_PAGING_B: 'OpsGenie',
  INCIDENT_PAGING_C: 'VictorOps',
  PAGER_DUTY: 'PagerDuty',
  OPS_GENIE: 'OpsGenie',
  VICTOR_OPS: 'VictorOps',
  SMS: 'SMS',
};
