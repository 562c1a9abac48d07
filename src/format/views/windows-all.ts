// Maintenance windows across every project (`projectId: "all"`), soonest start first.
import type { MaintenanceWindow, PageQuery } from '../../api/types.js';
import type { FormatContext, ToolAnswer } from '../answers.js';
import { type Across, acrossAnswer } from './projects-all.js';
import { windowList } from './windows.js';

export function windowsAcross(
  a: Across<MaintenanceWindow>,
  q: Required<PageQuery>,
  o: { state?: string; startsWithinHours?: number },
  f: FormatContext,
): ToolAnswer {
  return acrossAnswer(
    a,
    q,
    {
      title: 'Maintenance windows',
      ...windowList,
      order: 'soonest start first',
      filters:
        [o.state, o.startsWithinHours && `starting within ${o.startsWithinHours} h`]
          .filter(Boolean)
          .join(', ') || undefined,
      narrow: 'state=upcoming or active, startsWithinHours, or one projectId',
      next: 'update_maintenance_window or delete_maintenance_window with its projectId and windowId',
      empty: 'No active or upcoming maintenance windows match.',
    },
    f,
  );
}
