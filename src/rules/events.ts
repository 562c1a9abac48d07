// What kind of change an event records, or none: "what changed" leaves out alert and metric state, host and
// agent state, data reads and logins, and keeps configuration publishes, access, windows, alerting, settings
// and data writes.
import { isAckEvent } from './alerts.js';

export type ChangeKind = 'deployment' | 'access' | 'maintenance' | 'alerting' | 'settings' | 'data';

interface EventFields {
  eventTypeName?: string;
  username?: string;
  userId?: string;
  publicKey?: string;
  apiKeyId?: string;
}

// Data operations that write (a delete or bulk update before errors is a classic cause); reads are not changes.
const DATA_WRITE =
  /^(INSERT|UPDATE|DELETE|REPLACE|DROP|RENAME|CREATE|BULK|FIND_AND_MODIFY|UPDATE_MANY|DELETE_MANY)/i;

// Alert and metric state, host and agent state, data reads and writes, logins: noise for "what changed".
const NOT_A_CHANGE =
  /^(ALERT_(ACKNOWLEDGED|UNACKNOWLEDGED)|(OUTSIDE|INSIDE)_METRIC_THRESHOLD|HOST_|PRIMARY_ELECTED|DATA_EXPLORER|.*AGENT_(DOWN|UP)$|.*LOGIN|DAEMON_|NO_PRIMARY|REPLICATION_|RESYNC_)/;

const ACCESS = /ROLES?_|USER_|JOINED_|REMOVED_FROM|API_KEY|TEAM_|INVITATION/;

/**
 * What kind of change an event records, or undefined when it records none. Configuration publishes, role
 * and membership changes, maintenance windows, alert configurations and integrations are changes; so is any
 * other audited action of a person or key that is not in the noise list above.
 */
export function changeKind(e: EventFields): ChangeKind | undefined {
  const t = e.eventTypeName ?? '';
  const op = (e as Record<string, unknown>).opType;
  if (typeof op === 'string') return DATA_WRITE.test(op) ? 'data' : undefined;
  if (NOT_A_CHANGE.test(t)) return undefined;
  if (t.startsWith('AUTOMATION_CONFIG')) return 'deployment';
  if (t.startsWith('MAINTENANCE_WINDOW')) return 'maintenance';
  if (t.startsWith('ALERT_CONFIG') || t.startsWith('INTEGRATION')) return 'alerting';
  if (ACCESS.test(t)) return 'access';
  const actor = e.username ?? e.userId ?? e.publicKey ?? e.apiKeyId;
  return actor !== undefined || t.endsWith('_AUDIT') || t.endsWith('_CHANGED') ? 'settings' : undefined;
}

/** What a timeline keeps: a change, or an acknowledgement given or withdrawn (who took it on, and when). */
export const timelineWorthy = (e: EventFields): boolean =>
  changeKind(e) !== undefined || isAckEvent(e.eventTypeName);
