// Hosts of a project: one disk partition (spec), and beyond the spec the host list, one host and its partitions.

import type { HostRec } from '../records.js';
import { type SimContext, SimError, type SimRequest, type SimRoute } from '../types.js';
import { requireProjectRole } from './access.js';
import { compact, selfLinks } from './render.js';

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

export const hostRoutes: SimRoute[] = [
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
      const hosts = ctx.store.data.hosts.filter((h) => h.groupId === project.id);
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
