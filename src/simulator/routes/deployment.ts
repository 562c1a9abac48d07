// Deployment of a project: its hosts (one disk partition in the spec; beyond it the host list, one host and
// its partitions), its agents by type with the links to the agent resources, and its automation status (the
// goal version and its processes). Processes at goal are always listed; of the processes with a plan, only
// the 50 whose plan changed most recently are (the spec's "50 most recent plans"); older plans are left out.

import { AGENT_TYPES } from '../../vocabulary/index.js';
import type { AgentRec, HostRec, ProcessRec } from '../records.js';
import { requireProjectRole } from '../roles.js';
import { type SimContext, SimError, type SimRequest, type SimRoute } from '../types.js';
import { compact, link, REL_BASE, selfLinks } from './render.js';

// Hosts

function renderHost(req: SimRequest, h: HostRec): Record<string, unknown> {
  return compact({
    id: h.id,
    groupId: h.groupId,
    hostname: h.hostname,
    port: h.port,
    typeName: h.typeName,
    replicaSetName: h.replicaSetName,
    clusterId: h.clusterId,
    created: h.created,
    lastPing: h.lastPing,
    links: selfLinks(req, `/groups/${h.groupId}/hosts/${h.id}`),
  });
}

function renderDisk(req: SimRequest, h: HostRec, partitionName: string): Record<string, unknown> {
  return {
    partitionName,
    links: selfLinks(req, `/groups/${h.groupId}/hosts/${h.id}/disks/${partitionName}`),
  };
}

/** Host ids are 32 hex characters; any id that names no host of the project is HOST_NOT_FOUND. */
function findHost(ctx: SimContext, projectId: string, hostId: string): HostRec {
  const host = ctx.store.data.hosts.find((h) => h.id === hostId && h.groupId === projectId);
  if (host === undefined) {
    throw new SimError(404, 'HOST_NOT_FOUND', `No host with ID ${hostId} exists in group ${projectId}.`, [
      hostId,
      projectId,
    ]);
  }
  return host;
}

const hostRoutes: SimRoute[] = [
  {
    method: 'GET',
    path: '/groups/:projectId/hosts/:hostId/disks/:partitionName',
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      const host = findHost(ctx, project.id, req.params.hostId ?? '');
      const name = req.params.partitionName ?? '';
      if (!host.disks.includes(name)) {
        throw new SimError(
          404,
          'DEVICE_NOT_FOUND',
          `No disk partition named ${name} exists on host ${host.id}.`,
          [name],
        );
      }
      return { status: 200, body: renderDisk(req, host, name) };
    },
  },
  {
    method: 'GET',
    path: '/groups/:projectId/hosts',
    beyondSpec: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      const hosts = ctx.store.ofProject('hosts', project.id);
      return { status: 200, list: hosts.map((h) => renderHost(req, h)) };
    },
  },
  {
    method: 'GET',
    path: '/groups/:projectId/hosts/:hostId/disks',
    beyondSpec: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      const host = findHost(ctx, project.id, req.params.hostId ?? '');
      return { status: 200, list: host.disks.map((name) => renderDisk(req, host, name)) };
    },
  },
  {
    method: 'GET',
    path: '/groups/:projectId/hosts/:hostId',
    beyondSpec: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      return { status: 200, body: renderHost(req, findHost(ctx, project.id, req.params.hostId ?? '')) };
    },
  },
];

// Agents

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

const agentRoutes: SimRoute[] = [
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
      const agents = ctx.store.ofProject('agents', project.id).filter((a) => a.typeName === type);
      return { status: 200, list: agents.map(renderAgent) };
    },
  },
];

// Automation

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

const automationRoutes: SimRoute[] = [
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

/** Hosts, agents and automation, in that order of the route table. */
export const deploymentRoutes: SimRoute[] = [...agentRoutes, ...automationRoutes, ...hostRoutes];
