// Agents, from the world: the monitoring and backup agents where world.ts puts them, one automation agent per
// host. An agent reports seconds ago unless it is quiet (its own silence, or its machine down): then its last
// ping (monitoring) or last configuration (backup, automation) is when it went quiet.

import type { AgentState } from '../../vocabulary/index.js';
import type { AgentRec } from '../records.js';
import type { Build } from './gen.js';
import { agentQuiet, fqdn, shortName } from './state.js';
import { hostsOf } from './topology.js';
import { WORLD } from './world.js';

/** When the agent last reported, as a timestamp: seconds ago, or when its current quiet spell began. */
function lastReport(b: Build, project: string, type: string, host: string, min: number, max: number): string {
  const drawn = b.ago(min, max);
  const quiet = agentQuiet(WORLD, project, type, host).find((q) => q.to === undefined);
  return quiet === undefined ? drawn : b.at(quiet.from);
}

export function buildAgents(b: Build): void {
  const { r, data } = b;
  for (const project of data.projects) {
    for (const spec of WORLD.agents[project.name] ?? []) {
      const agent: AgentRec = {
        groupId: project.id,
        typeName: spec.type,
        hostname: fqdn(spec.host),
        confCount: r.int(2_000, 90_000),
        lastConf: lastReport(b, project.name, spec.type, spec.host, 10_000, 60_000),
        stateName: spec.state,
      };
      if (spec.type === 'MONITORING') {
        agent.pingCount = r.int(50_000, 900_000);
        agent.lastPing = lastReport(b, project.name, spec.type, spec.host, 5_000, 60_000);
      }
      agent.isManaged = true;
      if (spec.type === 'BACKUP' && spec.state === 'ACTIVE') agent.tag = `${project.name}-backup`;
      data.agents.push(agent);
    }
    for (const host of hostsOf(b, project)) {
      const short = shortName(host.hostname);
      data.agents.push({
        groupId: project.id,
        typeName: 'AUTOMATION',
        hostname: host.hostname,
        confCount: r.int(5_000, 200_000),
        lastConf: lastReport(b, project.name, 'AUTOMATION', short, 5_000, 40_000),
        stateName: (WORLD.automationAgents[short] ?? 'ACTIVE') as AgentState,
      });
    }
  }
}

/** Hosts whose mongod is unreachable now last pinged when it went down. */
export function applyOutages(b: Build): void {
  for (const o of WORLD.outages) {
    if (o.to !== undefined) continue;
    const host = b.data.hosts.find((h) => h.hostname === fqdn(o.host));
    if (host !== undefined) host.lastPing = b.at(o.from);
  }
}
