// Automation status: most processes at goal, some behind with a plan, one failing to start.

import type { ProcessRec } from '../records.js';
import { type Build, DAY, HOUR, MINUTE } from './gen.js';
import { hostsOf, TOPOLOGY } from './topology.js';

interface Lagging {
  /** Index of the process among the project's hosts. */
  index: number;
  plan: string[];
  versionsBehind?: number;
  /** The process failed: its error fields are filled. */
  fails?: boolean;
}

/** Processes not at the goal version, by project. */
const LAGGING: Record<string, Lagging[]> = {
  'payments-prod': [{ index: 5, plan: ['Download', 'Start', 'WaitRsInit'] }],
  'analytics-prod': [
    { index: 1, plan: ['Download', 'Start', 'WaitFeatureCompatibilityVersionCorrect'] },
    { index: 2, plan: ['Download', 'Start', 'WaitFeatureCompatibilityVersionCorrect'] },
    { index: 7, plan: ['AdjustRoles'], versionsBehind: 2 },
  ],
  'search-staging': [{ index: 2, plan: ['Start', 'WaitRsInit'], fails: true }],
};

export function buildAutomation(b: Build): void {
  for (const [i, project] of b.data.projects.entries()) {
    const goal = TOPOLOGY[i]!.goalVersion;
    const hosts = hostsOf(b, project);
    const processes: ProcessRec[] = hosts.map((host, n) => {
      const name =
        host.replicaSetName !== undefined
          ? `${host.replicaSetName}_${hosts.filter((h) => h.replicaSetName === host.replicaSetName).indexOf(host)}`
          : host.typeName === 'SHARD_MONGOS'
            ? `mongos_${n}`
            : host.hostname.split('.')[0]!;
      return {
        name,
        hostname: host.hostname,
        lastGoalVersionAchieved: goal,
        plan: [],
        errorCode: 0,
        errorCodeDescription: '',
        errorCodeHumanReadable: '',
        errorString: '',
        planUpdated: b.ago(2 * DAY, 20 * DAY),
      };
    });
    for (const lag of LAGGING[project.name] ?? []) {
      const p = processes[lag.index];
      if (p === undefined) continue;
      p.lastGoalVersionAchieved = goal - (lag.versionsBehind ?? 1);
      p.plan = lag.plan;
      p.planUpdated = b.ago(2 * MINUTE, 3 * HOUR);
      if (lag.fails) fail(b, p);
    }
    b.data.automation.push({ groupId: project.id, goalVersion: goal, processes });
  }
}

function fail(b: Build, p: ProcessRec): void {
  p.errorCode = 3;
  p.errorCodeHumanReadable = 'Process failed to start';
  p.errorCodeDescription = `The process ${p.name} on ${p.hostname} failed to start: exit status 48 (address already in use).`;
  p.errorString = `<${p.name}> [${b.at(-7 * MINUTE).slice(11, 19)}.418] Error starting process: exit status 48; another process is listening on port 27017`;
}
