// Automation status of a project: the goal version and its processes. Processes at goal are always listed;
// of the processes with a plan, only the 50 whose plan changed most recently are (the spec's "50 most
// recent plans"); older plans are left out.

import type { ProcessRec } from '../records.js';
import type { SimRoute } from '../types.js';
import { requireProjectRole } from './access.js';

const MAX_PLANS = 50;

export function recentPlans(processes: readonly ProcessRec[]): ProcessRec[] {
  const planned = processes
    .filter((p) => p.plan.length > 0)
    .sort((a, b) => b.planUpdated.localeCompare(a.planUpdated))
    .slice(0, MAX_PLANS);
  const keep = new Set(planned);
  return processes.filter((p) => p.plan.length === 0 || keep.has(p));
}

function renderProcess(p: ProcessRec): Record<string, unknown> {
  return {
    name: p.name,
    hostname: p.hostname,
    lastGoalVersionAchieved: p.lastGoalVersionAchieved,
    plan: [...p.plan],
    errorCode: p.errorCode,
    errorCodeDescription: p.errorCodeDescription,
    errorCodeHumanReadable: p.errorCodeHumanReadable,
    errorString: p.errorString,
  };
}

export const automationRoutes: SimRoute[] = [
  {
    method: 'GET',
    path: '/groups/:groupId/automationStatus/full',
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.groupId ?? '', 'read');
      const status = ctx.store.data.automation.find((a) => a.groupId === project.id);
      return {
        status: 200,
        body: {
          goalVersion: status?.goalVersion ?? 0,
          processes: recentPlans(status?.processes ?? []).map(renderProcess),
        },
      };
    },
  },
];
