// The approval page as one service: the store (the guard's ApprovalChannel), its routes, and where they are
// served — the HTTP transport's own port (useOrigin) or the dedicated loopback server (listen).
import type { Logger } from '../log.js';
import type { AuditLog } from '../policy/audit.js';
import type { RecordStore } from '../state/approvals.js';
import type { Ledger } from '../state/ledger.js';
import { openInBrowser } from './open.js';
import { createApprovalRoutes, type Routes } from './routes.js';
import { type RunningApprovalServer, startApprovalServer } from './server.js';
import { type ApprovalStore, createApprovalStore } from './store.js';

export interface ApprovalServiceOptions {
  ttlMs: number;
  audit: AuditLog;
  logger: Logger;
  /** Dedicated server's port (0 = ephemeral). */
  port?: number;
  /** Opens each new approval in the person's browser: true = the default browser, or a function. */
  open?: boolean | ((url: string) => void);
  /** The HTTP bearer token, when the pages are reachable beyond loopback. */
  token?: string;
  now?: () => Date;
  tickMs?: number;
  /** Where executions are claimed once (the runtime's state store). */
  ledger?: Ledger;
  /** Where approval records live (the runtime's state store); in this process when absent. */
  records?: RecordStore;
}

export interface ApprovalService {
  channel: ApprovalStore;
  routes: Routes;
  /** Serve through another server (the HTTP transport) at this origin. */
  useOrigin(origin: string): void;
  /** Start the dedicated loopback server; resolves with its origin. */
  listen(): Promise<string>;
  origin(): string | undefined;
  close(): Promise<void>;
}

export function createApprovalService(opts: ApprovalServiceOptions): ApprovalService {
  let origin: string | undefined;
  let server: RunningApprovalServer | undefined;
  const open =
    typeof opts.open === 'function'
      ? opts.open
      : opts.open
        ? (url: string) => openInBrowser(url, opts.logger)
        : undefined;
  const channel = createApprovalStore({
    ttlMs: opts.ttlMs,
    audit: opts.audit,
    logger: opts.logger,
    origin: () => origin,
    now: opts.now,
    open,
    tickMs: opts.tickMs,
    ledger: opts.ledger,
    records: opts.records,
  });
  const routes = createApprovalRoutes({ store: channel, token: opts.token, logger: opts.logger });
  return {
    channel,
    routes,
    useOrigin(o) {
      origin = o.replace(/\/$/, '');
    },
    async listen() {
      server ??= await startApprovalServer({ port: opts.port ?? 0, routes, logger: opts.logger });
      origin = server.origin;
      opts.logger.info('approval page listening', { url: `${origin}/approvals` });
      return origin;
    },
    origin: () => origin,
    async close() {
      channel.close();
      await server?.close();
      server = undefined;
    },
  };
}
