// Drives the real server through the SDK client over an in-memory transport, with the real API client
// talking digest over loopback to the simulator. Transport-specific tests (stdio, HTTP) live in test/e2e.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { type Config, configSchema } from '../../src/config/index.js';
import { createIdentity } from '../../src/identity/index.js';
import { createLogger, type LogLevel } from '../../src/log.js';
import { type HttpOptions, startHttp } from '../../src/mcp/http/index.js';
import { createMcpServer, type ServerDeps } from '../../src/mcp/server.js';
import { createAuditLog } from '../../src/policy/audit.js';
import type { ApprovalChannel } from '../../src/policy/guard.js';
import { createSecretKeeper } from '../../src/policy/secrets.js';
import { createSigner, type Signer } from '../../src/policy/signer.js';
import { startSimulator } from '../../src/simulator/index.js';

type Sim = Awaited<ReturnType<typeof startSimulator>>;

export interface TestServerOptions {
  config?: Partial<Record<keyof Config, unknown>>;
  /** Answers elicitation requests; when set, the client declares the elicitation capability. */
  elicit?: (req: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
  sim?: Sim;
  approvals?: ApprovalChannel;
  extensions?: ServerDeps['extensions'];
  now?: () => Date;
  signer?: Signer;
  /** More client capabilities (e.g. the MCP Apps extension a host with views declares). */
  capabilities?: Record<string, unknown>;
  /** The API client's own settings (a rate limit, a read cache): config alone does not reach the client here. */
  apiOptions?: Partial<Parameters<typeof createApiClient>[0]>;
}

export interface CallResult {
  text: string;
  isError: boolean;
  structured: Record<string, unknown> | undefined;
}

export async function startTestServer(opts: TestServerOptions = {}) {
  const ownSim = !opts.sim;
  const sim = opts.sim ?? (await startSimulator({ dataset: 'demo', port: 0 }));
  const dir = mkdtempSync(join(tmpdir(), 'dbops-mcp-test-'));
  const config = configSchema.parse({
    baseUrl: sim.baseUrl,
    publicKey: sim.keys.publicKey,
    privateKey: sim.keys.privateKey,
    projectId: sim.projectIds[0],
    orgId: sim.orgId,
    auditLog: join(dir, 'audit.log'),
    secretsDir: join(dir, 'secrets'),
    ...opts.config,
  });
  const logLines: string[] = [];
  const logger = createLogger('debug' as LogLevel, (l) => logLines.push(l));
  const api = createApiClient({
    baseUrl: sim.baseUrl,
    publicKey: config.publicKey!,
    privateKey: config.privateKey!,
    logger,
    maxRetries: 1,
    dialect: config.dialect,
    ...opts.apiOptions,
  });
  const deps: ServerDeps = {
    config,
    api,
    logger,
    signer: opts.signer ?? createSigner(config.tokenSecret),
    audit: createAuditLog(config.auditLog, logger),
    secrets: createSecretKeeper(config.secretsDir, config.revealSecrets),
    approvals: opts.approvals,
    extensions: opts.extensions,
    now: opts.now,
  };
  const server = createMcpServer(deps);
  const client = new Client(
    { name: 'test-client', version: '1.0.0' },
    { capabilities: { ...(opts.elicit ? { elicitation: { form: {} } } : {}), ...opts.capabilities } },
  );
  const elicitations: ElicitRequest[] = [];
  if (opts.elicit) {
    const answer = opts.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      elicitations.push(req);
      return answer(req);
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);

  async function call(name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
    const r = await client.callTool({ name, arguments: args });
    const content = r.content as Array<{ type: string; text?: string }>;
    return {
      text: content.map((c) => c.text ?? '').join('\n'),
      isError: r.isError === true,
      structured: r.structuredContent as Record<string, unknown> | undefined,
    };
  }

  return {
    client,
    server,
    sim,
    config,
    deps,
    dir,
    logLines,
    elicitations,
    call,
    async close() {
      await client.close().catch(() => {});
      await server.close().catch(() => {});
      await api.close();
      if (ownSim) await sim.close();
    },
  };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** For a whole test file: a demo simulator and a test server on it, started before its tests, closed after. */
export function withDemoServer(use: (sim: Sim, t: TestServer) => void, opts: TestServerOptions = {}): void {
  let sim: Sim | undefined;
  let t: TestServer | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ dataset: 'demo', port: 0 });
    t = await startTestServer({ ...opts, sim });
    use(sim, t);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });
}

/**
 * The Streamable HTTP transport on an ephemeral loopback port, one server per session (and person) built
 * from deps. `token` is the one DBOPS_HTTP_TOKEN; `identity` any other way of knowing people.
 */
export function startTestHttp(deps: ServerDeps, overrides: Partial<HttpOptions> & { token?: string } = {}) {
  const { token, ...rest } = overrides;
  return startHttp({
    host: '127.0.0.1',
    port: 0,
    allowedOrigins: [],
    sessionIdleMs: 60_000,
    logger: deps.logger,
    identity: createIdentity({ oauthScopes: [], ...(token ? { httpToken: token } : {}) }, deps.logger),
    newServer: (person, client) => createMcpServer({ ...deps, person, ...(client ? { client } : {}) }),
    ...rest,
  });
}
