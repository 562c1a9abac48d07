// Builds what every transport needs from the configuration: the API client (or the embedded simulator in
// demo mode), the token signer, the audit log, the secret keeper and the approval page.

import { join } from 'node:path';
import { createApiClient } from '../api/client.js';
import { type ApprovalService, createApprovalService } from '../approval/index.js';
import { type Config, ConfigError, loadPlatforms, type PlatformSpec, settingNames } from '../config/index.js';
import { createIdentity, type Identity, tellsPeopleApart } from '../identity/index.js';
import type { Logger } from '../log.js';
import { cacheReads, consentSteps, platformRequestSeconds, platformRequests } from '../metrics.js';
import { createAuditLog } from '../policy/audit.js';
import { createDecisionPoint } from '../policy/decide.js';
import { createSecretKeeper } from '../policy/secrets.js';
import { createTokenSigner } from '../policy/tokens.js';
import { memoryRecords, type RecordStore, redisRecords } from '../state/approvals.js';
import { fileLedger, type Ledger, redisLedger } from '../state/ledger.js';
import { redisReads } from '../state/reads.js';
import type { RedisState } from '../state/redis.js';
import type { PlatformRuntime, ServerDeps } from './server.js';

export interface Runtime {
  deps: ServerDeps;
  /** Who is asking over HTTP (OAuth, named tokens, one token, or this machine's user on loopback). */
  identity: Identity;
  /** Set with DBOPS_STATE_URL: the shared store (its event bus carries subscription events between replicas). */
  redis?: RedisState;
  /** Set in demo mode: the embedded simulator's base URL. */
  demoBaseUrl?: string;
  /**
   * Set when the approval page is a confirmation channel. Under stdio its dedicated loopback server is
   * already listening; under HTTP pass `routes` to startHttp and call `useOrigin` with the transport's origin.
   */
  approvals?: ApprovalService;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Replaces opening the default browser for each new approval (e.g. `call` prints the link instead). */
  openApproval?: (url: string) => void;
  /** Demo mode: keep the simulator's data in this file between runs (`call --demo`). */
  demoDataFile?: string;
}

export async function createRuntime(
  config: Config,
  logger: Logger,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  // Replicas must accept each other's tokens and sealed consent state: one secret for all, never a random one.
  if (config.stateUrl && !config.tokenSecret)
    throw new ConfigError(
      'DBOPS_STATE_URL is set (replicas share state) but DBOPS_TOKEN_SECRET is not: give every replica the same secret of 16+ characters',
    );
  let closeSim: (() => Promise<void>) | undefined;
  let demoBaseUrl: string | undefined;
  let api: { baseUrl: string; publicKey: string; privateKey: string };
  // Several installations (DBOPS_PLATFORMS): the default one stands where the one platform would.
  if (config.platforms) {
    // One place says where the platform is: a URL or key beside the file would be ignored in silence.
    const beside = (['baseUrl', 'publicKey', 'privateKey', 'demo'] as const).filter((k) => config[k]);
    if (beside.length)
      throw new ConfigError(
        `DBOPS_PLATFORMS names the installations; remove ${beside.map((k) => settingNames[k].env).join(', ')} (each platform's URL and key go in the file)`,
      );
  }
  const several = config.platforms ? loadPlatforms(config.platforms) : undefined;
  const first = several?.platforms.find((p) => p.name === several.default);
  if (first) {
    api = first;
    config = {
      ...config,
      projectId: first.projectId ?? config.projectId,
      orgId: first.orgId ?? config.orgId,
    };
  } else if (config.demo || !config.baseUrl) {
    const { startSimulator } = await import('../simulator/index.js');
    const sim = await startSimulator({
      dataset: 'demo',
      port: 0,
      logger,
      dataFile: options.demoDataFile,
      dialect: config.dialect === 'field' ? 'field' : 'spec',
    });
    closeSim = () => sim.close();
    demoBaseUrl = sim.baseUrl;
    api = { baseUrl: sim.baseUrl, ...sim.keys };
    config = {
      ...config,
      projectId: config.projectId ?? sim.projectIds[0],
      orgId: config.orgId ?? sim.orgId,
    };
    logger.warn(
      'demo mode: DBOPS_BASE_URL is not set, so the embedded simulator with demo data is serving the API',
      {
        baseUrl: sim.baseUrl,
        projectId: config.projectId,
      },
    );
  } else {
    const baseUrl = config.baseUrl;
    if (!config.publicKey || !config.privateKey) {
      // A fresh installation has no key yet, and POST /unauth/users needs none: offer that tool alone.
      const wanted =
        config.tools.length === 0 || config.tools.some((t) => t === 'create_first_user' || t === 'write');
      if (!wanted || config.readOnly || config.disabledTools.includes('create_first_user'))
        throw new ConfigError(
          'DBOPS_PUBLIC_KEY and DBOPS_PRIVATE_KEY are required when DBOPS_BASE_URL is set',
        );
      logger.warn(
        'no API key set (DBOPS_PUBLIC_KEY, DBOPS_PRIVATE_KEY): only create_first_user is offered, as it needs none',
      );
      config = { ...config, tools: ['create_first_user'] };
    }
    api = { baseUrl, publicKey: config.publicKey ?? '', privateKey: config.privateKey ?? '' };
  }
  /** One client per installation: its own budget, cache identity and metrics label. */
  const clientFor = (name: string, p: Partial<PlatformSpec> & typeof api) =>
    createApiClient({
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
      onRead: (result) => cacheReads.inc({ result }),
      onResponse: (method, status, ms) => {
        platformRequests.inc({ platform: name, method, status: String(status) });
        platformRequestSeconds.observe({ platform: name, method }, ms / 1000);
      },
      logger,
    });
  const client = clientFor(several?.default ?? 'default', { ...first, ...api });
  const platforms: PlatformRuntime[] | undefined =
    several && several.platforms.length > 1
      ? several.platforms.map((p) => ({
          name: p.name,
          api: p.name === several.default ? client : clientFor(p.name, p),
          defaults: { projectId: p.projectId, orgId: p.orgId },
          readOnly: p.readOnly,
        }))
      : undefined;
  if (first?.readOnly && !platforms) config = { ...config, readOnly: true };
  const auditLog = createAuditLog(config.auditLog, logger, {
    maxBytes: config.auditMaxBytes,
    keep: config.auditKeep,
  });
  // Every audited step of a guarded call is also counted, by channel and outcome (GET /metrics).
  const audit: typeof auditLog = {
    ...auditLog,
    write: (entry) => {
      consentSteps.inc({ channel: entry.channel ?? 'none', outcome: entry.outcome });
      return auditLog.write(entry);
    },
  };
  // Used tokens and executed approvals outlive this process: single use holds across restarts and processes
  // (the file ledger) or across replicas (Redis, with approval records and caps there too).
  let redis: RedisState | undefined;
  let ledger: Ledger;
  let records: RecordStore;
  if (config.stateUrl) {
    const { connectRedis } = await import('../state/redis.js');
    try {
      redis = await connectRedis(config.stateUrl, logger);
    } catch (e) {
      await client.close();
      await closeSim?.();
      throw new ConfigError(`cannot reach DBOPS_STATE_URL: ${(e as Error).message}`);
    }
    ledger = await redisLedger(redis);
    records = redisRecords(redis);
    client.cache.share(redisReads(redis, logger));
  } else {
    ledger = fileLedger(join(config.stateDir, 'ledger'));
    records = memoryRecords();
  }
  const http = config.transport === 'http';
  // Over stdio the person is this machine's user, whatever tokens are set (they are for HTTP).
  const identity = createIdentity(http ? config : { oauthScopes: [] }, logger);
  const decisions = createDecisionPoint({
    approvers: config.approvers,
    tellsPeopleApart: tellsPeopleApart(identity.mode),
    ...(identity.stillKnown ? { stillKnown: identity.stillKnown } : {}),
  });
  if (decisions.fourEyesOn && !decisions.tellsPeopleApart)
    logger.warn(
      'DBOPS_APPROVERS is set but people are not told apart here (stdio, one shared DBOPS_HTTP_TOKEN, or no sign-in): grants of access, API keys and deletions are refused, since nobody but the asker could approve them',
    );
  const tokens = createTokenSigner(config.tokenSecret, undefined, ledger);
  let approvals: ApprovalService | undefined;
  if (config.confirm !== 'never' && config.confirmVia.includes('approval-page')) {
    if (http && config.approvalOpen) {
      // The HTTP server is not the person's desktop: it must not open browsers or hold calls open.
      logger.warn('DBOPS_APPROVAL_OPEN applies to the stdio transport only; ignored under HTTP');
      config = { ...config, approvalOpen: false };
    }
    approvals = createApprovalService({
      ttlMs: config.approvalTtlMs,
      audit,
      logger,
      port: config.approvalPort,
      open: options.openApproval ?? config.approvalOpen,
      identity,
      key: tokens.derive('approval-page'),
      decisions,
      ledger,
      records,
    });
    if (!http)
      try {
        await approvals.listen();
      } catch (e) {
        await client.close();
        await closeSim?.();
        await redis?.close();
        throw new ConfigError(
          `cannot serve the approval page on 127.0.0.1:${config.approvalPort} (DBOPS_APPROVAL_PORT): ${(e as Error).message}`,
        );
      }
  }
  return {
    identity,
    demoBaseUrl,
    redis,
    approvals,
    deps: {
      config,
      api: client,
      logger,
      tokens,
      audit,
      secrets: createSecretKeeper(config.secretsDir, config.revealSecrets),
      approvals: approvals?.channel,
      decisions,
      ...(platforms ? { platforms: { default: several?.default ?? '', all: platforms } } : {}),
    },
    async close() {
      await approvals?.close();
      await Promise.all((platforms ?? []).filter((p) => p.api !== client).map((p) => p.api.close()));
      await client.close();
      await closeSim?.();
      await redis?.close();
    },
  };
}
