// Integrations, agents, automation status, hosts and maintenance windows.

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
  type Integration,
  IntegrationSchema,
  type MaintenanceWindow,
  MaintenanceWindowSchema,
} from '../schemas.js';
import type { AreaContext, CallOptions } from './context.js';

export function integrationsArea(ctx: AreaContext) {
  return {
    async list(projectId: string, o?: CallOptions): Promise<Page<Integration>> {
      return ctx.list(IntegrationSchema, 'Integration', apiPath`/groups/${projectId}/integrations`, {}, o);
    },
    /** Create or update; the answer lists all of the project's integrations, secrets masked. */
    async put(
      projectId: string,
      integrationType: string,
      body: Record<string, unknown>,
      o?: CallOptions,
    ): Promise<Page<Integration>> {
      const path = apiPath`/groups/${projectId}/integrations/${integrationType}`;
      // The body's type must equal the path's; take it from the path so the two cannot disagree.
      const req = { method: 'PUT' as const, path, body: { ...body, type: integrationType } };
      return ctx.page(IntegrationSchema, 'Integration', req, o);
    },
  };
}

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

export interface MaintenanceWindowChange {
  alertTypeNames?: string[];
  startDate?: string;
  endDate?: string;
  description?: string;
}

export function maintenanceWindowsArea(ctx: AreaContext) {
  const one = (projectId: string, id: string) => apiPath`/groups/${projectId}/maintenanceWindows/${id}`;
  return {
    async list(projectId: string, page?: PageQuery, o?: CallOptions): Promise<Page<MaintenanceWindow>> {
      const path = apiPath`/groups/${projectId}/maintenanceWindows`;
      return ctx.list(MaintenanceWindowSchema, 'MaintenanceWindow', path, page, o);
    },
    async create(
      projectId: string,
      body: { startDate: string; endDate: string; alertTypeNames: string[]; description?: string },
      o?: CallOptions,
    ): Promise<MaintenanceWindow> {
      const path = apiPath`/groups/${projectId}/maintenanceWindows`;
      return ctx.call(MaintenanceWindowSchema, 'MaintenanceWindow', { method: 'POST', path, body }, o);
    },
    async get(projectId: string, id: string, o?: CallOptions): Promise<MaintenanceWindow> {
      return ctx.call(
        MaintenanceWindowSchema,
        'MaintenanceWindow',
        { method: 'GET', path: one(projectId, id) },
        o,
      );
    },
    async update(
      projectId: string,
      id: string,
      body: MaintenanceWindowChange,
      o?: CallOptions,
    ): Promise<MaintenanceWindow> {
      const req = { method: 'PATCH' as const, path: one(projectId, id), body };
      return ctx.call(MaintenanceWindowSchema, 'MaintenanceWindow', req, o);
    },
    /** Muted notifications resume. */
    async delete(projectId: string, id: string, o?: CallOptions): Promise<void> {
      await ctx.call(undefined, 'none', { method: 'DELETE', path: one(projectId, id) }, o);
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
