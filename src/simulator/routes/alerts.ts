// Project alerts and global alerts: open alerts of a configuration, acknowledgement (with its expiry
// computed from the clock on every read), and beyond the spec: list a project's alerts by status, get one.

import { ALERT_STATUSES, type AlertStatus } from '../../vocabulary/index.js';
import type { AlertRec } from '../records.js';
import type { Caller, SimContext, SimRequest, SimRoute } from '../types.js';
import { timestamp } from '../values.js';
import { callerOf, requireGlobalRole, requireProjectRole } from './access.js';
import { findAlertConfig, findGlobalAlertConfig, GLOBAL_ALERTING_ROLES } from './alert-configs.js';
import { audit, compact, selfLinks } from './render.js';
import { badRequest, findById, invalidEnum, parseBody } from './validate.js';

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

export const alertRoutes: SimRoute[] = [
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
      const alerts = ctx.store.data.alerts.filter(
        (a) => a.groupId === project.id && (status === null || a.status === status),
      );
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
