// What changes in a feed of open alerts: one opens, closes, or is (un)acknowledged — or its acknowledgement lapses.
import type { Alert } from '../api/client.js';
import { ackInForce } from '../rules/index.js';

/** What changes when an alert opens, closes, or is (un)acknowledged — or its acknowledgement lapses. */
export function alertsFingerprint(alerts: Alert[], now: Date): string {
  return alerts
    .map((a) => `${a.id}:${a.status}:${a.acknowledgedUntil ?? ''}:${ackInForce(a, now) ? 1 : 0}`)
    .sort()
    .join(',');
}
