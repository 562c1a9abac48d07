// Maintenance windows, from the world: one in force now, some ahead, some past; each created by a person some
// days before it starts (the MAINTENANCE_WINDOW_ADDED_AUDIT event says who).

import type { Build } from './gen.js';
import { DAY } from './gen.js';
import { WORLD } from './world.js';

export function buildWindows(b: Build): void {
  for (const w of WORLD.windows) {
    const created = b.at(Math.min(w.start, 0) - b.r.int(1, 5) * DAY);
    b.data.maintenanceWindows.push({
      id: b.r.id(),
      groupId: b.project(w.project).id,
      created,
      updated: created,
      startDate: b.at(w.start),
      endDate: b.at(w.end),
      alertTypeNames: w.alertTypeNames,
      ...(w.description === undefined ? {} : { description: w.description }),
    });
  }
}
