// Third-party integrations of the projects, secrets in full (masked by the routes on output).

import type { IntegrationType } from '../../vocabulary/index.js';
import type { Build, Rng } from './gen.js';
import { configOf } from './state.js';
import { WORLD } from './world.js';

/** Project, type, and its fields (secrets drawn from the PRNG, in this order). */
const INTEGRATIONS: Array<[string, IntegrationType, (r: Rng) => Record<string, string | boolean>]> = [
  ['payments-prod', 'INCIDENT_PAGING_A', (r) => ({ serviceKey: r.hex(32) })],
  [
    'payments-prod',
    'TEAM_CHAT_B',
    (r) => ({ apiToken: `xoxb-${r.hex(24)}`, teamName: 'northwind', channelName: '#payments-db' }),
  ],
  [
    'payments-prod',
    'WEBHOOK',
    (r) => ({ url: `https://hooks.example.net/dbops/${r.hex(16)}`, secret: r.hex(32) }),
  ],
  // A legacy chat integration: no team name, no channel.
  ['search-staging', 'TEAM_CHAT_B', (r) => ({ apiToken: `xoxb-${r.hex(24)}` })],
  ['search-staging', 'INCIDENT_PAGING_C', (r) => ({ apiKey: r.uuid(), routingKey: 'search-oncall' })],
  ['analytics-prod', 'MONITORING_SAAS', (r) => ({ apiKey: r.hex(32) })],
  ['analytics-prod', 'INCIDENT_PAGING_B', (r) => ({ apiKey: r.uuid(), region: 'US' })],
  [
    'analytics-prod',
    'METRICS_SCRAPER',
    (r) => ({
      username: 'prom-scraper',
      password: r.hex(20),
      listenAddress: '0.0.0.0:9216',
      serviceDiscovery: 'http',
      scheme: 'https',
      enabled: true,
      tlsPemPath: '/etc/dbops/tls/scraper.pem',
      tlsPemPassword: r.hex(16),
    }),
  ],
  ['platform-dev', 'TEAM_CHAT_A', (r) => ({ notificationToken: r.hex(40), roomName: 'dev-db' })],
  [
    'platform-dev',
    'TEAM_CHAT_C',
    (r) => ({ teamChatCWebhookUrl: `https://chat-c.example.com/webhookb2/${r.uuid()}` }),
  ],
];

export function buildIntegrations(b: Build): void {
  for (const [project, type, fields] of INTEGRATIONS) {
    b.data.integrations.push({ groupId: b.project(project).id, type, fields: fields(b.r) });
  }
  copyKeys(b);
  rotateKeys(b);
}

/**
 * The integration's fields a notification of its type copies when it is added (integration field →
 * notification field): the key, and what routes it. The platform copies them once; a later change of the
 * integration does not reach the notifications.
 */
const COPIED: Partial<Record<IntegrationType, Array<[string, string]>>> = {
  INCIDENT_PAGING_A: [['serviceKey', 'serviceKey']],
  INCIDENT_PAGING_B: [
    ['apiKey', 'incidentPagingBApiKey'],
    ['region', 'incidentPagingBRegion'],
  ],
  INCIDENT_PAGING_C: [
    ['apiKey', 'incidentPagingCApiKey'],
    ['routingKey', 'incidentPagingCRoutingKey'],
  ],
  MONITORING_SAAS: [['apiKey', 'monitoringSaasApiKey']],
  TEAM_CHAT_A: [['notificationToken', 'notificationToken']],
  TEAM_CHAT_B: [['apiToken', 'apiToken']],
  TEAM_CHAT_C: [['teamChatCWebhookUrl', 'teamChatCWebhookUrl']],
  WEBHOOK: [
    ['url', 'webhookUrl'],
    ['secret', 'webhookSecret'],
  ],
};

/** Each project notification of a type the project has an integration for carries that integration's fields. */
function copyKeys(b: Build): void {
  for (const config of b.data.alertConfigs)
    for (const n of config.notifications) {
      const integration = b.data.integrations.find(
        (i) => i.groupId === config.groupId && i.type === n.typeName,
      );
      for (const [from, to] of COPIED[n.typeName as IntegrationType] ?? [])
        if (integration?.fields[from] !== undefined) n[to] = integration.fields[from];
    }
}

/**
 * The world's key rotations: the project's notifications of that type carry the integration's current key
 * (copyKeys), except those of the configurations the rotation left behind, which keep the key it replaced.
 */
function rotateKeys(b: Build): void {
  for (const rot of WORLD.rotations) {
    const project = b.project(rot.project);
    const integration = b.data.integrations.find(
      (i) => i.groupId === project.id && i.type === rot.integration,
    );
    const [from, to] = COPIED[rot.integration as IntegrationType]?.[0] ?? [];
    if (integration === undefined || from === undefined || to === undefined)
      throw new Error(
        `demo world: rotations: ${rot.project} has no ${rot.integration} integration to rotate`,
      );
    const current = String(integration.fields[from]);
    const stale = rot.stale.map((ref) => configOf(b, ref));
    const old = b.r.hex(current.length);
    for (const config of stale)
      for (const n of config.notifications) if (n.typeName === rot.integration) n[to] = old;
  }
}
