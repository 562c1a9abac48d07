// Third-party integrations (seed › Third-party integration configuration, endpoint 15).

/** Integration types, in the seed's order. */
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

/** The enumerated fields of the types' bodies: INCIDENT_PAGING_B region, METRICS_SCRAPER's two. */
export const INTEGRATION_FIELD_VALUES = {
  region: ['US', 'EU'],
  scheme: ['http', 'https'],
  serviceDiscovery: ['file', 'http'],
} as const;

/**
 * Required and optional body fields by type (endpoint 15's table), required first. TEAM_CHAT_B's teamName
 * is required only when reconfiguring an existing integration. APM_SAAS: fields not shown (null).
 */
export const INTEGRATION_FIELDS: Record<
  IntegrationType,
  { required: readonly string[]; optional: readonly string[] } | null
> = {
  INCIDENT_PAGING_A: { required: ['serviceKey'], optional: [] },
  // teamName is required when reconfiguring; the platform merges it from the existing one.
  TEAM_CHAT_B: { required: ['apiToken'], optional: ['teamName', 'channelName'] },
  MONITORING_SAAS: { required: ['apiKey'], optional: [] },
  TEAM_CHAT_A: { required: ['notificationToken', 'roomName'], optional: [] },
  INCIDENT_PAGING_B: { required: ['apiKey'], optional: ['region'] },
  INCIDENT_PAGING_C: { required: ['apiKey'], optional: ['routingKey'] },
  WEBHOOK: { required: ['url'], optional: ['secret'] },
  TEAM_CHAT_C: { required: ['teamChatCWebhookUrl'], optional: [] },
  APM_SAAS: null,
  METRICS_SCRAPER: {
    required: ['username', 'password', 'listenAddress', 'serviceDiscovery', 'scheme', 'enabled'],
    optional: ['tlsPemPassword', 'tlsPemPath'],
  },
};
