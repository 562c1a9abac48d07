// The deployment area: agents, automation status, hosts and their disk partitions.

import type { AgentType } from '../../vocabulary/index.js';
import type { Link, Page, PageQuery } from '../paging.js';
import { apiPath } from '../path.js';
import {
  type Agent,
  AgentLinksSchema,
  AgentSchema,
  type AutomationStatus,
  AutomationStatusSchema,
  type DiskPartition,
  DiskPartitionSchema,
  type Host,
  HostSchema,
} from '../schemas.js';
import type { AreaContext, CallOptions } from './context.js';

export function agentsArea(ctx: AreaContext) {
  return {
    async list(
      projectId: string,
      agentType: AgentType,
      page?: PageQuery,
      o?: CallOptions,
    ): Promise<Page<Agent>> {
      return ctx.list(AgentSchema, 'Agent', apiPath`/groups/${projectId}/agents/${agentType}`, page, o);
    },
    /** Relation names carry a server-specific prefix: match on the suffix (…/monitoringAgents). */
    async links(projectId: string, o?: CallOptions): Promise<{ links: Link[] }> {
      const path = apiPath`/groups/${projectId}/agents`;
      return ctx.call(AgentLinksSchema, 'AgentLinks', { method: 'GET', path }, o);
    },
  };
}

export function automationArea(ctx: AreaContext) {
  return {
    async status(groupId: string, o?: CallOptions): Promise<AutomationStatus> {
      const path = apiPath`/groups/${groupId}/automationStatus/full`;
      return ctx.call(AutomationStatusSchema, 'AutomationStatus', { method: 'GET', path }, o);
    },
  };
}

export function hostsArea(ctx: AreaContext) {
  return {
    async list(projectId: string, page?: PageQuery, o?: CallOptions): Promise<Page<Host>> {
      return ctx.list(HostSchema, 'Host', apiPath`/groups/${projectId}/hosts`, page, o);
    },
    /** Beyond the spec (the field has it). */
    async get(projectId: string, hostId: string, o?: CallOptions): Promise<Host> {
      return ctx.call(
        HostSchema,
        'Host',
        { method: 'GET', path: apiPath`/groups/${projectId}/hosts/${hostId}` },
        o,
      );
    },
    /** Beyond the spec. */
    async listDisks(
      projectId: string,
      hostId: string,
      page?: PageQuery,
      o?: CallOptions,
    ): Promise<Page<DiskPartition>> {
      return ctx.list(
        DiskPartitionSchema,
        'DiskPartition',
        apiPath`/groups/${projectId}/hosts/${hostId}/disks`,
        page,
        o,
      );
    },
    async diskPartition(
      projectId: string,
      hostId: string,
      partitionName: string,
      o?: CallOptions,
    ): Promise<DiskPartition> {
      const path = apiPath`/groups/${projectId}/hosts/${hostId}/disks/${partitionName}`;
      return ctx.call(DiskPartitionSchema, 'DiskPartition', { method: 'GET', path }, o);
    },
  };
}
