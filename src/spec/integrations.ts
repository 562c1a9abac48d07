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
