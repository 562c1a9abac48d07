// Builds what every transport needs from the configuration: the API client (or the embedded simulator in
// demo mode), the token signer, the audit log and the secret keeper.
import { createApiClient } from '../api/client.js';
import { type Config, ConfigError } from '../config.js';
import type { Logger } from '../log.js';
import { createAuditLog } from '../policy/audit.js';
import { createSecretKeeper } from '../policy/secrets.js';
import { createTokenSigner } from '../policy/tokens.js';
import type { ServerDeps } from './server.js';

export interface Runtime {
  deps: ServerDeps;
  /** Set in demo mode: the embedded simulator's base URL. */
  demoBaseUrl?: string;
  close(): Promise<void>;
}

export async function createRuntime(config: Config, logger: Logger): Promise<Runtime> {
  let closeSim: (() => Promise<void>) | undefined;
  let demoBaseUrl: string | undefined;
  let api: { baseUrl: string; publicKey: string; privateKey: string };
  if (config.demo || !config.baseUrl) {
    const { startSimulator } = await import('../simulator/index.js');
    const sim = await startSimulator({ dataset: 'demo', port: 0 });
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
    if (!config.publicKey || !config.privateKey)
      throw new ConfigError('DBOPS_PUBLIC_KEY and DBOPS_PRIVATE_KEY are required when DBOPS_BASE_URL is set');
    api = { baseUrl: config.baseUrl, publicKey: config.publicKey, privateKey: config.privateKey };
  }
  const client = createApiClient({
    ...api,
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
    caFile: config.caFile,
    tlsInsecure: config.tlsInsecure,
    logger,
  });
  return {
    demoBaseUrl,
    deps: {
      config,
      api: client,
      logger,
      tokens: createTokenSigner(config.tokenSecret),
      audit: createAuditLog(config.auditLog, logger),
      secrets: createSecretKeeper(config.secretsDir, config.revealSecrets),
    },
    async close() {
      await client.close();
      await closeSim?.();
    },
  };
}
