// Alert configurations, project alerts and global alerts.

import type { AlertStatus } from '../../vocabulary/index.js';
import type { Page, PageQuery } from '../paging.js';
import { apiPath } from '../path.js';
import {
  type Alert,
  type AlertConfig,
  AlertConfigSchema,
  AlertSchema,
  type GlobalAlertConfig,
  GlobalAlertConfigSchema,
  StringListSchema,
} from '../schemas.js';
import type { AreaContext, CallOptions } from './context.js';

export function alertConfigsArea(ctx: AreaContext) {
  return {
    async list(projectId: string, page?: PageQuery, o?: CallOptions): Promise<Page<AlertConfig>> {
      return ctx.list(AlertConfigSchema, 'AlertConfig', apiPath`/groups/${projectId}/alertConfigs`, page, o);
    },
    async get(projectId: string, alertConfigId: string, o?: CallOptions): Promise<AlertConfig> {
      const path = apiPath`/groups/${projectId}/alertConfigs/${alertConfigId}`;
      return ctx.call(AlertConfigSchema, 'AlertConfig', { method: 'GET', path }, o);
    },
    /** Only the enabled state changes. */
    async setEnabled(
      projectId: string,
      alertConfigId: string,
      enabled: boolean,
      o?: CallOptions,
    ): Promise<AlertConfig> {
      const path = apiPath`/groups/${projectId}/alertConfigs/${alertConfigId}`;
      return ctx.call(AlertConfigSchema, 'AlertConfig', { method: 'PATCH', path, body: { enabled } }, o);
    },
    async listOpenAlerts(
      projectId: string,
      alertConfigId: string,
      page?: PageQuery,
      o?: CallOptions,
    ): Promise<Page<Alert>> {
      const path = apiPath`/groups/${projectId}/alertConfigs/${alertConfigId}/alerts`;
      return ctx.list(AlertSchema, 'Alert', path, page, o);
    },
    async matcherFieldNames(o?: CallOptions): Promise<string[]> {
      return ctx.call(
        StringListSchema,
        'MatcherFieldNames',
        { method: 'GET', path: '/alertConfigs/matchers/fieldNames' },
        o,
      );
    },
  };
}

export function alertsArea(ctx: AreaContext) {
  return {
    /** Alerts of a project, optionally by status. */
    async list(
      projectId: string,
      q: PageQuery & { status?: AlertStatus } = {},
      o?: CallOptions,
    ): Promise<Page<Alert>> {
      return ctx.list(AlertSchema, 'Alert', apiPath`/groups/${projectId}/alerts`, q, o);
    },
    async get(projectId: string, alertId: string, o?: CallOptions): Promise<Alert> {
      return ctx.call(
        AlertSchema,
        'Alert',
        { method: 'GET', path: apiPath`/groups/${projectId}/alerts/${alertId}` },
        o,
      );
    },
    /** Without acknowledgedUntil the alert is unacknowledged. */
    async acknowledge(
      projectId: string,
      alertId: string,
      body: { acknowledgedUntil?: string; acknowledgementComment?: string },
      o?: CallOptions,
    ): Promise<Alert> {
      const path = apiPath`/groups/${projectId}/alerts/${alertId}`;
      return ctx.call(AlertSchema, 'Alert', { method: 'PATCH', path, body }, o);
    },
  };
}

export function globalAlertsArea(ctx: AreaContext) {
  return {
    async get(alertId: string, o?: CallOptions): Promise<Alert> {
      return ctx.call(AlertSchema, 'Alert', { method: 'GET', path: apiPath`/globalAlerts/${alertId}` }, o);
    },
    /** A past acknowledgedUntil un-acknowledges. */
    async acknowledge(
      alertId: string,
      body: { acknowledgedUntil: string; acknowledgementComment?: string },
      o?: CallOptions,
    ): Promise<Alert> {
      return ctx.call(
        AlertSchema,
        'Alert',
        { method: 'PATCH', path: apiPath`/globalAlerts/${alertId}`, body },
        o,
      );
    },
    async listForConfig(
      globalAlertConfigId: string,
      page?: PageQuery,
      o?: CallOptions,
    ): Promise<Page<Alert>> {
      const path = apiPath`/globalAlertConfigs/${globalAlertConfigId}/alerts`;
      return ctx.list(AlertSchema, 'Alert', path, page, o);
    },
    async listConfigs(page?: PageQuery, o?: CallOptions): Promise<Page<GlobalAlertConfig>> {
      return ctx.list(GlobalAlertConfigSchema, 'GlobalAlertConfig', '/globalAlertConfigs', page, o);
    },
  };
}
