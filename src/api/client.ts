// The typed API client: createApiClient composes the transport (HTTP, digest, retries) with one module
// per resource area. Every answer is checked against a lenient schema at this boundary.

import type { z } from 'zod';
import { type Logger, silentLogger } from '../log.js';
import type { Dialect } from '../vocabulary/index.js';
import { apiKeysArea, orgsArea, usersArea } from './areas/access.js';
import { alertConfigsArea, alertsArea, globalAlertsArea } from './areas/alerts.js';
import type { AreaContext, CallOptions } from './areas/context.js';
import { agentsArea, automationArea, hostsArea } from './areas/deployment.js';
import { eventsArea } from './areas/events.js';
import { integrationsArea } from './areas/integrations.js';
import { projectsArea } from './areas/projects.js';
import { maintenanceWindowsArea } from './areas/windows.js';
import { clampPage, normalisePage, type PageQuery } from './paging.js';
import { createShapeChecker, pageOf } from './schemas.js';
import {
  createTransport,
  MISS,
  type Query,
  type TransportConfig,
  type TransportRequest,
  type TransportStats,
} from './transport.js';

export type { NewFirstUser, NewUser } from './areas/access.js';
export type { CallOptions } from './areas/context.js';
export type { EventFilter } from './areas/events.js';
export type { MaintenanceWindowChange } from './areas/windows.js';
export type * from './types.js';

/** The transport's settings; the logger is optional (silent by default). */
export interface ApiClientConfig extends Omit<TransportConfig, 'logger'> {
  logger?: Logger;
  /** The names the platform speaks (DBOPS_DIALECT); `auto` learns them from its answers. */
  dialect?: Dialect | 'auto';
}

/**
 * Which names the platform speaks: as set, or learned from what it answers (the spec's until it shows the
 * field's, or refuses a spec name).
 */
function dialectOf(setting: Dialect | 'auto') {
  let current: Dialect = setting === 'auto' ? 'spec' : setting;
  return {
    learns: setting === 'auto',
    current: () => current,
    learn(d: Dialect) {
      if (setting === 'auto') current = d;
    },
  };
}

/** Any call below the API prefix (the path already encoded, from apiPath). */
type ApiRequest = Omit<TransportRequest, 'auth'>;

// The page shape around each item schema, built on first use.
const pageSchemas = new WeakMap<z.ZodType, z.ZodType>();

export function createApiClient(cfg: ApiClientConfig) {
  const logger = cfg.logger ?? silentLogger;
  const transport = createTransport({ ...cfg, logger });
  const check = createShapeChecker(logger);
  // A kept read is answered at once (one promise for the caller, none per layer); others go to the transport.
  function answer<T, R = T>(
    schema: z.ZodType<T> | undefined,
    name: string,
    req: TransportRequest,
    o?: CallOptions,
    then: (value: T) => R = (v) => v as unknown as R,
  ): Promise<R> {
    const checked = (data: unknown) => then(schema ? check(schema, name, data) : (data as T));
    try {
      const data = transport.kept(req, o);
      if (data !== MISS) return Promise.resolve(checked(data));
    } catch (e) {
      return Promise.reject(e);
    }
    return transport.request(req, o).then(checked);
  }
  const ctx: AreaContext = {
    call: (schema, name, req, o) => answer(schema, name, req, o),
    page(item, name, req, o) {
      let schema = pageSchemas.get(item);
      if (!schema) {
        schema = pageOf(item);
        pageSchemas.set(item, schema);
      }
      return answer(schema, `Page<${name}>`, req, o, (v) => normalisePage<z.infer<typeof item>>(v));
    },
    list(item, name, path, query = {}, o) {
      const q = { ...(query as Query), ...clampPage(query as PageQuery) };
      return ctx.page(item, name, { method: 'GET', path, query: q }, o);
    },
  };

  return {
    baseUrl: transport.baseUrl,
    dialect: dialectOf(cfg.dialect ?? 'auto'),
    stats: transport.stats as Readonly<TransportStats>,
    /** Reads shared between calls of this client (its key, its platform); share() connects replicas. */
    cache: transport.cache,
    /** This client's request budget (DBOPS_RATE_LIMIT, DBOPS_MAX_CONCURRENT_REQUESTS). */
    budget: transport.budget,
    /** Any call; a 204 resolves to undefined. */
    request<T = unknown>(req: ApiRequest, o?: CallOptions): Promise<T> {
      return transport.request<T>(req, o);
    },
    close: () => transport.close(),
    projects: projectsArea(ctx),
    orgs: orgsArea(ctx),
    alertConfigs: alertConfigsArea(ctx),
    alerts: alertsArea(ctx),
    globalAlerts: globalAlertsArea(ctx),
    apiKeys: apiKeysArea(ctx),
    users: usersArea(ctx),
    integrations: integrationsArea(ctx),
    agents: agentsArea(ctx),
    automation: automationArea(ctx),
    maintenanceWindows: maintenanceWindowsArea(ctx),
    hosts: hostsArea(ctx),
    events: eventsArea(ctx),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
