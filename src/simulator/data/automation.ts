// Automation status, from the world's deployments: each project's goal version is that of its latest
// deployment; the processes a deployment has not brought to the goal yet carry its plan, one that failed to
// start carries its error. Every other process is at the goal.

import type { ProcessRec } from '../records.js';
import { type Build, DAY, MINUTE } from './gen.js';
import { fqdn } from './state.js';
import { hostsOf, TOPOLOGY } from './topology.js';
import { WORLD } from './world.js';

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
    const deployments = WORLD.deployments
      .filter((d) => d.project === project.name)
      .sort((x, y) => x.at - y.at);
    for (const d of deployments) {
      for (const short of d.hosts) {
        const p = processes.find((x) => x.hostname === fqdn(short));
        if (p === undefined) continue;
        const done = d.done.includes(short);
        p.planUpdated = b.at(done ? Math.min(d.at + b.r.int(3, 12) * MINUTE, -MINUTE) : d.at);
        if (done || d.goalVersion !== goal) continue;
        p.lastGoalVersionAchieved = goal - 1;
        p.plan = d.plan;
        if (d.fails?.host === short) {
          p.planUpdated = b.at(d.fails.at);
          p.errorCode = d.fails.code;
          p.errorCodeHumanReadable = d.fails.human;
          p.errorCodeDescription = `${p.name} failed to start.`;
          p.errorString = `<${p.name}> [${b.at(d.fails.at).slice(11, 19)}.418] Error starting process: ${d.fails.error}`;
        }
      }
    }
    b.data.automation.push({ groupId: project.id, goalVersion: goal, processes });
  }
}
