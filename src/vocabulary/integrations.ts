// Third-party integrations (API reference › Third-party integration configuration, endpoint 15).

/** Integration types, in the API reference's order. */
export const INTEGRATION_TYPES = [
  'MONITORING_SAAS',
  'TEAM_CHAT_A',
  'INCIDENT_PAGING_A',
  'TEAM_CHAT_B',
  'APM_SAAS',
  'INCIDENT_PAGING_B',
  'INCIDENT_PAGING_C',
  'WEBHOOK',
  'TEAM_CHAT_C',
  'METRICS_SCRAPER',
] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/**
 * The enumerated fields of the types' bodies: region (every type's values; see INTEGRATION_TYPE_FIELD_VALUES
 * for a type that takes fewer), METRICS_SCRAPER's two.
 */
export const INTEGRATION_FIELD_VALUES = {
  // The field's Datadog sites; OpsGenie and PagerDuty take US and EU only.
  region: ['US', 'EU', 'US3', 'US5', 'AP1', 'US1_FED'],
  scheme: ['http', 'https'],
  serviceDiscovery: ['file', 'http'],
} as const;

/** Where a type takes fewer values of a field than INTEGRATION_FIELD_VALUES lists. */
export const INTEGRATION_TYPE_FIELD_VALUES: Partial<
  Record<IntegrationType, Record<string, readonly string[]>>
> = {
  INCIDENT_PAGING_A: { region: ['US', 'EU'] },
  INCIDENT_PAGING_B: { region: ['US', 'EU'] },
};

/**
 * Required and optional body fields by type (endpoint 15's table), required first. TEAM_CHAT_B's teamName
 * is required only when reconfiguring an existing integration. APM_SAAS: fields not shown (null).
 */
export const INTEGRATION_FIELDS: Record<
  IntegrationType,
  { required: readonly string[]; optional: readonly string[] } | null
> = {
  // Beyond the spec's table, what the vendor's client sends in the field (region for Datadog and PagerDuty,
  // name for Teams): test/fixtures/field/README.md names the source.
  INCIDENT_PAGING_A: { required: ['serviceKey'], optional: ['region'] },
  // teamName is required when reconfiguring; the platform merges it from the existing one.
  TEAM_CHAT_B: { required: ['apiToken'], optional: ['teamName', 'channelName'] },
  MONITORING_SAAS: { required: ['apiKey'], optional: ['region'] },
  TEAM_CHAT_A: { required: ['notificationToken', 'roomName'], optional: [] },
  INCIDENT_PAGING_B: { required: ['apiKey'], optional: ['region'] },
  INCIDENT_PAGING_C: { required: ['apiKey'], optional: ['routingKey'] },
  WEBHOOK: { required: ['url'], optional: ['secret'] },
  TEAM_CHAT_C: { required: ['teamChatCWebhookUrl'], optional: ['name'] },
  APM_SAAS: null,
  METRICS_SCRAPER: {
    required: ['username', 'password', 'listenAddress', 'serviceDiscovery', 'scheme', 'enabled'],
    optional: ['tlsPemPassword', 'tlsPemPath'],
  },
};

/** Which names the platform speaks: the spec's (renamed by kind) or the field's (the products' own names). */
export type Dialect = 'spec' | 'field';

/** The field's name of each integration type (servers in the field refuse the spec's with INVALID_ENUM_VALUE). */
export const FIELD_INTEGRATION_TYPES: Record<IntegrationType, string> = {
  MONITORING_SAAS: 'DATADOG',
  TEAM_CHAT_A: 'HIP_CHAT',
  INCIDENT_PAGING_A: 'PAGER_DUTY',
  TEAM_CHAT_B: 'SLACK',
  APM_SAAS: 'NEW_RELIC',
  INCIDENT_PAGING_B: 'OPS_GENIE',
  INCIDENT_PAGING_C: 'VICTOR_OPS',
  WEBHOOK: 'WEBHOOK',
  TEAM_CHAT_C: 'MICROSOFT_TEAMS',
  METRICS_SCRAPER: 'PROMETHEUS',
};

/** Integration body fields whose name differs in the field (spec name → field name). */
const FIELD_INTEGRATION_FIELDS: Record<string, string> = { teamChatCWebhookUrl: 'microsoftTeamsWebhookUrl' };

/**
 * Other names people and models use for an integration's fields: the field's notification field names
 * (datadogApiKey, opsGenieRegion, victorOpsRoutingKey…) and the field's integration names, each → the spec's.
 */
const FIELD_ALIASES: Record<string, string> = {
  datadogApiKey: 'apiKey',
  datadogRegion: 'region',
  opsGenieApiKey: 'apiKey',
  opsGenieRegion: 'region',
  victorOpsApiKey: 'apiKey',
  victorOpsRoutingKey: 'routingKey',
  webhookUrl: 'url',
  webhookSecret: 'secret',
  microsoftTeamsWebhookUrl: 'teamChatCWebhookUrl',
};

const SPEC_BY_FIELD_TYPE = new Map(Object.entries(FIELD_INTEGRATION_TYPES).map(([s, f]) => [f, s]));

/** Every integration type name either dialect uses, for input. */
export const ANY_INTEGRATION_TYPE = [
  ...INTEGRATION_TYPES,
  ...Object.values(FIELD_INTEGRATION_TYPES).filter(
    (f) => !(INTEGRATION_TYPES as readonly string[]).includes(f),
  ),
] as readonly string[];

/** The spec's name of a type given in either dialect; undefined when neither knows it. */
export function specIntegrationType(name: string): IntegrationType | undefined {
  if ((INTEGRATION_TYPES as readonly string[]).includes(name)) return name as IntegrationType;
  return SPEC_BY_FIELD_TYPE.get(name) as IntegrationType | undefined;
}

/** A type's name in a dialect. */
export const integrationTypeIn = (type: IntegrationType, d: Dialect): string =>
  d === 'field' ? FIELD_INTEGRATION_TYPES[type] : type;

/** The other dialect's name of a type the platform sent (to show beside it), if it differs. */
export function otherIntegrationName(sent: string): string | undefined {
  const spec = specIntegrationType(sent);
  if (!spec) return undefined;
  const other = sent === spec ? FIELD_INTEGRATION_TYPES[spec] : spec;
  return other === sent ? undefined : other;
}

/** A settings field given under any known name, under the spec's name. */
export const specFieldName = (name: string): string => FIELD_ALIASES[name] ?? name;

/** A spec field name in a dialect. */
export const fieldNameIn = (name: string, d: Dialect): string =>
  d === 'field' ? (FIELD_INTEGRATION_FIELDS[name] ?? name) : name;

/** A field name the platform sent, under the spec's name (the reverse of fieldNameIn). */
export const specFieldOf = (name: string): string =>
  Object.entries(FIELD_INTEGRATION_FIELDS).find(([, f]) => f === name)?.[0] ?? name;

/** Notification fields whose name differs in the field (the spec's renamed forms → the field's). */
const FIELD_NOTIFICATION_FIELDS: Record<string, string> = {
  monitoringSaasApiKey: 'datadogApiKey',
  monitoringSaasRegion: 'datadogRegion',
  incidentPagingBApiKey: 'opsGenieApiKey',
  incidentPagingBRegion: 'opsGenieRegion',
  incidentPagingCApiKey: 'victorOpsApiKey',
  incidentPagingCRoutingKey: 'victorOpsRoutingKey',
  teamChatCWebhookUrl: 'microsoftTeamsWebhookUrl',
};

/** A notification (typeName and fields, spec names) as a platform of this dialect writes it. */
export function notificationIn(n: Record<string, unknown>, d: Dialect): Record<string, unknown> {
  if (d === 'spec') return n;
  return Object.fromEntries(
    Object.entries(n).map(([k, v]) => {
      if (k === 'typeName' && typeof v === 'string') {
        const type = specIntegrationType(v);
        return [k, type ? FIELD_INTEGRATION_TYPES[type] : v];
      }
      return [FIELD_NOTIFICATION_FIELDS[k] ?? k, v];
    }),
  );
}

/**
 * The key a type's integration holds and the fields its alert notifications copy it into (either dialect's
 * names): a notification keeps the key it was added with, so after a rotation it still uses the old one.
 */
export const NOTIFICATION_KEY_FIELDS: Partial<
  Record<IntegrationType, { key: string; notification: string[] }>
> = {
  INCIDENT_PAGING_A: { key: 'serviceKey', notification: ['serviceKey'] },
  INCIDENT_PAGING_B: { key: 'apiKey', notification: ['incidentPagingBApiKey', 'opsGenieApiKey'] },
  INCIDENT_PAGING_C: { key: 'apiKey', notification: ['incidentPagingCApiKey', 'victorOpsApiKey'] },
  MONITORING_SAAS: { key: 'apiKey', notification: ['monitoringSaasApiKey', 'datadogApiKey'] },
  TEAM_CHAT_A: { key: 'notificationToken', notification: ['notificationToken'] },
  TEAM_CHAT_B: { key: 'apiToken', notification: ['apiToken'] },
  TEAM_CHAT_C: {
    key: 'teamChatCWebhookUrl',
    notification: ['teamChatCWebhookUrl', 'microsoftTeamsWebhookUrl'],
  },
  WEBHOOK: { key: 'url', notification: ['webhookUrl'] },
};
