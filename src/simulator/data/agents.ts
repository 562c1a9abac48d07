// Agents: every type in every state somewhere. Monitoring and backup agents per project from a table;
// one automation agent per host, active unless the table below says otherwise.

import type { AgentState, AgentType } from '../../platform/index.js';
import type { AgentRec } from '../records.js';
import type { Build } from './gen.js';
import { hostsOf } from './topology.js';

/** Monitoring and backup agents by project: type, index of the host it runs on, state. */
const AGENTS: Record<string, Array<[AgentType, number, AgentState]>> = {
  'payments-prod': [
    ['MONITORING', 0, 'ACTIVE'],
    ['MONITORING', 3, 'STANDBY'],
    ['BACKUP', 1, 'ACTIVE'],
    ['BACKUP', 4, 'STANDBY'],
  ],
  'search-staging': [
    ['MONITORING', 0, 'ACTIVE'],
    ['BACKUP', 2, 'NO_PROCESSES'],
  ],
  'analytics-prod': [
    ['MONITORING', 9, 'ACTIVE'],
    ['MONITORING', 10, 'STANDBY'],
    ['BACKUP', 0, 'ACTIVE'],
    ['BACKUP', 3, 'STANDBY'],
  ],
  'platform-dev': [
    ['MONITORING', 0, 'ACTIVE'],
    ['MONITORING', 3, 'NO_PROCESSES'],
    ['BACKUP', 1, 'STANDBY'],
  ],
};

/** Automation agents not ACTIVE: the standalone of platform-dev, the last host of analytics-prod. */
function automationState(project: string, typeName: string, last: boolean): AgentState {
  if (project === 'platform-dev' && typeName === 'STANDALONE') return 'NO_PROCESSES';
  if (project === 'analytics-prod' && last) return 'STANDBY';
  return 'ACTIVE';
}

export function buildAgents(b: Build): void {
  const { r, data } = b;
  for (const project of data.projects) {
    const hosts = hostsOf(b, project);
    for (const [typeName, hostIndex, stateName] of AGENTS[project.name] ?? []) {
      const host = hosts[hostIndex] ?? hosts[0]!;
      const agent: AgentRec = {
        groupId: project.id,
        typeName,
        hostname: host.hostname,
        confCount: r.int(2_000, 90_000),
        lastConf: b.ago(10_000, 60_000),
        stateName,
      };
      if (typeName === 'MONITORING') {
        agent.pingCount = r.int(50_000, 900_000);
        agent.lastPing = b.ago(5_000, 60_000);
      }
      agent.isManaged = true;
      if (typeName === 'BACKUP' && stateName === 'ACTIVE') agent.tag = `${project.name}-backup`;
      data.agents.push(agent);
    }
    for (const [n, host] of hosts.entries()) {
      data.agents.push({
        groupId: project.id,
        typeName: 'AUTOMATION',
        hostname: host.hostname,
        confCount: r.int(5_000, 200_000),
        lastConf: b.ago(5_000, 40_000),
        stateName: automationState(project.name, host.typeName, n === hosts.length - 1),
      });
    }
  }
}
