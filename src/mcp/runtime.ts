// Builds what every transport needs from the configuration, in parts: where the platform is (one URL, the
// installations of DBOPS_PLATFORMS, or the embedded simulator in demo mode) and its API clients; the state
// (file ledger, or Redis); who is asking (identity) and who decides; the token signer, the audit log, the
// secret keeper and the approval page. What a configuration does not use is not loaded: the simulator, Redis
// and the approval page are imported when needed.

import { join } from 'node:path';
import { type ApiClient, createApiClient } from '../api/client.js';
import type { ApprovalService } from '../approval/index.js';
import { type Config, ConfigError, loadPlatforms, type PlatformSpec, settingNames } from '../config/index.js';
import { createIdentity, type Identity, tellsPeopleApart } from '../identity/index.js';
import type { Logger } from '../log.js';
import { consentSteps, platformCounters } from '../metrics.js';
import { type AuditLog, createAuditLog } from '../policy/audit.js';
import type { ApprovalChannel } from '../policy/channels/types.js';
import { createDecisionPoint, type DecisionPoint } from '../policy/decide.js';
import { createSecretKeeper } from '../policy/secrets.js';
import { createSigner, type Signer } from '../policy/signer.js';
import { memoryRecords, type RecordStore, redisRecords } from '../state/approvals.js';
import { fileInstallation, redisInstallation } from '../state/installation.js';
import { fileLedger, type Ledger, redisLedger } from '../state/ledger.js';
import { redisReads } from '../state/reads.js';
import type { RedisState } from '../state/redis.js';
import type { PlatformRuntime, ServerDeps } from './deps.js';

export interface Runtime {
  deps: ServerDeps;
  /** Who is asking over HTTP (OAuth, named tokens, one token, or this machine's user on loopback). */
  identity: Identity;
  /** Set with DBOPS_STATE_URL: the shared store (its event bus carries subscription events between replicas). */
  redis?: RedisState;
  /** Set in demo mode: the embedded simulator's base URL. */
  demoBaseUrl?: string;
  /** Demo mode: draws the demo world now rather than at the first request to it (on-demand.ts). */
  warm(): void;
  /**
   * Set under HTTP when the approval page is a confirmation channel: pass `routes` to startHttp and call
   * `useOrigin` with the transport's origin. (Under stdio it loads on first use, behind `deps.approvals`.)
   */
  approvals?: ApprovalService;
  close(): Promise<void>;
}

interface RuntimeOptions {
  /** Replaces opening the default browser for each new approval (e.g. `call` prints the link instead). */
  openApproval?: (url: string) => void;
  /** Demo mode: keep the simulator's data in this file between runs (`call --demo`). */
  demoDataFile?: string;
}

type Where = { baseUrl: string; publicKey: string; privateKey: string };

/** Where the platform is, the settings as it leaves them, and what to stop at the end (the simulator). */
interface Platform {
  config: Config;
  api: Where;
  /** DBOPS_PLATFORMS: every installation, and the default one (which stands where the one platform would). */
  several?: ReturnType<typeof loadPlatforms>;
  first?: PlatformSpec;
  demoBaseUrl?: string;
  warm?: () => void;
  closeSim?: () => Promise<void>;
}

/** Settings that contradict each other, refused before anything starts. */
function checkSettings(config: Config): void {
  // Replicas must accept each other's tokens and sealed consent state: one secret for all, never a random one.
  if (config.stateUrl && !config.tokenSecret)
    throw new ConfigError(
      'DBOPS_STATE_URL is set (replicas share state) but DBOPS_TOKEN_SECRET is not: give every replica the same secret of 16+ characters',
    );
  if (config.platforms) {
    // One place says where the platform is: a URL or key beside the file would be ignored in silence.
    const beside = (['baseUrl', 'publicKey', 'privateKey', 'demo'] as const).filter((k) => config[k]);
    if (beside.length)
      throw new ConfigError(
        `DBOPS_PLATFORMS names the installations; remove ${beside.map((k) => settingNames[k].env).join(', ')} (each platform's URL and key go in the file)`,
      );
  }
}

/**
 * Demo mode: the embedded simulator with demo data serves the API (loaded only here). Its world is drawn when
 * first asked (on-demand.ts), so start-up (and the client's `initialize`) does not wait for it; with a data
 * file (`call --demo`) the world is loaded from it at once.
 */
async function startDemo(config: Config, logger: Logger, options: RuntimeOptions): Promise<Platform> {
  const dialect = config.dialect === 'field' ? 'field' : 'spec';
  let sim: { api: Where; orgId: string; projectId?: string; warm?: () => void; close(): Promise<void> };
  if (options.demoDataFile === undefined) {
    const { startSimulatorOnDemand } = await import('../simulator/on-demand.js');
    const s = await startSimulatorOnDemand({ logger, dialect });
    sim = { ...s, api: { baseUrl: s.baseUrl, ...s.keys } };
  } else {
    const { startSimulator } = await import('../simulator/index.js');
    const s = await startSimulator({
      dataset: 'demo',
      port: 0,
      logger,
      dataFile: options.demoDataFile,
      dialect,
    });
    sim = { ...s, api: { baseUrl: s.baseUrl, ...s.keys }, projectId: s.projectIds[0] };
  }
  const demo = { ...config, projectId: config.projectId ?? sim.projectId, orgId: config.orgId ?? sim.orgId };
  logger.warn(
    'demo mode: DBOPS_BASE_URL is not set, so the embedded simulator with demo data is serving the API',
    {
      baseUrl: sim.api.baseUrl,
      projectId: demo.projectId,
    },
  );
  return {
    config: demo,
    api: sim.api,
    demoBaseUrl: sim.api.baseUrl,
    warm: sim.warm,
    closeSim: () => sim.close(),
  };
}

/** DBOPS_BASE_URL with its key; without a key, only create_first_user (which needs none) is offered. */
function realPlatform(config: Config, logger: Logger): Platform {
  const baseUrl = config.baseUrl ?? '';
  if (!config.publicKey || !config.privateKey) {
    // A fresh installation has no key yet, and POST /unauth/users needs none: offer that tool alone.
    const wanted =
      config.tools.length === 0 || config.tools.some((t) => t === 'create_first_user' || t === 'write');
    if (!wanted || config.readOnly || config.disabledTools.includes('create_first_user'))
      throw new ConfigError('DBOPS_PUBLIC_KEY and DBOPS_PRIVATE_KEY are required when DBOPS_BASE_URL is set');
    logger.warn(
      'no API key set (DBOPS_PUBLIC_KEY, DBOPS_PRIVATE_KEY): only create_first_user is offered, as it needs none',
    );
    config = { ...config, tools: ['create_first_user'] };
  }
  return {
    config,
    api: { baseUrl, publicKey: config.publicKey ?? '', privateKey: config.privateKey ?? '' },
  };
}

/** DBOPS_PLATFORMS (its default installation stands where the one platform would), demo mode, or one URL. */
async function locatePlatform(config: Config, logger: Logger, options: RuntimeOptions): Promise<Platform> {
  const several = config.platforms ? loadPlatforms(config.platforms) : undefined;
  const first = several?.platforms.find((p) => p.name === several.default);
  if (first)
    return {
      config: {
        ...config,
        projectId: first.projectId ?? config.projectId,
        orgId: first.orgId ?? config.orgId,
      },
      api: first,
      several,
      first,
    };
  const one =
    config.demo || !config.baseUrl ? await startDemo(config, logger, options) : realPlatform(config, logger);
  return several ? { ...one, several } : one;
}

/** One client per installation: its own budget, cache identity and metrics label. */
function clientFor(
  config: Config,
  logger: Logger,
  name: string,
  p: Partial<PlatformSpec> & Where,
): ApiClient {
  return createApiClient({
    baseUrl: p.baseUrl,
    publicKey: p.publicKey,
    privateKey: p.privateKey,
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
    cacheTtlMs: config.cacheTtlMs,
    rateLimit: p.rateLimit ?? config.rateLimit,
    maxConcurrent: p.maxConcurrentRequests ?? config.maxConcurrentRequests,
    caFile: p.caFile ?? config.caFile,
    tlsInsecure: p.tlsInsecure ?? config.tlsInsecure,
    dialect: p.dialect ?? config.dialect,
    ...platformCounters(name),
    logger,
  });
}

/** With more than one installation in DBOPS_PLATFORMS: each with its client, defaults and rights. */
function installations(platform: Platform, client: ApiClient, logger: Logger): PlatformRuntime[] | undefined {
  const { several, config } = platform;
  if (!several || several.platforms.length <= 1) return undefined;
  return several.platforms.map((p) => ({
    name: p.name,
    api: p.name === several.default ? client : clientFor(config, logger, p.name, p),
    defaults: { projectId: p.projectId, orgId: p.orgId },
    readOnly: p.readOnly,
  }));
}

/** The audit log; every audited step of a guarded call is also counted, by channel and outcome (GET /metrics). */
function countedAudit(config: Config, logger: Logger): AuditLog {
  const auditLog = createAuditLog(config.auditLog, logger, {
    maxBytes: config.auditMaxBytes,
    keep: config.auditKeep,
  });
  return {
    ...auditLog,
    write: (entry) => {
      consentSteps.inc({ channel: entry.channel ?? 'none', outcome: entry.outcome });
      return auditLog.write(entry);
    },
  };
}

interface State {
  redis?: RedisState;
  ledger: Ledger;
  records: RecordStore;
  /** The installation's id, created once in the store: proofs are bound to it. */
  installation: string;
}

/**
 * Used tokens and executed approvals outlive this process: single use holds across restarts and processes
 * (the file ledger) or across replicas (Redis, with approval records and caps there too, and the read cache
 * shared).
 */
async function openState(config: Config, logger: Logger, client: ApiClient): Promise<State> {
  if (!config.stateUrl)
    return {
      ledger: fileLedger(join(config.stateDir, 'ledger')),
      records: memoryRecords(),
      installation: await fileInstallation(config.stateDir),
    };
  const { connectRedis } = await import('../state/redis.js');
  let redis: RedisState;
  try {
    redis = await connectRedis(config.stateUrl, logger);
  } catch (e) {
    throw new ConfigError(`cannot reach DBOPS_STATE_URL: ${(e as Error).message}`);
  }
  const ledger = await redisLedger(redis);
  client.cache.share(redisReads(redis, logger));
  return { redis, ledger, records: redisRecords(redis), installation: await redisInstallation(redis) };
}

/** Who is asking (over stdio this machine's user, whatever tokens are set: they are for HTTP) and who decides. */
function whoDecides(config: Config, logger: Logger): { identity: Identity; decisions: DecisionPoint } {
  const identity = createIdentity(config.transport === 'http' ? config : { oauthScopes: [] }, logger);
  const decisions = createDecisionPoint({
    approvers: config.approvers,
    fourEyes: { fourEyes: config.fourEyes, longWindowHours: config.longWindowHours },
    tellsPeopleApart: tellsPeopleApart(identity.mode),
    ...(identity.stillKnown ? { stillKnown: identity.stillKnown } : {}),
  });
  if (decisions.fourEyesOn && !decisions.tellsPeopleApart)
    logger.warn(
      'DBOPS_APPROVERS is set but people are not told apart here (stdio, one shared DBOPS_HTTP_TOKEN, or no sign-in): the changes of DBOPS_FOUR_EYES are refused, since nobody but the asker could approve them',
    );
  return { identity, decisions };
}

interface ApprovalParts {
  audit: AuditLog;
  identity: Identity;
  decisions: DecisionPoint;
  signer: Signer;
  state: State;
}

/**
 * The approval page, when it is a confirmation channel (loaded only then). Under HTTP the transport serves its
 * routes, so it is built now; under stdio it loads, and its loopback server listens, when a change first asks
 * (`channel`): most sessions never ask, and every start-up would pay for it. Returns the settings as it leaves them.
 */
async function approvalPage(
  config: Config,
  logger: Logger,
  options: RuntimeOptions,
  parts: ApprovalParts,
): Promise<{
  config: Config;
  approvals?: ApprovalService;
  channel?: ApprovalChannel;
  close?: () => Promise<void>;
}> {
  if (config.confirm === 'never' || !config.confirmVia.includes('approval-page')) return { config };
  if (config.transport !== 'http')
    return { config, ...onFirstUse(() => loadApprovalPage(config, logger, options, parts)) };
  if (config.approvalOpen) {
    // The HTTP server is not the person's desktop: it must not open browsers or hold calls open.
    logger.warn('DBOPS_APPROVAL_OPEN applies to the stdio transport only; ignored under HTTP');
    config = { ...config, approvalOpen: false };
  }
  const approvals = await loadApprovalPage(config, logger, options, parts);
  return { config, approvals, channel: approvals.channel, close: () => approvals.close() };
}

async function loadApprovalPage(
  config: Config,
  logger: Logger,
  options: RuntimeOptions,
  parts: ApprovalParts,
): Promise<ApprovalService> {
  const { createApprovalService } = await import('../approval/index.js');
  const approvals = createApprovalService({
    ttlMs: config.approvalTtlMs,
    audit: parts.audit,
    logger,
    port: config.approvalPort,
    open: options.openApproval ?? config.approvalOpen,
    identity: parts.identity,
    key: parts.signer.derive('approval-page'),
    decisions: parts.decisions,
    ledger: parts.state.ledger,
    records: parts.state.records,
  });
  if (config.transport !== 'http')
    try {
      await approvals.listen();
    } catch (e) {
      approvals.channel.close();
      throw new ConfigError(
        `cannot serve the approval page on 127.0.0.1:${config.approvalPort} (DBOPS_APPROVAL_PORT): ${(e as Error).message}`,
      );
    }
  return approvals;
}

/** A channel that loads the approval page when first used (and again after a failed load, e.g. a busy port). */
function onFirstUse(load: () => Promise<ApprovalService>): {
  channel: ApprovalChannel;
  close: () => Promise<void>;
} {
  let loading: Promise<ApprovalService> | undefined;
  let loaded: ApprovalService | undefined;
  const page = async () => {
    loading ??= load().then(
      (s) => (loaded = s),
      (e) => {
        loading = undefined;
        throw e;
      },
    );
    return (await loading).channel;
  };
  const channel: ApprovalChannel = {
    create: async (req) => (await page()).create(req),
    take: async (...a) => (await page()).take(...a),
    wait: async (...a) => {
      const c = await page();
      return c.wait ? c.wait(...a) : 'pending';
    },
    open: (url) => loaded?.channel.open?.(url),
  };
  return { channel, close: async () => (await loading?.catch(() => undefined))?.close() };
}

/** Runs `step`; when it throws, closes what was opened before it (in that order) and throws on. */
async function orClose<T>(
  step: () => Promise<T>,
  opened: Array<(() => Promise<unknown>) | undefined>,
): Promise<T> {
  try {
    return await step();
  } catch (e) {
    for (const close of opened) await close?.();
    throw e;
  }
}

export async function createRuntime(
  config: Config,
  logger: Logger,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  checkSettings(config);
  const platform = await locatePlatform(config, logger, options);
  config = platform.config;
  const client = clientFor(config, logger, platform.several?.default ?? 'default', {
    ...platform.first,
    ...platform.api,
  });
  const platforms = installations(platform, client, logger);
  if (platform.first?.readOnly && !platforms) config = { ...config, readOnly: true };
  const audit = countedAudit(config, logger);
  const state = await orClose(
    () => openState(config, logger, client),
    [() => client.close(), platform.closeSim],
  );
  const { identity, decisions } = whoDecides(config, logger);
  const signer = createSigner(config.tokenSecret, undefined, state.ledger, state.installation);
  const page = await orClose(
    () => approvalPage(config, logger, options, { audit, identity, decisions, signer, state }),
    [() => client.close(), platform.closeSim, state.redis && (() => (state.redis as RedisState).close())],
  );
  config = page.config;
  const { approvals } = page;
  return {
    identity,
    demoBaseUrl: platform.demoBaseUrl,
    warm: () => platform.warm?.(),
    redis: state.redis,
    approvals,
    deps: {
      config,
      api: client,
      logger,
      signer,
      audit,
      secrets: createSecretKeeper(config.secretsDir, config.revealSecrets),
      approvals: page.channel,
      decisions,
      ...(platforms ? { platforms: { default: platform.several?.default ?? '', all: platforms } } : {}),
    },
    async close() {
      await page.close?.();
      await Promise.all((platforms ?? []).filter((p) => p.api !== client).map((p) => p.api.close()));
      await client.close();
      await platform.closeSim?.();
      await state.redis?.close();
    },
  };
}
