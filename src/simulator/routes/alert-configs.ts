// Alert configurations of a project (list, get, enable/disable), the matcher field names, and the global
// alert configurations (beyond the spec: list and get).

import { type GlobalRole, MATCHER_FIELD_NAMES, notificationIn } from '../../vocabulary/index.js';
import type { AlertConfigRec, GlobalAlertConfigRec, NotificationRec } from '../records.js';
import type { SimContext, SimRequest, SimRoute } from '../types.js';
import { timestamp } from '../values.js';
import { requireAnyRole, requireGlobalRole, requireProjectRole } from './access.js';
import { audit, compact, FULL_MASK, maskSecret, maskUrl, selfLinks } from './render.js';
import { badRequest, findById, isPlainObject, parseBody } from './validate.js';

/** Global alerting is read and acknowledged by global owners and global monitoring admins (spec's table). */
export const GLOBAL_ALERTING_ROLES: readonly GlobalRole[] = ['GLOBAL_OWNER', 'GLOBAL_MONITORING_ADMIN'];

const PARTIAL_SECRETS = [
  'apiToken',
  'notificationToken',
  'serviceKey',
  'monitoringSaasApiKey',
  'incidentPagingBApiKey',
  'incidentPagingCApiKey',
];
const URL_SECRETS = ['webhookUrl', 'teamChatCWebhookUrl'];

/** Key-like values partially redacted, webhook URLs partially, the webhook secret completely. */
export function maskNotification(n: NotificationRec): Record<string, unknown> {
  const out: Record<string, unknown> = { ...n };
  for (const [key, value] of Object.entries(n)) {
    if (typeof value !== 'string') continue;
    if (PARTIAL_SECRETS.includes(key)) out[key] = maskSecret(value);
    if (URL_SECRETS.includes(key)) out[key] = maskUrl(value);
    if (key === 'webhookSecret') out[key] = FULL_MASK;
  }
  return out;
}

function renderAlertConfig(req: SimRequest, ctx: SimContext, c: AlertConfigRec): Record<string, unknown> {
  return compact({
    id: c.id,
    groupId: c.groupId,
    created: c.created,
    updated: c.updated,
    enabled: c.enabled,
    eventTypeName: c.eventTypeName,
    matchers: c.matchers.map((m) => ({ ...m })),
    metricThreshold: c.metricThreshold === undefined ? undefined : { ...c.metricThreshold },
    threshold: c.threshold === undefined ? undefined : { ...c.threshold },
    notifications: c.notifications.map((n) => notificationIn(maskNotification(n), ctx.options.dialect)),
    links: selfLinks(req, `/groups/${c.groupId}/alertConfigs/${c.id}`),
  });
}

function renderGlobalAlertConfig(
  req: SimRequest,
  ctx: SimContext,
  c: GlobalAlertConfigRec,
): Record<string, unknown> {
  return compact({
    id: c.id,
    created: c.created,
    updated: c.updated,
    enabled: c.enabled,
    eventTypeName: c.eventTypeName,
    forAllGroups: c.forAllGroups,
    groupIds: [...c.groupIds],
    matchers: c.matchers.map((m) => ({ ...m })),
    metricThreshold: c.metricThreshold === undefined ? undefined : { ...c.metricThreshold },
    threshold: c.threshold === undefined ? undefined : { ...c.threshold },
    notifications: c.notifications.map((n) => notificationIn(maskNotification(n), ctx.options.dialect)),
    tags: [...c.tags],
    links: selfLinks(req, `/globalAlertConfigs/${c.id}`),
  });
}

export function findAlertConfig(ctx: SimContext, projectId: string, alertConfigId: string): AlertConfigRec {
  return findById(
    alertConfigId,
    (id) => ctx.store.data.alertConfigs.find((c) => c.id === id && c.groupId === projectId),
    { invalid: 'INVALID_ALERT_CONFIG_ID', notFound: 'ALERT_CONFIG_NOT_FOUND', what: 'alert configuration' },
  );
}

export function findGlobalAlertConfig(ctx: SimContext, id: string): GlobalAlertConfigRec {
  return findById(id, (x) => ctx.store.data.globalAlertConfigs.find((c) => c.id === x), {
    invalid: 'INVALID_GLOBAL_ALERT_CONFIG_ID',
    notFound: 'GLOBAL_ALERT_CONFIG_NOT_FOUND',
    what: 'global alert configuration',
  });
}

/** Attributes of a configuration as read; a client may send the record back, only `enabled` applies. */
const RECORD_ATTRIBUTES = [
  'id',
  'groupId',
  'created',
  'updated',
  'eventTypeName',
  'matchers',
  'metricThreshold',
  'threshold',
  'notifications',
  'typeName',
  'links',
];

/** Notifications repeat at least every 5 minutes; a smaller interval is rejected. */
function checkNotificationIntervals(notifications: unknown): void {
  if (notifications === undefined || notifications === null) return;
  if (!Array.isArray(notifications)) {
    throw badRequest('INVALID_JSON_ATTRIBUTE', 'Invalid JSON attribute notifications: expected an array.');
  }
  for (const n of notifications) {
    const interval = isPlainObject(n) ? n.intervalMin : undefined;
    if (typeof interval === 'number' && interval < 5) {
      throw badRequest(
        'NOTIFICATION_INTERVAL_OUT_OF_RANGE',
        `Notification interval ${interval} is out of range; it must be at least 5 minutes.`,
        [interval],
      );
    }
  }
}

export const alertConfigRoutes: SimRoute[] = [
  {
    method: 'GET',
    path: '/groups/:projectId/alertConfigs',
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      const list = ctx.store.data.alertConfigs.filter((c) => c.groupId === project.id);
      return { status: 200, list: list.map((c) => renderAlertConfig(req, ctx, c)) };
    },
  },
  {
    method: 'GET',
    path: '/groups/:projectId/alertConfigs/:alertConfigId',
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      const config = findAlertConfig(ctx, project.id, req.params.alertConfigId ?? '');
      return { status: 200, body: renderAlertConfig(req, ctx, config) };
    },
  },
  {
    method: 'PATCH',
    path: '/groups/:projectId/alertConfigs/:alertConfigId',
    mutates: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'monitoring');
      const config = findAlertConfig(ctx, project.id, req.params.alertConfigId ?? '');
      const body = parseBody(req.body, { enabled: { kind: 'boolean', required: true } }, RECORD_ATTRIBUTES);
      checkNotificationIntervals((req.body as Record<string, unknown>).notifications);
      if (config.enabled !== body.enabled) {
        config.enabled = body.enabled;
        config.updated = timestamp(ctx.now());
        audit(req, ctx, {
          eventTypeName: body.enabled ? 'ALERT_CONFIG_ENABLED_AUDIT' : 'ALERT_CONFIG_DISABLED_AUDIT',
          groupId: project.id,
          alertConfigId: config.id,
        });
      }
      return { status: 200, body: renderAlertConfig(req, ctx, config) };
    },
  },
  {
    method: 'GET',
    path: '/alertConfigs/matchers/fieldNames',
    handle(req) {
      requireAnyRole(req);
      return { status: 200, body: [...MATCHER_FIELD_NAMES] };
    },
  },
  {
    method: 'GET',
    path: '/globalAlertConfigs',
    beyondSpec: true,
    handle(req, ctx) {
      requireGlobalRole(req, GLOBAL_ALERTING_ROLES);
      return {
        status: 200,
        list: ctx.store.data.globalAlertConfigs.map((c) => renderGlobalAlertConfig(req, ctx, c)),
      };
    },
  },
  {
    method: 'GET',
    path: '/globalAlertConfigs/:globalAlertConfigId',
    beyondSpec: true,
    handle(req, ctx) {
      requireGlobalRole(req, GLOBAL_ALERTING_ROLES);
      const config = findGlobalAlertConfig(ctx, req.params.globalAlertConfigId ?? '');
      return { status: 200, body: renderGlobalAlertConfig(req, ctx, config) };
    },
  },
];
