// The integrations toolset: third-party integrations (PagerDuty, Slack, webhooks), listed and replaced.
import { z } from 'zod';
import { ifSupported } from '../src/api/capabilities.js';
import type { Integration } from '../src/api/client.js';
import { ApiError } from '../src/api/errors.js';
import { keyedNotifications } from '../src/feeds/integration-keys.js';
import {
  integrationPreview,
  integrationSavedAnswer,
  integrationsAnswer,
} from '../src/format/views/integrations.js';
import { ids, text } from '../src/tool/ids.js';
import { defineTool, listOutput, type ToolContext, ToolInputError } from '../src/tool/index.js';
import {
  ANY_INTEGRATION_TYPE,
  type Dialect,
  FIELD_INTEGRATION_TYPES,
  fieldNameIn,
  INTEGRATION_FIELD_VALUES,
  INTEGRATION_FIELDS,
  INTEGRATION_TYPE_FIELD_VALUES,
  type IntegrationType,
  integrationTypeIn,
  specFieldName,
  specIntegrationType,
} from '../src/vocabulary/index.js';

// The fields per type (APM_SAAS's are not documented, so it is not checked) and their enumerated values
// come from the spec; HINTS adds what a model must know beyond a field's name.
const TYPES = INTEGRATION_FIELDS as Record<string, (typeof INTEGRATION_FIELDS)[IntegrationType]>;

const ENUMS: Record<string, readonly string[]> = INTEGRATION_FIELD_VALUES;

/** What a model must know about a field beyond its name (enums come from ENUMS). */
const HINTS: Record<string, string> = {
  listenAddress: 'ip:port',
  enabled: 'boolean',
  tlsPemPath: 'absolute; for https',
};

const enumOf = (type: string, k: string): readonly string[] | undefined =>
  INTEGRATION_TYPE_FIELD_VALUES[type as IntegrationType]?.[k] ?? ENUMS[k];

const fieldHelp = (type: string) => (k: string) => {
  const values = enumOf(type, k);
  if (values) return `${k}=${values.join('|')}`;
  return HINTS[k] ? `${k} (${HINTS[k]})` : k;
};

/** The settings description, built from the same table checkSettings uses so the two cannot drift. */
const SETTINGS_HELP = `Fields per type, [optional]: ${Object.entries(TYPES)
  .map(([type, spec]) => {
    if (!spec) return `${type} varies (often accountId, licenseKey)`;
    const optional = spec.optional.length ? ` [${spec.optional.map(fieldHelp(type)).join(', ')}]` : '';
    return `${type} ${spec.required.map(fieldHelp(type)).join(', ')}${optional}`;
  })
  .join('; ')}`;

type Settings = Record<string, string | boolean>;

/** The type and settings under the spec's names, whichever dialect's names the caller used. */
function specOf(args: { integrationType: string; settings: Settings }): {
  type: IntegrationType;
  settings: Settings;
} {
  const type = specIntegrationType(args.integrationType) as IntegrationType;
  const settings: Settings = {};
  for (const [k, v] of Object.entries(args.settings)) {
    const name = specFieldName(k);
    if (name in settings)
      throw new ToolInputError(`settings name ${name} twice (as ${k} and another name); give it once.`);
    settings[name] = v;
  }
  return { type, settings };
}

/** Learns the platform's dialect from the type names it answers with (auto mode only). */
function learnDialect(ctx: { api: { dialect: { learn(d: Dialect): void } } }, listed: Integration[]) {
  for (const i of listed) {
    const spec = specIntegrationType(String(i.type));
    if (spec && FIELD_INTEGRATION_TYPES[spec] !== spec)
      return ctx.api.dialect.learn(i.type === spec ? 'spec' : 'field');
  }
}

/** Checks the settings against the type's fields before anything is sent; the message names what to fix. */
export function checkSettings(type: string, s: Settings): void {
  const spec = TYPES[type];
  if ('type' in s) throw new ToolInputError('Leave "type" out of settings; integrationType sets it.');
  if (!spec) return;
  const known = [...spec.required, ...spec.optional];
  const unknown = Object.keys(s).filter((k) => !known.includes(k));
  if (unknown.length)
    throw new ToolInputError(
      `${type} has no field ${unknown.join(', ')}; its fields are ${known.join(', ')}.`,
    );
  const missing = spec.required.filter((k) => s[k] === undefined || s[k] === '');
  if (missing.length) throw new ToolInputError(`${type} needs ${missing.join(', ')} in settings.`);
  for (const [k, v] of Object.entries(s)) {
    if (k === 'enabled' ? typeof v !== 'boolean' : typeof v !== 'string')
      throw new ToolInputError(`settings.${k} must be ${k === 'enabled' ? 'true or false' : 'a string'}.`);
    const allowed = enumOf(type, k);
    if (allowed && !allowed.includes(String(v)))
      throw new ToolInputError(`settings.${k} must be one of ${allowed.join(', ')}.`);
  }
  if (s.scheme === 'https' && !s.tlsPemPath)
    throw new ToolInputError('scheme https needs tlsPemPath (absolute path of the PEM file) in settings.');
  if (typeof s.tlsPemPath === 'string' && !/^(\/|[A-Za-z]:[\\/])/.test(s.tlsPemPath))
    throw new ToolInputError('settings.tlsPemPath must be an absolute path.');
  for (const k of ['url', 'teamChatCWebhookUrl'])
    if (typeof s[k] === 'string' && !URL.canParse(s[k] as string))
      throw new ToolInputError(`settings.${k} must be a full URL such as https://hooks.example.com/…`);
}

export const listIntegrations = defineTool({
  name: 'list_integrations',
  title: 'List integrations',
  toolset: 'integrations',
  example: {},
  description: `A project's integrations, keys masked. Use before put_integration or to see where notifications go.`,
  beyondSpec: true,
  kind: 'read',
  input: { projectId: ids.project.optional() },
  output: listOutput,
  run: async (ctx, args) => {
    const page = await ctx.api.integrations.list(args.projectId, ctx.req);
    learnDialect(ctx, page.results);
    return page;
  },
  format: (result, args, f) =>
    integrationsAnswer(
      result,
      `Integrations of project ${f.names.project(args.projectId)}`,
      f,
      'put_integration to add or replace one',
    ),
});

export const putIntegration = defineTool({
  name: 'put_integration',
  title: 'Create or replace an integration',
  toolset: 'integrations',
  example: {
    integrationType: 'WEBHOOK',
    settings: { url: 'https://hooks.example.net/dbops/9f8e7d6c', secret: 'whsec-0123456789abcdef' },
  },
  description:
    "Adds or replaces a project's integration of one type; new keys are live at once. Use to set up or rotate keys.",
  kind: 'destructive',
  checkWith: 'list_integrations',
  // It reconfigures a service outside the platform (paging, chat, webhooks, metrics).
  openWorld: true,
  idempotent: true,
  input: {
    projectId: ids.project.optional(),
    integrationType: z
      .enum(ANY_INTEGRATION_TYPE as [string, ...string[]])
      .describe('One per project; either name'),
    settings: z
      .record(text('settings field name', 100), z.union([text('settings value', 4000, 0), z.boolean()]))
      .describe(SETTINGS_HELP),
  },
  output: { ...listOutput, stillOnOldKey: z.array(z.looseObject({})).optional() },
  check: (args) => {
    const { type, settings } = specOf(args);
    checkSettings(type, settings);
  },
  preview: async (ctx, args) => {
    const projectId = args.projectId;
    const { type, settings } = specOf(args);
    const listed = await ifSupported(ctx.api, 'integrations', () =>
      ctx.api.integrations.list(projectId, ctx.req),
    );
    if (listed) learnDialect(ctx, listed.results);
    const dialect = ctx.api.dialect.current();
    const current = listed?.results.find((i) => specIntegrationType(String(i.type)) === type);
    const keyed = await keyedNotifications(ctx, projectId, type, settings, current).catch((e) => {
      if (ctx.signal.aborted) throw e;
      ctx.logger.debug('alert configurations not readable for a key change', { error: String(e) });
      return undefined;
    });
    const change = {
      projectId,
      integrationType: args.integrationType,
      type,
      settings,
      current,
      dialect,
      keyed,
    };
    return integrationPreview(change, ctx.names.project(projectId));
  },
  run: async (ctx, args) => {
    const { type, settings } = specOf(args);
    // Read before the change: which notifications hold the key being replaced (by its ending).
    const keyed = await (async () => {
      const before = await ifSupported(ctx.api, 'integrations', () =>
        ctx.api.integrations.list(args.projectId, ctx.req),
      );
      const old = before?.results.find((i) => specIntegrationType(String(i.type)) === type);
      return keyedNotifications(ctx, args.projectId, type, settings, old);
    })().catch((e) => {
      if (ctx.signal.aborted) throw e;
      ctx.logger.debug('alert configurations not readable after a key change', { error: String(e) });
      return undefined;
    });
    return { page: await saveIntegration(ctx, args, type, settings), keyed };
  },
  format: (result, args, f) => {
    const pagingA = specIntegrationType(args.integrationType) === 'INCIDENT_PAGING_A';
    return integrationSavedAnswer(result.page, result.keyed, { ...args, pagingA }, f);
  },
});

/** Saves the integration in the platform's own names (DBOPS_DIALECT, or learned from its answers). */
async function saveIntegration(
  ctx: ToolContext,
  args: { projectId: string },
  type: IntegrationType,
  settings: Settings,
) {
  // On the wire in the platform's own names (DBOPS_DIALECT, or learned from its answers).
  const send = (d: Dialect) => {
    const wire = integrationTypeIn(type, d);
    const body = Object.fromEntries(Object.entries(settings).map(([k, v]) => [fieldNameIn(k, d), v]));
    return ctx.api.integrations.put(args.projectId, wire, { type: wire, ...body }, ctx.req);
  };
  const d = ctx.api.dialect.current();
  try {
    return await send(d);
  } catch (e) {
    // A refused type name says the platform speaks the other dialect: learn it and send once more (PUT is
    // idempotent, and nothing was applied).
    const other: Dialect = d === 'spec' ? 'field' : 'spec';
    const refused = e instanceof ApiError && e.status === 400 && e.errorCode === 'INVALID_ENUM_VALUE';
    if (!refused || !ctx.api.dialect.learns || integrationTypeIn(type, other) === integrationTypeIn(type, d))
      throw e;
    ctx.api.dialect.learn(other);
    return send(other);
  }
}

/** This set's tools, in the order tools/list shows them. */
export const tools = [listIntegrations, putIntegration];
