// The approval page's memory: one record per guarded call waiting for a person. Each approval is bound to
// the tool and its canonical arguments (argsHash), decided once, executed at most once, and expires. The
// person's decision is written to the audit log when it happens (confirmed / declined / expired), so a
// decision the assistant never comes back for is still on record.
import { randomBytes } from 'node:crypto';
import { type Preview, redactPreview } from '../format/consent.js';
import { redact } from '../format/redact.js';
import { type Logger, silentLogger } from '../log.js';
import type { AuditLog } from '../policy/audit.js';
import type { ApprovalChannel, ApprovalState, PendingApproval } from '../policy/guard.js';
import { sameSecret } from '../policy/tokens.js';
import { type Ledger, memoryLedger } from '../state/ledger.js';
import { ToolInputError } from '../tool/index.js';

export type RecordState = 'pending' | 'approved' | 'declined' | 'expired' | 'used';

export interface Approval {
  id: string;
  /** Per-approval form secret: only a page served to the person's browser knows it (cross-site guard). */
  secret: string;
  tool: string;
  title: string;
  hash: string;
  /** The MCP session that asked, when known (pending approvals are capped per owner). */
  owner?: string;
  /** Redacted arguments and preview: the store never holds a secret the page could show. */
  args: Record<string, unknown>;
  preview: Preview;
  createdAt: Date;
  expiresAt: Date;
  state: RecordState;
  decidedAt?: Date;
}

export type DecideResult = RecordState | 'unknown' | 'forbidden';

export interface ApprovalStore extends ApprovalChannel {
  get(id: string): Approval | undefined;
  /** Pending approvals, oldest first. */
  pending(): Approval[];
  /** The person's click: needs the approval's form secret; only a pending approval can be decided. */
  decide(id: string, decision: 'approve' | 'decline', secret: string): Promise<DecideResult>;
  now(): Date;
  close(): void;
}

export interface ApprovalStoreOptions {
  ttlMs: number;
  audit: AuditLog;
  /** The origin the pages are served on; known once the server listens. */
  origin: () => string | undefined;
  logger?: Logger;
  now?: () => Date;
  /** Opens a page in the person's browser (desktop use); absent when the server must not open one. */
  open?: (url: string) => void;
  /** How often wait() reports progress. */
  tickMs?: number;
  /** Where executions are claimed once (shared with the token signer); in memory when absent. */
  ledger?: Ledger;
  /** Pending approvals one session may hold at once. */
  maxPendingPerOwner?: number;
}

/** Decided and expired records stay this long so a late resume gets a precise answer, then they go. */
const KEEP_MS = 60 * 60_000;
const MAX_PENDING = 200;
const MAX_PENDING_PER_OWNER = 20;

export function newId(): string {
  return randomBytes(18).toString('base64url');
}

export function createApprovalStore(opts: ApprovalStoreOptions): ApprovalStore {
  const now = opts.now ?? (() => new Date());
  const logger = opts.logger ?? silentLogger;
  const tickMs = opts.tickMs ?? 5_000;
  const ledger = opts.ledger ?? memoryLedger();
  const perOwner = opts.maxPendingPerOwner ?? MAX_PENDING_PER_OWNER;
  const records = new Map<string, Approval>();
  const timers = new Map<string, NodeJS.Timeout>();
  const waiters = new Map<string, Set<() => void>>();

  const audit = (a: Approval, outcome: 'confirmed' | 'declined' | 'expired') =>
    opts.audit.write({ tool: a.tool, args: a.args, outcome, channel: 'approval-page', approvalId: a.id });

  function settle(a: Approval) {
    const t = timers.get(a.id);
    if (t) clearTimeout(t);
    timers.delete(a.id);
    for (const w of waiters.get(a.id) ?? []) w();
    waiters.delete(a.id);
  }

  /** Lazily applies expiry: an approval not yet executed is void after expiresAt, approved or not. */
  // Expiry audits still being written: a later answer about the same approval waits for its entry, so the
  // audit log reads in the order things happened.
  const expiring = new Map<string, Promise<void>>();

  function fresh(id: string): Approval | undefined {
    const a = records.get(id);
    if (a && (a.state === 'pending' || a.state === 'approved') && now() >= a.expiresAt) {
      a.state = 'expired';
      const written = audit(a, 'expired').finally(() => expiring.delete(id));
      expiring.set(id, written);
      settle(a);
    }
    return a;
  }

  function prune() {
    const cutoff = now().getTime() - KEEP_MS;
    for (const [id, a] of records) {
      fresh(id);
      if (a.state !== 'pending' && a.state !== 'approved' && a.expiresAt.getTime() < cutoff)
        records.delete(id);
    }
  }

  const store: ApprovalStore = {
    now,

    async create(req): Promise<PendingApproval> {
      const origin = opts.origin();
      if (!origin) throw new Error('the approval page is not being served yet');
      prune();
      const pending = store.pending();
      const ask = `ask the person to decide on ${origin}/approvals first (or let them expire).`;
      if (req.owner && pending.filter((a) => a.owner === req.owner).length >= perOwner)
        throw new ToolInputError(`${perOwner} approvals from this session are already waiting; ${ask}`);
      if (pending.length >= MAX_PENDING)
        throw new ToolInputError(`${MAX_PENDING} approvals are already waiting; ${ask}`);
      const createdAt = now();
      const a: Approval = {
        id: newId(),
        secret: newId(),
        tool: req.tool,
        title: req.title,
        hash: req.hash,
        ...(req.owner ? { owner: req.owner } : {}),
        args: redact(req.args),
        preview: redactPreview(req.preview),
        createdAt,
        expiresAt: new Date(createdAt.getTime() + opts.ttlMs),
        state: 'pending',
      };
      records.set(a.id, a);
      const timer = setTimeout(() => fresh(a.id), opts.ttlMs + 50);
      timer.unref();
      timers.set(a.id, timer);
      const url = `${origin}/approvals/${a.id}`;
      logger.info('approval pending', { tool: a.tool, approvalId: a.id, url });
      return { approvalId: a.id, url, expiresAt: a.expiresAt };
    },

    async take(id, tool, hash): Promise<ApprovalState> {
      const a = fresh(id);
      await expiring.get(id);
      if (!a) return 'unknown';
      if (a.tool !== tool || a.hash !== hash) return 'mismatch';
      if (a.state !== 'approved') return a.state;
      a.state = 'used';
      // The ledger, not this process's memory, has the last word on "executes once".
      return (await ledger.claim(`approval:${id}`, a.expiresAt.getTime() + KEEP_MS)) ? 'approved' : 'used';
    },

    wait(id, ms, signal, onTick): Promise<ApprovalState> {
      const start = Date.now();
      return new Promise((resolve) => {
        const done = () => {
          clearInterval(tick);
          clearTimeout(limit);
          signal.removeEventListener('abort', done);
          waiters.get(id)?.delete(done);
          resolve(fresh(id)?.state ?? 'unknown');
        };
        const tick = setInterval(() => {
          if (fresh(id)?.state !== 'pending') return done();
          onTick(Date.now() - start);
        }, tickMs);
        const limit = setTimeout(done, ms);
        signal.addEventListener('abort', done, { once: true });
        if (fresh(id)?.state !== 'pending' || signal.aborted) return done();
        const set = waiters.get(id) ?? new Set();
        set.add(done);
        waiters.set(id, set);
      });
    },

    open: opts.open,

    get: (id) => fresh(id),

    pending() {
      return [...records.keys()]
        .map(fresh)
        .filter((a): a is Approval => a?.state === 'pending')
        .sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime());
    },

    async decide(id, decision, secret): Promise<DecideResult> {
      const a = fresh(id);
      if (!a) return 'unknown';
      if (!sameSecret(secret, a.secret)) return 'forbidden';
      if (a.state !== 'pending') return a.state;
      const state = decision === 'approve' ? 'approved' : 'declined';
      a.state = state;
      a.decidedAt = now();
      // The decision is on record before a waiting call can execute it.
      const written = audit(a, state === 'approved' ? 'confirmed' : 'declined');
      settle(a);
      await written;
      return state;
    },

    close() {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      for (const set of waiters.values()) for (const w of set) w();
      waiters.clear();
    },
  };
  return store;
}
