// Who an alert pages: its configuration's notifications that reach a person's pager — an incident-paging
// integration (the spec's INCIDENT_PAGING_A/B/C, the field's PAGER_DUTY, OPS_GENIE, VICTOR_OPS), an SMS, or a
// USER, GROUP or ORG target with smsEnabled — and a notification whose key differs from the project's
// integration of that type (compared by the visible ending only: keys come back partly masked).
import { PAGING_NOTIFICATION_TYPES, specIntegrationType } from '../vocabulary/index.js';

/** A notification as the platform returns it: typeName and the type's own fields. */
interface NotificationFields {
  typeName?: string;
  smsEnabled?: boolean;
  username?: string;
  roles?: string[];
  mobileNumber?: string;
  [field: string]: unknown;
}

export interface Page {
  /** PagerDuty, OpsGenie, VictorOps or SMS. */
  service: string;
  typeName: string;
  /** Whom an SMS reaches: a user, the holders of roles, or a number. */
  to?: { username?: string; roles?: string[]; mobileNumber?: string };
}

const PERSON_TARGETS: ReadonlySet<string> = new Set(['USER', 'GROUP', 'ORG']);

/** How a notification pages, or undefined when it pages nobody (an email, a chat, a webhook). */
export function paging(n: NotificationFields): Page | undefined {
  const type = String(n.typeName ?? '');
  const service = PAGING_NOTIFICATION_TYPES[type];
  if (service === 'SMS') return { service, typeName: type, to: { mobileNumber: n.mobileNumber } };
  if (service) return { service, typeName: type };
  if (PERSON_TARGETS.has(type) && n.smsEnabled === true) {
    const to = type === 'USER' ? { username: n.username } : { roles: n.roles ?? [] };
    return { service: 'SMS', typeName: type, to };
  }
  return undefined;
}

/** The pages of a configuration's notifications, in their order. */
export const pagesOf = (c: { notifications?: readonly NotificationFields[] } | undefined): Page[] =>
  (c?.notifications ?? []).flatMap((n) => {
    const p = paging(n);
    return p ? [p] : [];
  });

/** The paging services a configuration notifies ("PagerDuty", "SMS"), once each; empty when it pages nobody. */
export const pagingServices = (
  c: { notifications?: readonly NotificationFields[] } | undefined,
): string[] => [...new Set(pagesOf(c).map((p) => p.service))];

/** The notification's key fields (both dialects) and the integration's field it must match. */
const KEY_FIELDS: Record<string, { notification: string[]; integration: string }> = {
  INCIDENT_PAGING_A: { notification: ['serviceKey'], integration: 'serviceKey' },
  INCIDENT_PAGING_B: { notification: ['incidentPagingBApiKey', 'opsGenieApiKey'], integration: 'apiKey' },
  INCIDENT_PAGING_C: { notification: ['incidentPagingCApiKey', 'victorOpsApiKey'], integration: 'apiKey' },
  MONITORING_SAAS: { notification: ['monitoringSaasApiKey', 'datadogApiKey'], integration: 'apiKey' },
  TEAM_CHAT_A: { notification: ['notificationToken'], integration: 'notificationToken' },
  TEAM_CHAT_B: { notification: ['apiToken'], integration: 'apiToken' },
};

/**
 * The last four visible characters of a partly masked key ("******1a2b" → "1a2b"), or undefined when fewer
 * than three show: the one way keys are read here, since the platform returns them partly masked.
 */
export function keyEnding(v: unknown): string | undefined {
  if (typeof v !== 'string' || !v) return undefined;
  const tail = v.slice(v.lastIndexOf('*') + 1);
  return tail.length >= 3 ? tail.slice(-4) : undefined;
}

/** Whether two partly masked keys are one key, by their endings; undefined when too little shows to tell. */
export function sameKey(a: unknown, b: unknown): boolean | undefined {
  const [x, y] = [keyEnding(a), keyEnding(b)];
  if (x === undefined || y === undefined) return undefined;
  const len = Math.min(x.length, y.length);
  return x.slice(-len) === y.slice(-len);
}

export interface KeyDifference {
  /** The integration type in the spec's words. */
  integrationType: string;
  notificationKey: string;
  integrationKey: string;
}

/**
 * A notification carrying a different key from the project's integration of its type. Undefined when the
 * keys agree, when the project has no integration of that type (the notification carries its own key), or
 * when too little of either key is visible to tell.
 */
export function differentKey(
  n: NotificationFields,
  integrations: readonly { type: string; [field: string]: unknown }[],
): KeyDifference | undefined {
  const spec = specIntegrationType(String(n.typeName ?? ''));
  const fields = spec ? KEY_FIELDS[spec] : undefined;
  if (!spec || !fields) return undefined;
  const integration = integrations.find((i) => specIntegrationType(i.type) === spec);
  const mine = fields.notification.map((f) => n[f]).find((v) => typeof v === 'string') as string | undefined;
  const theirs = integration?.[fields.integration];
  if (typeof mine !== 'string' || typeof theirs !== 'string' || sameKey(mine, theirs) !== false)
    return undefined;
  return { integrationType: spec, notificationKey: mine, integrationKey: theirs };
}
