// Third-party integrations of a project: create-or-update one type (answering with the whole list, secrets
// masked), and beyond the spec: list them. Secrets are stored in full and never returned in full.

import {
  type Dialect,
  fieldNameIn,
  INTEGRATION_FIELD_VALUES,
  INTEGRATION_FIELDS,
  INTEGRATION_TYPES,
  type IntegrationType,
  integrationTypeIn,
  specFieldOf,
  specIntegrationType,
} from '../../vocabulary/index.js';
import type { IntegrationRec } from '../records.js';
import { requireProjectRole } from '../roles.js';
import type { SimContext, SimResponse, SimRoute } from '../types.js';
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

type FieldSpec = BodySpec[string];

/** How a field's value is checked, where it is not a non-empty string. */
const FIELD_KINDS: Record<string, FieldSpec> = {
  channelName: { kind: 'string' },
  enabled: { kind: 'boolean' },
  region: { kind: 'string', values: INTEGRATION_FIELD_VALUES.region },
  scheme: { kind: 'string', values: INTEGRATION_FIELD_VALUES.scheme },
  serviceDiscovery: { kind: 'string', values: INTEGRATION_FIELD_VALUES.serviceDiscovery },
};

/** The spec's fields of a type; APM_SAAS's (not in the spec) follow the vendor's public field names. */
function bodyOf(type: IntegrationType): BodySpec {
  const fields = INTEGRATION_FIELDS[type] ?? {
    required: ['accountId', 'licenseKey', 'writeToken', 'readToken'],
    optional: [],
  };
  const spec = (name: string, required: boolean): [string, FieldSpec] => [
    name,
    { ...(FIELD_KINDS[name] ?? { kind: 'string', min: 1 }), ...(required ? { required: true } : {}) },
  ];
  return Object.fromEntries([
    ...fields.required.map((name) => spec(name, true)),
    ...fields.optional.map((name) => spec(name, false)),
  ]);
}

/** How each secret field is shown: partially masked, URL path masked, fully masked, or left out. */
const SECRETS: Record<IntegrationType, Record<string, Secret>> = {
  INCIDENT_PAGING_A: { serviceKey: 'partial' },
  TEAM_CHAT_B: { apiToken: 'partial' },
  MONITORING_SAAS: { apiKey: 'partial' },
  TEAM_CHAT_A: { notificationToken: 'partial' },
  INCIDENT_PAGING_B: { apiKey: 'partial' },
  INCIDENT_PAGING_C: { apiKey: 'partial', routingKey: 'partial' },
  WEBHOOK: { url: 'url', secret: 'full' },
  TEAM_CHAT_C: { teamChatCWebhookUrl: 'url' },
  APM_SAAS: { licenseKey: 'partial', writeToken: 'partial', readToken: 'partial' },
  METRICS_SCRAPER: { password: 'omit', tlsPemPassword: 'partial' },
};

const BODIES = Object.fromEntries(INTEGRATION_TYPES.map((t) => [t, bodyOf(t)])) as Record<
  IntegrationType,
  BodySpec
>;

export function renderIntegration(rec: IntegrationRec, dialect: Dialect = 'spec'): Record<string, unknown> {
  const secrets = SECRETS[rec.type as IntegrationType] ?? {};
  const out: Record<string, unknown> = { type: integrationTypeIn(rec.type as IntegrationType, dialect) };
  for (const [name, value] of Object.entries(rec.fields)) {
    const secret = secrets[name];
    if (secret === 'omit') continue;
    const key = fieldNameIn(name, dialect);
    if (typeof value !== 'string' || secret === undefined) out[key] = value;
    else if (secret === 'partial') out[key] = maskSecret(value);
    else if (secret === 'url') out[key] = maskUrl(value);
    else out[key] = FULL_MASK;
  }
  if (rec.type === 'TEAM_CHAT_B' && out.channelName === undefined) out.channelName = '';
  return out;
}

function projectIntegrations(ctx: SimContext, projectId: string): IntegrationRec[] {
  return ctx.store.ofProject('integrations', projectId);
}

const LISTEN_ADDRESS = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/** Rules beyond field types, checked on the merged configuration. */
function checkRules(type: string, fields: Record<string, string | boolean>, reconfiguring: boolean): void {
  for (const [name, spec] of Object.entries(BODIES[type as IntegrationType] ?? {})) {
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
  const d = ctx.options.dialect;
  return { status: 200, list: projectIntegrations(ctx, projectId).map((i) => renderIntegration(i, d)) };
}

export const integrationRoutes: SimRoute[] = [
  {
    method: 'PUT',
    path: '/groups/:projectId/integrations/:integrationType',
    mutates: true,
    handle(req, ctx) {
      const project = requireProjectRole(req, ctx, req.params.projectId ?? '', 'owner');
      // The path names the type in this server's dialect; the record keeps the spec's name.
      const d = ctx.options.dialect;
      const wire = req.params.integrationType ?? '';
      const named = specIntegrationType(wire);
      const type = named && integrationTypeIn(named, d) === wire ? named : '';
      const spec = Object.hasOwn(BODIES, type) ? BODIES[type as IntegrationType] : undefined;
      if (spec === undefined)
        throw invalidEnum(
          'integrationType',
          wire,
          INTEGRATION_TYPES.map((t) => integrationTypeIn(t, d)),
        );
      const sent =
        req.body && typeof req.body === 'object' && !Array.isArray(req.body)
          ? Object.fromEntries(
              Object.entries(req.body).map(([k, v]) => [d === 'field' ? specFieldOf(k) : k, v]),
            )
          : req.body;
      const body = parseBody(sent, { ...spec, type: { kind: 'string', required: true } });
      if (body.type !== wire) {
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
