// Agents of a project by type, and the links to the agent resources.

import { AGENT_TYPES } from '../../vocabulary/index.js';
import type { AgentRec } from '../records.js';
import { SimError, type SimRequest, type SimRoute } from '../types.js';
import { requireProjectRole } from './access.js';
import { compact, link, REL_BASE } from './render.js';

/** Fields by type: ping data for monitoring agents only, isManaged for monitoring and backup, tag for backup. */
function renderAgent(a: AgentRec): Record<string, unknown> {
  return compact({
    typeName: a.typeName,
    hostname: a.hostname,
    confCount: a.confCount,
    lastConf: a.lastConf,
    stateName: a.stateName,
    pingCount: a.typeName === 'MONITORING' ? a.pingCount : undefined,
    lastPing: a.typeName === 'MONITORING' ? a.lastPing : undefined,
    isManaged: a.typeName === 'AUTOMATION' ? undefined : a.isManaged,
    tag: a.typeName === 'BACKUP' ? a.tag : undefined,
  });
}

function agentLinks(req: SimRequest, projectId: string) {
  const base = `/groups/${projectId}`;
  return [
    link(req, `${base}/agents`),
    link(req, base, `${REL_BASE}group`),
    link(req, `${base}/agents/MONITORING`, `${REL_BASE}monitoringAgents`),
    link(req, `${base}/agents/BACKUP`, `${REL_BASE}backupAgents`),
    link(req, `${base}/agents/AUTOMATION`, `${REL_BASE}automationAgents`),
  ];
}

export const agentRoutes: SimRoute[] = [
  {
    method: 'GET',
    path: '/groups/:projectId/agents',
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      return { status: 200, body: { links: agentLinks(req, project.id) } };
    },
  },
  {
    method: 'GET',
    path: '/groups/:projectId/agents/:agentType',
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      const type = req.params.agentType ?? '';
      if (!(AGENT_TYPES as readonly string[]).includes(type)) {
        throw new SimError(
          400,
          'INVALID_AGENT_TYPE_NAME',
          `An invalid agent type name ${type} was specified; expected one of ${AGENT_TYPES.join(', ')}.`,
          [type],
        );
      }
      const agents = ctx.store.data.agents.filter((a) => a.groupId === project.id && a.typeName === type);
      return { status: 200, list: agents.map(renderAgent) };
    },
  },
];
