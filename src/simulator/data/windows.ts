// Maintenance windows: one active now, some ahead, some past.

import type { ALERT_TYPE_NAMES, MORE_ALERT_TYPE_NAMES } from '../../platform/index.js';
import { type Build, DAY, HOUR } from './gen.js';

type WindowAlertType = (typeof ALERT_TYPE_NAMES)[number] | (typeof MORE_ALERT_TYPE_NAMES)[number];

/** Project, start and end (ms from now), muted alert types, description. */
export const WINDOWS: Array<[string, number, number, WindowAlertType[], string | undefined]> = [
  ['payments-prod', -1 * HOUR, 2 * HOUR, ['HOST', 'REPLICA_SET'], 'Rolling OS patching of rs-ledger'],
  ['payments-prod', -10 * DAY, -10 * DAY + 3 * HOUR, ['HOST'], 'Kernel upgrade'],
  [
    'search-staging',
    1 * DAY,
    1 * DAY + 4 * HOUR,
    ['HOST', 'REPLICA_SET', 'AGENT'],
    'Index rebuild on rs-search',
  ],
  ['analytics-prod', 3 * DAY, 3 * DAY + 6 * HOUR, ['CLUSTER', 'BACKUP'], undefined],
  ['analytics-prod', -20 * DAY, -20 * DAY + 2 * HOUR, ['CLUSTER'], 'Balancer window change'],
  ['platform-dev', 7 * DAY, 7 * DAY + 1 * HOUR, ['AGENT'], 'Agent upgrade'],
];

export function buildWindows(b: Build): void {
  for (const [project, start, end, alertTypeNames, description] of WINDOWS) {
    const created = b.at(Math.min(start, 0) - b.r.int(1, 5) * DAY);
    b.data.maintenanceWindows.push({
      id: b.r.id(),
      groupId: b.project(project).id,
      created,
      updated: created,
      startDate: b.at(start),
      endDate: b.at(end),
      alertTypeNames,
      ...(description === undefined ? {} : { description }),
    });
  }
}
