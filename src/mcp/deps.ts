// What a server is built from (the runtime's parts, or a test's): one MCP server per stdio connection or
// HTTP session takes these, plus whom it answers and what that client asked to see.
import type { McpServer } from '@modelcontextprotocol/server';
import type { ApiClient } from '../api/client.js';
import type { Config } from '../config/index.js';
import type { Person } from '../identity/index.js';
import type { Logger } from '../log.js';
import type { AuditLog } from '../policy/audit.js';
import type { DecisionPoint } from '../policy/decide.js';
import type { ApprovalChannel } from '../policy/guard.js';
import type { createSecretKeeper } from '../policy/secrets.js';
import type { Signer } from '../policy/signer.js';
import type { Toolsets } from '../policy/toolsets.js';
import type { AnyTool } from '../tool/index.js';

export interface ServerDeps {
  config: Config;
  api: ApiClient;
  logger: Logger;
  signer: Signer;
  audit: AuditLog;
  secrets: ReturnType<typeof createSecretKeeper>;
  approvals?: ApprovalChannel;
  /** Who may decide what (four eyes, revocation): the runtime's one decision point. */
  decisions?: DecisionPoint;
  catalog?: AnyTool[];
  now?: () => Date;
  /** Further registrations on each new server (resources, prompts, completions). */
  extensions?: Array<(server: McpServer, deps: ServerDeps) => void>;
  /** Whom this server answers (HTTP: from their token); the OS user when absent (stdio, in-process). */
  person?: Person;
  /** How the audit names consent by elicitation on this server (`--yes` for `dbops-mcp call --yes`). */
  elicitationChannel?: string;
  /** Several installations (DBOPS_PLATFORMS): every tool then takes `platform`. */
  platforms?: { default: string; all: PlatformRuntime[] };
  /** The toolsets (tools/toolsets.ts) when not the catalog's. */
  toolsets?: Toolsets;
  /** What this client asked to see (HTTP): its X-MCP-Toolsets header, and whether it has a session. */
  client?: ClientToolsets;
}

/** One client's toolsets beyond DBOPS_TOOLSETS. */
export interface ClientToolsets {
  /** The X-MCP-Toolsets header's names (checked by the transport: unknown names are refused). */
  header?: string[];
  /**
   * A server for one request (2026-07-28 over HTTP, 2025 outside a session): nothing it enables would outlive
   * the request, and nothing is kept for the next, so enable_toolset says how to get a set instead.
   */
  sessionless?: boolean;
}

/** One installation the server serves: its own client (budget, cache), default project and rights. */
export interface PlatformRuntime {
  name: string;
  api: ApiClient;
  defaults: { projectId?: string; orgId?: string };
  readOnly: boolean;
}
