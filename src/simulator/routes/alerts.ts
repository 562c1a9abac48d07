// Alerts: the alert configurations of a project (list, get, enable/disable), the matcher field names, and
// the global alert configurations (beyond the spec: list and get); then project alerts and global alerts:
// open alerts of a configuration, acknowledgement (with its expiry computed from the clock on every read),
// and beyond the spec: list a project's alerts by status, get one.

import {
  ALERT_STATUSES,
  type AlertStatus,
  type GlobalRole,
  MATCHER_FIELD_NAMES,
  notificationIn,
} from '../../vocabulary/index.js';
import type { AlertConfigRec, AlertRec, GlobalAlertConfigRec, NotificationRec } from '../records.js';
import { callerOf, requireAnyRole, requireGlobalRole, requireProjectRole } from '../roles.js';
import type { Caller, SimContext, SimRequest, SimRoute } from '../types.js';
import { timestamp } from '../values.js';
import { audit, compact, FULL_MASK, maskSecret, maskUrl, selfLinks } from './render.js';
import { badRequest, findById, invalidEnum, isPlainObject, parseBody } from './validate.js';

// ---------------------------------------------------------------------------------------------------------
// Alert configurations

/** Global alerting is read and acknowledged by global owners and global monitoring admins (spec's table). */
const GLOBAL_ALERTING_ROLES: readonly GlobalRole[] = ['GLOBAL_OWNER', 'GLOBAL_MONITORING_ADMIN'];

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

function findAlertConfig(ctx: SimContext, projectId: string, alertConfigId: string): AlertConfigRec {
  return findById(
    alertConfigId,
    (id) => ctx.store.data.alertConfigs.find((c) => c.id === id && c.groupId === projectId),
    { invalid: 'INVALID_ALERT_CONFIG_ID', notFound: 'ALERT_CONFIG_NOT_FOUND', what: 'alert configuration' },
  );
}

function findGlobalAlertConfig(ctx: SimContext, id: string): GlobalAlertConfigRec {
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

const alertConfigRoutes: SimRoute[] = [
  {
    method: 'GET',
    path: '/groups/:projectId/alertConfigs',
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      const list = ctx.store.ofProject('alertConfigs', project.id);
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

// ---------------------------------------------------------------------------------------------------------
// Alerts

const MAX_COMMENT = 200;

/** Whether the alert is acknowledged at `now`: an acknowledgement reverts by itself when its time passes. */
export function isAcknowledged(alert: AlertRec, now: Date): boolean {
  return alert.acknowledgedUntil !== undefined && Date.parse(alert.acknowledgedUntil) > now.getTime();
}

function renderAlert(req: SimRequest, alert: AlertRec, now: Date, global = false): Record<string, unknown> {
  const acked = isAcknowledged(alert, now);
  return compact({
    id: alert.id,
    alertConfigId: alert.alertConfigId,
    groupId: alert.groupId,
    created: alert.created,
    updated: alert.updated,
    status: alert.status,
    eventTypeName: alert.eventTypeName,
    resolved: alert.resolved,
    acknowledgedUntil: acked ? alert.acknowledgedUntil : undefined,
    acknowledgingUsername: acked ? alert.acknowledgingUsername : undefined,
    acknowledgementComment: acked ? alert.acknowledgementComment : undefined,
    lastNotified: alert.lastNotified,
    hostId: alert.hostId,
    hostnameAndPort: alert.hostnameAndPort,
    replicaSetName: alert.replicaSetName,
    clusterId: alert.clusterId,
    clusterName: alert.clusterName,
    currentValue: alert.currentValue === undefined ? undefined : { ...alert.currentValue },
    metricName: alert.metricName,
    sourceTypeName: alert.sourceTypeName,
    tags: alert.tags === undefined ? undefined : [...alert.tags],
    links: selfLinks(
      req,
      global ? `/globalAlerts/${alert.id}` : `/groups/${alert.groupId}/alerts/${alert.id}`,
    ),
  });
}

const ALERT_CODES = { invalid: 'INVALID_ALERT_ID', notFound: 'ALERT_NOT_FOUND', what: 'alert' };

function findProjectAlert(ctx: SimContext, projectId: string, alertId: string): AlertRec {
  return findById(
    alertId,
    (id) => ctx.store.data.alerts.find((a) => a.id === id && a.groupId === projectId),
    ALERT_CODES,
  );
}

function findGlobalAlert(ctx: SimContext, alertId: string): AlertRec {
  return findById(alertId, (id) => ctx.store.data.globalAlerts.find((a) => a.id === id), ALERT_CODES);
}

/** Who acknowledged: the key's user when it has one, else the key's public key. */
function acknowledger(ctx: SimContext, caller: Caller): string {
  return ctx.store.ownerOf(caller.key)?.username ?? caller.key.publicKey;
}

const ACK_BODY = {
  acknowledgedUntil: { kind: 'date' },
  acknowledgementComment: { kind: 'string' },
} as const;

/** Applies an acknowledgement; an absent or past `until` un-acknowledges. Returns whether it is now acked. */
function applyAck(
  ctx: SimContext,
  caller: Caller,
  alert: AlertRec,
  until: Date | undefined,
  comment: string | undefined,
): boolean {
  if (comment !== undefined && comment.length > MAX_COMMENT) {
    throw badRequest(
      'ACKNOWLEDGEMENT_COMMENT_TOO_LONG',
      `The acknowledgement comment is ${comment.length} characters long; at most ${MAX_COMMENT} are allowed.`,
    );
  }
  const now = ctx.now();
  alert.updated = timestamp(now);
  if (until === undefined || until.getTime() <= now.getTime()) {
    delete alert.acknowledgedUntil;
    delete alert.acknowledgingUsername;
    delete alert.acknowledgementComment;
    return false;
  }
  alert.acknowledgedUntil = timestamp(until);
  alert.acknowledgingUsername = acknowledger(ctx, caller);
  if (comment === undefined) delete alert.acknowledgementComment;
  else alert.acknowledgementComment = comment;
  return true;
}

const projectAndGlobalAlertRoutes: SimRoute[] = [
  {
    method: 'GET',
    path: '/groups/:projectId/alertConfigs/:alertConfigId/alerts',
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      const config = findAlertConfig(ctx, project.id, req.params.alertConfigId ?? '');
      const open = ctx.store.data.alerts.filter((a) => a.alertConfigId === config.id && a.status === 'OPEN');
      return { status: 200, list: open.map((a) => renderAlert(req, a, ctx.now())) };
    },
  },
  {
    method: 'PATCH',
    path: '/groups/:projectId/alerts/:alertId',
    mutates: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'monitoring');
      const alert = findProjectAlert(ctx, project.id, req.params.alertId ?? '');
      const body = parseBody(req.body, ACK_BODY);
      const acked = applyAck(ctx, callerOf(req), alert, body.acknowledgedUntil, body.acknowledgementComment);
      audit(req, ctx, {
        eventTypeName: acked ? 'ALERT_ACKNOWLEDGED_AUDIT' : 'ALERT_UNACKNOWLEDGED_AUDIT',
        groupId: project.id,
        alertId: alert.id,
        alertConfigId: alert.alertConfigId,
      });
      return { status: 200, body: renderAlert(req, alert, ctx.now()) };
    },
  },
  {
    method: 'GET',
    path: '/groups/:projectId/alerts',
    beyondSpec: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      const status = req.query.get('status');
      if (status !== null && !ALERT_STATUSES.includes(status as AlertStatus)) {
        throw invalidEnum('status', status, ALERT_STATUSES);
      }
      const alerts = ctx.store
        .ofProject('alerts', project.id)
        .filter((a) => status === null || a.status === status);
      return { status: 200, list: alerts.map((a) => renderAlert(req, a, ctx.now())) };
    },
  },
  {
    method: 'GET',
    path: '/groups/:projectId/alerts/:alertId',
    beyondSpec: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'read');
      const alert = findProjectAlert(ctx, project.id, req.params.alertId ?? '');
      return { status: 200, body: renderAlert(req, alert, ctx.now()) };
    },
  },
  {
    method: 'GET',
    path: '/globalAlertConfigs/:globalAlertConfigId/alerts',
    handle(req, ctx) {
      requireGlobalRole(req, GLOBAL_ALERTING_ROLES);
      const config = findGlobalAlertConfig(ctx, req.params.globalAlertConfigId ?? '');
      const open = ctx.store.data.globalAlerts.filter(
        (a) => a.alertConfigId === config.id && a.status === 'OPEN',
      );
      return { status: 200, list: open.map((a) => renderAlert(req, a, ctx.now(), true)) };
    },
  },
  {
    method: 'PATCH',
    path: '/globalAlerts/:alertId',
    mutates: true,
    handle(req, ctx) {
      const caller = requireGlobalRole(req, GLOBAL_ALERTING_ROLES);
      const alert = findGlobalAlert(ctx, req.params.alertId ?? '');
      const body = parseBody(req.body, {
        ...ACK_BODY,
        acknowledgedUntil: { kind: 'date', required: true },
      } as const);
      const acked = applyAck(ctx, caller, alert, body.acknowledgedUntil, body.acknowledgementComment);
      audit(req, ctx, {
        eventTypeName: acked ? 'ALERT_ACKNOWLEDGED_AUDIT' : 'ALERT_UNACKNOWLEDGED_AUDIT',
        alertId: alert.id,
        alertConfigId: alert.alertConfigId,
        orgId: alert.groupId === undefined ? undefined : ctx.store.project(alert.groupId)?.orgId,
      });
      return { status: 201, body: renderAlert(req, alert, ctx.now(), true) };
    },
  },
  {
    method: 'GET',
    path: '/globalAlerts/:alertId',
    beyondSpec: true,
    handle(req, ctx) {
      requireGlobalRole(req, GLOBAL_ALERTING_ROLES);
      const alert = findGlobalAlert(ctx, req.params.alertId ?? '');
      return { status: 200, body: renderAlert(req, alert, ctx.now(), true) };
    },
  },
];

/** Alert configurations, then alerts, in that order of the route table. */
export const alertRoutes: SimRoute[] = [...alertConfigRoutes, ...projectAndGlobalAlertRoutes];
