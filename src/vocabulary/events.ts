// Event type names and the shape words of automation diffs (API reference › Event, Alert › eventTypeName).
// The API reference does not list every event type; EVENT_TYPES holds the names this project reads or writes:
// its observed ones, the alert-configuration events, and what real servers emit for the audited
// actions.

/** Event type names the API reference shows as observed on events. */
const OBSERVED_EVENT_TYPES = [
  'AUTOMATION_CONFIG_PUBLISHED_AUDIT',
  'OUTSIDE_METRIC_THRESHOLD',
  'DATA_EXPLORER',
  'DATA_EXPLORER_CRUD',
] as const;

/** Event types alert configurations trigger on (the API reference's observed values and the demo's). */
const ALERT_EVENT_TYPES = [
  'OUTSIDE_METRIC_THRESHOLD',
  'HOST_DOWN',
  'NO_PRIMARY',
  'RESYNC_REQUIRED',
  'REPLICATION_OPLOG_WINDOW_RUNNING_OUT',
  'MONITORING_AGENT_DOWN',
  'BACKUP_AGENT_DOWN',
] as const;

/** The API reference's Backup category of event type names. */
const BACKUP_EVENT_TYPES = [
  'BAD_CLUSTERSHOTS',
  'CLUSTER_DENYLIST_UPDATED_AUDIT',
  'CLUSTER_CHECKKPOINT_UPDATED_AUDIT',
  'CLUSTER_CREDENTIAL_UPDATED_AUDIT',
  'CLUSTER_SNAPSHOT_SCHEDULE_UPDATED_AUDIT',
  'CLUSTER_STATE_CHANGED_AUDIT',
  'CLUSTER_STORAGE_ENGINE_UPDATED_AUDIT',
  'CLUSTERSHOT_DELETED_AUDIT',
  'CLUSTERSHOT_EXPIRY_UPDATED_AUDIT',
  'CONSISTENT_BACKUP_CONFIGURATION',
  'GOOD_CLUSTERSHOT',
  'INCONSISTENT_BACKUP_CONFIGURATION',
  'INITIAL_SYNC_FINISHED_AUDIT',
  'INITIAL_SYNC_STARTED_AUDIT',
  'OPLOG_BEHIND',
  'OPLOG_CURRENT',
  'RESTORE_REQUESTED_AUDIT',
  'RESYNC_PERFORMED',
  'RESYNC_REQUIRED',
  'RS_DENYLIST_UPDATED_AUDIT',
  'RS_CREDENTIAL_UPDATED_AUDIT',
  'RS_ROTATE_MASTER_KEY_AUDIT',
  'RS_SNAPSHOT_SCHEDULE_UPDATED_AUDIT',
  'RS_STATE_CHANGED_AUDIT',
  'RS_STORAGE_ENGINE_UPDATED_AUDIT',
  'SNAPSHOT_DELETED_AUDIT',
  'SNAPSHOT_EXPIRY_UPDATED_AUDIT',
  'SYNC_PENDING_AUDIT',
  'SYNC_REQUIRED_AUDIT',
] as const;

/** Events real servers record for the audited actions and state changes this project touches. */
const AUDIT_EVENT_TYPES = [
  'INSIDE_METRIC_THRESHOLD',
  'HOST_RECOVERED',
  'PRIMARY_ELECTED',
  'MONITORING_AGENT_UP',
  'DAEMON_DOWN',
  'DAEMON_UP',
  'ALERT_ACKNOWLEDGED_AUDIT',
  'ALERT_UNACKNOWLEDGED_AUDIT',
  'ALERT_CONFIG_CHANGED_AUDIT',
  'ALERT_CONFIG_ENABLED_AUDIT',
  'ALERT_CONFIG_DISABLED_AUDIT',
  'MAINTENANCE_WINDOW_ADDED_AUDIT',
  'MAINTENANCE_WINDOW_CHANGED_AUDIT',
  'MAINTENANCE_WINDOW_DELETED_AUDIT',
  'INTEGRATION_CONFIGURED',
  'INTEGRATION_UPDATED',
  'API_KEY_CREATED',
  'API_KEY_ADDED_TO_GROUP',
  'API_KEY_ACCESS_LIST_ENTRY_ADDED',
  'USER_CREATED_AUDIT',
  'USER_ROLES_CHANGED_AUDIT',
  'INVITED_TO_GROUP',
  'INVITED_TO_ORG',
  'JOINED_GROUP',
  'JOINED_ORG',
  'GROUP_TAGS_CHANGED',
  'SUCCESSFUL_LOGIN_AUDIT',
  'UNSUCCESSFUL_LOGIN_AUDIT',
] as const;

/** Every event type name the project knows (a union for typing what the simulator writes). */
export const EVENT_TYPES = [
  ...new Set([...OBSERVED_EVENT_TYPES, ...ALERT_EVENT_TYPES, ...BACKUP_EVENT_TYPES, ...AUDIT_EVENT_TYPES]),
] as ReadonlyArray<EventType>;
export type EventType =
  | (typeof OBSERVED_EVENT_TYPES)[number]
  | (typeof ALERT_EVENT_TYPES)[number]
  | (typeof BACKUP_EVENT_TYPES)[number]
  | (typeof AUDIT_EVENT_TYPES)[number];

/** status of an automation diff (events' `diffs`). */
const DIFF_STATUSES = ['NEW', 'MODIFIED', 'REMOVED', 'SHUTDOWN', 'STARTUP', 'RESTORE', 'RESTART'] as const;
/** type of an automation diff. */
const DIFF_TYPES = [
  'AUTH',
  'AUTOMATION_AGENT',
  'BACKUP_AGENT',
  'BI_CONNECTOR',
  'MONITORING_AGENT',
  'PROCESS',
  'REPLICA_SET',
  'ROLES',
  'USERS',
] as const;
export type DiffStatus = (typeof DIFF_STATUSES)[number];
export type DiffType = (typeof DIFF_TYPES)[number];
