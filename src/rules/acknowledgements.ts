// Who acknowledged an alert, until when and why, while it lasts; and an acknowledgement that lapsed: the alert
// keeps no trace of it once it ends, only an acknowledgement event says it happened.
import { isOpen } from './alerts.js';

interface AckFields {
  id?: string;
  status?: string;
  acknowledgedUntil?: string;
  acknowledgingUsername?: string;
  acknowledgementComment?: string;
}

export interface Acknowledgement {
  by?: string;
  until: string;
  comment?: string;
}

/** An acknowledgement in force at `now`: until a time still ahead. */
export function ackInForce(a: AckFields, now: Date): boolean {
  return Boolean(a.acknowledgedUntil && Date.parse(a.acknowledgedUntil) > now.getTime());
}

/** The acknowledgement in force (by whom, until when, the comment), if there is one. */
export function acknowledgement(a: AckFields, now: Date): Acknowledgement | undefined {
  if (!ackInForce(a, now)) return undefined;
  return {
    until: a.acknowledgedUntil!,
    ...(a.acknowledgingUsername ? { by: a.acknowledgingUsername } : {}),
    ...(a.acknowledgementComment ? { comment: a.acknowledgementComment } : {}),
  };
}

interface AckEvent {
  id?: string;
  created?: string;
  eventTypeName?: string;
  alertId?: string;
  username?: string;
}

export const ACKNOWLEDGED = 'ALERT_ACKNOWLEDGED_AUDIT';
export const UNACKNOWLEDGED = 'ALERT_UNACKNOWLEDGED_AUDIT';

/**
 * An acknowledgement that lapsed: the newest acknowledgement event of an alert that is open and not
 * acknowledged now, unless a later event withdrew it (then it was taken back, not lapsed).
 */
export function lapsedAck<E extends AckEvent>(a: AckFields, events: readonly E[], now: Date): E | undefined {
  if (!isOpen(a) || ackInForce(a, now)) return undefined;
  const mine = events
    .filter(
      (e) => e.alertId === a.id && (e.eventTypeName === ACKNOWLEDGED || e.eventTypeName === UNACKNOWLEDGED),
    )
    .sort((x, y) => (Date.parse(y.created ?? '') || 0) - (Date.parse(x.created ?? '') || 0));
  return mine[0]?.eventTypeName === ACKNOWLEDGED ? mine[0] : undefined;
}
