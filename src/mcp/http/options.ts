// What every part of the HTTP transport is given: its options, its bounds, and the JSON answers it sends.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer, ServerEventBus } from '@modelcontextprotocol/server';
import type { Identity, Person } from '../../identity/index.js';
import type { Logger } from '../../log.js';
import type { SessionDirectory } from '../../state/sessions.js';
import type { ClientToolsets } from '../server.js';

export const MAX_BODY = 1 << 20;

export interface HttpOptions {
  host: string;
  port: number;
  /** Who is asking (OAuth, named tokens, one token, or the OS user on loopback). */
  identity: Identity;
  allowedOrigins: string[];
  sessionIdleMs: number;
  /** Sessions held at once (DBOPS_HTTP_MAX_SESSIONS). */
  maxSessions?: number;
  /** Sessions one person may hold at once (DBOPS_HTTP_MAX_SESSIONS_PER_PERSON). */
  maxSessionsPerPerson?: number;
  logger: Logger;
  /**
   * A server for this person (a person without the write scope gets the read-only catalog) and this client
   * (its X-MCP-Toolsets header, and whether the server answers one request only).
   */
  newServer: (person: Person, client?: ClientToolsets) => McpServer;
  /** Carries subscription events to the 2026-07-28 listen streams (shared by replicas); in process when absent. */
  bus?: ServerEventBus;
  /** A 2026-07-28 client opened a listen stream for these resource URIs; `closed` registers the clean-up. */
  onListen?: (
    uris: string[],
    closed: (stop: () => void) => void,
    who: { person: string; header?: string[] },
  ) => void;
  /** The origin people's browsers reach the server at (DBOPS_PUBLIC_URL, e.g. a load balancer). */
  publicUrl?: string;
  /** Where replicas record which of them holds a 2025 session (requests for it are passed on there). */
  directory?: SessionDirectory;
  /** Replicas sign what they record in the directory and the requests they pass on with this shared key. */
  forwardKey?: Uint8Array;
  /** GET /readyz: each dependency (platform, state store) and whether it answers now. */
  ready?: () => Promise<Record<string, { ok: boolean; detail?: string }>>;
  /** Other pages served on the same port (the approval page); return true when handled. */
  routes?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean;
}

/** The transport's parts, built once at start and handed to each request's handlers. */
export function rpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
