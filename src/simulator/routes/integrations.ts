// Third-party integrations of a project: create-or-update one type (answering with the whole list, secrets
// masked), and beyond the spec: list them. Secrets are stored in full and never returned in full.

import { INTEGRATION_FIELD_VALUES, type IntegrationType } from '../../spec/index.js';
import type { IntegrationRec } from '../records.js';
import type { SimContext, SimResponse, SimRoute } from '../types.js';
import { requireProjectRole } from './access.js';
import { audit, FULL_MASK, maskSecret, maskUrl } from './render.js';
import {
  type BodySpec,
  badRequest,
  invalidEnum,
  invalidJsonAttribute,
  missingAttribute,
  parseBody,
} from './validate.js';

/** How a field is shown: partially masked, URL path masked, fully masked, or left out. */
type Secret = 'partial' | 'url' | 'full' | 'omit';

interface TypeSpec {
  body: BodySpec;
  secrets: Record<string, Secret>;
}

const str = { kind: 'string', min: 1 } as const;
const req = { kind: 'string', min: 1, required: true } as const;

/** Fields by type (the spec's table; APM_SAAS fields follow the vendor's public field names). */
const TYPE_SPECS: Record<IntegrationType, TypeSpec> = {
  INCIDENT_PAGING_A: { body: { serviceKey: req }, secrets: { serviceKey: 'partial' } },
  TEAM_CHAT_B: {
    body: { apiToken: req, teamName: str, channelName: { kind: 'string' } },
    secrets: { apiToken: 'partial' },
  },
  MONITORING_SAAS: { body: { apiKey: req }, secrets: { apiKey: 'partial' } },
  TEAM_CHAT_A: { body: { notificationToken: req, roomName: req }, secrets: { notificationToken: 'partial' } },
  INCIDENT_PAGING_B: {
    body: { apiKey: req, region: { kind: 'string', values: INTEGRATION_FIELD_VALUES.region } },
    secrets: { apiKey: 'partial' },
  },
  INCIDENT_PAGING_C: {
    body: { apiKey: req, routingKey: str },
    secrets: { apiKey: 'partial', routingKey: 'partial' },
  },
  WEBHOOK: { body: { url: req, secret: str }, secrets: { url: 'url', secret: 'full' } },
  TEAM_CHAT_C: { body: { teamChatCWebhookUrl: req }, secrets: { teamChatCWebhookUrl: 'url' } },
  APM_SAAS: {
    body: { accountId: req, licenseKey: req, writeToken: req, readToken: req },
    secrets: { licenseKey: 'partial', writeToken: 'partial', readToken: 'partial' },
  },
  METRICS_SCRAPER: {
    body: {
      username: req,
      password: req,
      listenAddress: req,
      serviceDiscovery: { kind: 'string', values: INTEGRATION_FIELD_VALUES.serviceDiscovery, required: true },
      scheme: { kind: 'string', values: INTEGRATION_FIELD_VALUES.scheme, required: true },
      enabled: { kind: 'boolean', required: true },
      tlsPemPassword: str,
      tlsPemPath: str,
    },
    secrets: { password: 'omit', tlsPemPassword: 'partial' },
  },
};

export function renderIntegration(rec: IntegrationRec): Record<string, unknown> {
  const secrets = TYPE_SPECS[rec.type as IntegrationType]?.secrets ?? {};
  const out: Record<string, unknown> = { type: rec.type };
  for (const [name, value] of Object.entries(rec.fields)) {
    const secret = secrets[name];
    if (secret === 'omit') continue;
    if (typeof value !== 'string' || secret === undefined) out[name] = value;
    else if (secret === 'partial') out[name] = maskSecret(value);
    else if (secret === 'url') out[name] = maskUrl(value);
    else out[name] = FULL_MASK;
  }
  if (rec.type === 'TEAM_CHAT_B' && out.channelName === undefined) out.channelName = '';
  return out;
}

function projectIntegrations(ctx: SimContext, projectId: string): IntegrationRec[] {
  return ctx.store.data.integrations.filter((i) => i.groupId === projectId);
}

const LISTEN_ADDRESS = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/** Rules beyond field types, checked on the merged configuration. */
function checkRules(type: string, fields: Record<string, string | boolean>, reconfiguring: boolean): void {
  for (const [name, spec] of Object.entries(TYPE_SPECS[type as IntegrationType]?.body ?? {})) {
    if (spec.required === true && fields[name] === undefined) throw missingAttribute(name);
  }
  if (type === 'TEAM_CHAT_B' && reconfiguring && fields.teamName === undefined)
    throw missingAttribute('teamName');
  if (type === 'INCIDENT_PAGING_B' && fields.region === 'EU') {
    throw invalidJsonAttribute(
      'region',
      'the EU region needs the EU region API URL setting, which is not configured on this server; use US',
    );
  }
  if (type === 'METRICS_SCRAPER') {
    const address = String(fields.listenAddress);
    const match = LISTEN_ADDRESS.exec(address);
    if (match === null || Number(match[2]) < 1 || Number(match[2]) > 65535) {
      throw invalidJsonAttribute(
        'listenAddress',
        `expected an address and port such as 0.0.0.0:9216, got ${address}`,
      );
    }
    const pemPath = fields.tlsPemPath;
    if (fields.scheme === 'https' && pemPath === undefined) {
      throw badRequest('MISSING_ATTRIBUTE', 'The attribute tlsPemPath is required when scheme is https.', [
        'tlsPemPath',
      ]);
    }
    if (typeof pemPath === 'string' && !pemPath.startsWith('/')) {
      throw invalidJsonAttribute('tlsPemPath', 'must be an absolute path');
    }
  }
}

function listOf(ctx: SimContext, projectId: string): SimResponse {
  return { status: 200, list: projectIntegrations(ctx, projectId).map(renderIntegration) };
}

export const integrationRoutes: SimRoute[] = [
  {
    method: 'PUT',
    path: '/groups/:projectId/integrations/:integrationType',
    mutates: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'owner');
      const type = req.params.integrationType ?? '';
      const spec = TYPE_SPECS[type as IntegrationType];
      if (spec === undefined) throw invalidEnum('integrationType', type, Object.keys(TYPE_SPECS));
      const body = parseBody(req.body, { ...spec.body, type: { kind: 'string', required: true } });
      if (body.type !== type) {
        throw invalidJsonAttribute(
          'type',
          `${String(body.type)} does not match the integration type ${type} of the path`,
        );
      }
      const existing = projectIntegrations(ctx, project.id).find((i) => i.type === type);
      const { type: _type, ...changes } = body as Record<string, string | boolean>;
      const fields = { ...existing?.fields, ...changes };
      checkRules(type, fields, existing !== undefined);
      if (existing === undefined) ctx.store.data.integrations.push({ groupId: project.id, type, fields });
      else existing.fields = fields;
      audit(req, ctx, {
        eventTypeName: existing === undefined ? 'INTEGRATION_CONFIGURED' : 'INTEGRATION_UPDATED',
        groupId: project.id,
        integrationType: type,
      });
      return listOf(ctx, project.id);
    },
  },
  {
    method: 'GET',
    path: '/groups/:projectId/integrations',
    beyondSpec: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'owner');
      return listOf(ctx, project.id);
    },
  },
];
