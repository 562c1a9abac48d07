// The approval page as one service: the store (the guard's ApprovalChannel), its routes, and where they are
// served — the HTTP transport's own port (useOrigin) or the dedicated loopback server (listen).
import { randomBytes } from 'node:crypto';
import { type Identity, tellsPeopleApart } from '../identity/index.js';
import type { Logger } from '../log.js';
import type { AuditLog } from '../policy/audit.js';
import { createDecisionPoint, type DecisionPoint, type FourEyesSettings } from '../policy/decide.js';
import type { RecordStore } from '../state/approvals.js';
import type { Ledger } from '../state/ledger.js';
import { openInBrowser } from './open.js';
import { createApprovalRoutes, type Routes, signedLink } from './routes.js';
import { type RunningApprovalServer, startApprovalServer } from './server.js';
import { type ApprovalStore, createApprovalStore } from './store.js';

interface ApprovalServiceOptions {
  ttlMs: number;
  audit: AuditLog;
  logger: Logger;
  /** Dedicated server's port (0 = ephemeral). */
  port?: number;
  /** Opens each new approval in the person's browser: true = the default browser, or a function. */
  open?: boolean | ((url: string) => void);
  /** Who may look (HTTP with tokens or OAuth); this machine's user alone when absent. */
  identity?: Identity;
  /** Seals sign-in cookies and signed links; replicas must derive the same (from DBOPS_TOKEN_SECRET). */
  key?: Uint8Array;
  /** Who may decide what; built from `approvers` and `identity` when absent. */
  decisions?: DecisionPoint;
  /** DBOPS_APPROVERS, DBOPS_FOUR_EYES and DBOPS_LONG_WINDOW_HOURS (when no decision point is given). */
  approvers?: string[];
  fourEyes?: FourEyesSettings;
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
  const key = opts.key ?? randomBytes(32);
  const people = opts.identity !== undefined && opts.identity.mode !== 'none';
  const decisions =
    opts.decisions ??
    createDecisionPoint({
      approvers: opts.approvers ?? [],
      ...(opts.fourEyes ? { fourEyes: opts.fourEyes } : {}),
      tellsPeopleApart: opts.identity !== undefined && tellsPeopleApart(opts.identity.mode),
      ...(opts.identity?.stillKnown ? { stillKnown: opts.identity.stillKnown } : {}),
    });
  const channel = createApprovalStore({
    decisions,
    ...(people ? { linkFor: (id: string, person: string) => signedLink(key, id, person) } : {}),
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
  const routes = createApprovalRoutes({
    store: channel,
    identity: opts.identity,
    key,
    logger: opts.logger,
  });
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
