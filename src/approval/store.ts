// The approval page's records: one per guarded call waiting for a person. Each approval is bound to the tool
// and its canonical arguments (argsHash), decided once, executed at most once, and expires. The records live
// in a RecordStore (this process by default, Redis for replicas): a call started on one replica can be
// approved on another's page and executed through a third. The person's decision is written to the audit
// log when it happens (confirmed / declined / expired), so a decision the assistant never comes back for is
// still on record. Each record knows who asked (person, client, session); the page shows a viewer their own
// requests and approvers everyone's; who may decide what is the decision point's (src/policy/decide.ts), asked
// again at every decision.
import { randomBytes } from 'node:crypto';
import { type Preview, redactPreview } from '../format/consent.js';
import { redact } from '../format/redact.js';
import { type Logger, silentLogger } from '../log.js';
import type { AuditLog } from '../policy/audit.js';
import { createDecisionPoint, type DecisionPoint, type Refusal } from '../policy/decide.js';
import type { ApprovalChannel, ApprovalState, PendingApproval, Requester } from '../policy/guard.js';
import { sameSecret } from '../policy/tokens.js';
import { memoryRecords, type RecordStore, type StoredRecord } from '../state/approvals.js';
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
  /** Who asked, when known: only they resume it; pending approvals are capped per person and per client. */
  requester?: Requester;
  /** Redacted arguments and preview: the store never holds a secret the page could show. */
  args: Record<string, unknown>;
  preview: Preview;
  createdAt: Date;
  expiresAt: Date;
  state: RecordState;
  decidedAt?: Date;
  /** Who approved or declined it on the page. */
  decidedBy?: string;
}

/** Who looks at the page: a person, whether they are an approver, and whether anyone else could be here. */
export interface Viewer {
  person: string;
  approver: boolean;
  /** Nobody else can reach the page (no identity configured: this machine's user alone). */
  alone?: boolean;
}

export type { Refusal };

export type DecideResult = RecordState | 'unknown' | 'forbidden' | Refusal;

export interface ApprovalStore extends ApprovalChannel {
  get(id: string): Promise<Approval | undefined>;
  /** Pending approvals this viewer may see, oldest first. */
  pending(viewer: Viewer): Promise<Approval[]>;
  /**
   * The person's click: needs the approval's form secret (or an authenticated script), and a viewer who
   * may decide it; only a pending approval can be decided.
   */
  decide(
    id: string,
    decision: 'approve' | 'decline',
    secret: string | true,
    viewer: Viewer,
  ): Promise<DecideResult>;
  /** Who may see and decide what (four eyes, revocation): asked at every decision. */
  readonly decisions: DecisionPoint;
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
  /** How often wait() looks at the record (a decision may be made on another replica). */
  tickMs?: number;
  /** Where executions are claimed once (shared with the token signer); in memory when absent. */
  ledger?: Ledger;
  /** Where the records live; in this process when absent. */
  records?: RecordStore;
  /** Pending approvals one session (2025) or one person's client (2026) may hold at once. */
  maxPendingPerOwner?: number;
  /** Who may decide what; no approvers and nobody told apart when absent. */
  decisions?: DecisionPoint;
  /** The signed link that opens one request for its requester (when people sign in). */
  linkFor?: (id: string, person: string) => string;
}

/** Decided and expired records stay this long so a late resume gets a precise answer, then they go. */
const KEEP_MS = 60 * 60_000;
const MAX_PENDING = 200;
const MAX_PENDING_PER_OWNER = 20;
const MAX_PENDING_PER_PERSON = 50;

export function newId(): string {
  return randomBytes(18).toString('base64url');
}

type Body = Omit<Approval, 'state' | 'decidedAt' | 'createdAt' | 'expiresAt'> & {
  createdAt: string;
  expiresAt: string;
};

function revive(r: StoredRecord): Approval {
  const b = JSON.parse(r.body) as Body;
  return {
    ...b,
    createdAt: new Date(b.createdAt),
    expiresAt: new Date(b.expiresAt),
    state: r.state as RecordState,
    ...(r.decidedAtMs !== undefined ? { decidedAt: new Date(r.decidedAtMs) } : {}),
    ...(r.decidedBy !== undefined ? { decidedBy: r.decidedBy } : {}),
  };
}

export function createApprovalStore(opts: ApprovalStoreOptions): ApprovalStore {
  const now = opts.now ?? (() => new Date());
  const logger = opts.logger ?? silentLogger;
  const tickMs = opts.tickMs ?? 5_000;
  const ledger = opts.ledger ?? memoryLedger();
  const records = opts.records ?? memoryRecords();
  const perOwner = opts.maxPendingPerOwner ?? MAX_PENDING_PER_OWNER;
  const decisions = opts.decisions ?? createDecisionPoint({ approvers: [], tellsPeopleApart: false });
  // Capped per person only where people are told apart: one shared token is everyone at once.
  const perPerson = decisions.tellsPeopleApart ? MAX_PENDING_PER_PERSON : MAX_PENDING;
  const timers = new Map<string, NodeJS.Timeout>();
  /** Calls waiting in this process; a decision made here wakes them at once, one made elsewhere at the next tick. */
  const waiters = new Map<string, Set<() => void>>();

  const audit = (a: Approval, outcome: 'confirmed' | 'declined' | 'expired', by?: string) =>
    opts.audit.write({
      tool: a.tool,
      args: a.args,
      outcome,
      channel: 'approval-page',
      approvalId: a.id,
      ...(a.requester ? { requester: a.requester.person, client: a.requester.client } : {}),
      ...(by ? { approver: by } : {}),
    });

  function settle(id: string) {
    const t = timers.get(id);
    if (t) clearTimeout(t);
    timers.delete(id);
    for (const w of waiters.get(id) ?? []) w();
    waiters.delete(id);
  }

  /**
   * Applies expiry: an approval not yet executed is void after expiresAt, approved or not. Whichever replica
   * moves it to expired (compare-and-set) writes the audit line, so it is written once.
   */
  async function fresh(id: string): Promise<Approval | undefined> {
    const r = await records.get(id);
    if (!r) return undefined;
    const a = revive(r);
    if ((a.state === 'pending' || a.state === 'approved') && now() >= a.expiresAt) {
      const moved = await records.transition(id, ['pending', 'approved'], 'expired');
      if (moved?.changed) {
        // On record before any later answer about this approval (the audit log reads in order).
        await audit(a, 'expired');
        settle(id);
      }
      return moved ? revive(moved.record) : undefined;
    }
    return a;
  }

  const store: ApprovalStore = {
    now,
    decisions,

    async create(req): Promise<PendingApproval> {
      const origin = opts.origin();
      if (!origin) throw new Error('the approval page is not being served yet');
      const createdAt = now();
      const a: Approval = {
        id: newId(),
        secret: newId(),
        tool: req.tool,
        title: req.title,
        hash: req.hash,
        ...(req.requester ? { requester: req.requester } : {}),
        args: redact(req.args),
        preview: redactPreview(req.preview),
        createdAt,
        expiresAt: new Date(createdAt.getTime() + opts.ttlMs),
        state: 'pending',
      };
      const { state: _state, ...body } = a;
      const r = a.requester;
      // Where people are not told apart, a sessionless caller is capped by its address: a client name is
      // whatever the caller says, so renaming it must not buy another share of the queue.
      const owner = r && (r.session || decisions.tellsPeopleApart ? r.key : `address:${r.address ?? r.key}`);
      const added = await records.insert(
        {
          id: a.id,
          body: JSON.stringify(body),
          ...(r && owner ? { owners: [owner, `person:${r.person}`] } : {}),
          expiresAtMs: a.expiresAt.getTime(),
          keepMs: KEEP_MS,
        },
        { perOwner: [perOwner, perPerson], total: MAX_PENDING },
        createdAt.getTime(),
      );
      const ask = `ask the person to decide on ${origin}/approvals first (or let them expire).`;
      const from = r?.session
        ? 'session'
        : decisions.tellsPeopleApart
          ? `client (${r?.client})`
          : `address (${r?.address ?? 'unknown'})`;
      if (added === 1)
        throw new ToolInputError(
          decisions.tellsPeopleApart
            ? `${MAX_PENDING_PER_PERSON} approvals asked for by ${r?.person} are already waiting (the cap per person); ${ask}`
            : `${MAX_PENDING} approvals are already waiting (the cap for everyone); ${ask}`,
        );
      if (added === 0)
        throw new ToolInputError(
          `${perOwner} approvals from this ${from} are already waiting (the cap per ${from.split(' ')[0]}); ${ask}`,
        );
      if (added === 'total')
        throw new ToolInputError(
          `${MAX_PENDING} approvals are already waiting (the cap for everyone); ${ask}`,
        );
      const timer = setTimeout(() => void fresh(a.id).catch(() => {}), opts.ttlMs + 50);
      timer.unref();
      timers.set(a.id, timer);
      const link = r && opts.linkFor ? `?as=${opts.linkFor(a.id, r.person)}` : '';
      const url = `${origin}/approvals/${a.id}${link}`;
      logger.info('approval pending', { tool: a.tool, approvalId: a.id, url });
      return {
        approvalId: a.id,
        url,
        expiresAt: a.expiresAt,
        ...(decisions.secondPerson(a.tool) ? { otherApprover: true } : {}),
      };
    },

    async take(id, tool, hash, requesterKey) {
      const a = await fresh(id);
      if (!a) return { state: 'unknown' };
      if (a.tool !== tool || a.hash !== hash) return { state: 'mismatch' };
      if (a.requester !== undefined && a.requester.key !== requesterKey) return { state: 'foreign' };
      if (a.state !== 'approved') return { state: a.state };
      // The ledger, not a record that could be lost, has the last word on "executes once"; it is asked first,
      // so an approval whose claim cannot be checked (the store lost its records) stays approved, not used up.
      const first = await ledger.claim(
        `approval:${id}`,
        a.expiresAt.getTime() + KEEP_MS,
        a.createdAt.getTime(),
      );
      await records.transition(id, ['approved'], 'used');
      return first
        ? { state: 'approved', ...(a.decidedBy ? { approver: a.decidedBy } : {}) }
        : { state: 'used' };
    },

    wait(id, ms, signal, onTick): Promise<ApprovalState> {
      const start = Date.now();
      return new Promise((resolve) => {
        let finished = false;
        const done = () => {
          if (finished) return;
          finished = true;
          clearInterval(tick);
          clearTimeout(limit);
          signal.removeEventListener('abort', done);
          waiters.get(id)?.delete(done);
          fresh(id).then(
            (a) => resolve(a?.state ?? 'unknown'),
            () => resolve('pending'),
          );
        };
        const tick = setInterval(() => {
          void fresh(id).then(
            (a) => (a?.state !== 'pending' ? done() : onTick(Date.now() - start)),
            () => onTick(Date.now() - start),
          );
        }, tickMs);
        const limit = setTimeout(done, ms);
        signal.addEventListener('abort', done, { once: true });
        const set = waiters.get(id) ?? new Set();
        set.add(done);
        waiters.set(id, set);
        if (signal.aborted) return done();
        void fresh(id).then((a) => a?.state !== 'pending' && done(), done);
      });
    },

    open: opts.open,

    get: (id) => fresh(id),

    async pending(viewer) {
      return (await records.pending(now().getTime()))
        .map(revive)
        .filter((a) => decisions.maySee(a, viewer))
        .sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime());
    },

    async decide(id, decision, secret, viewer): Promise<DecideResult> {
      const a = await fresh(id);
      if (!a) return 'unknown';
      if (secret !== true && !sameSecret(secret, a.secret)) return 'forbidden';
      const refused = decisions.mayDecide(a, viewer, decision);
      if (refused) return refused;
      if (a.state !== 'pending') return a.state;
      const state = decision === 'approve' ? 'approved' : 'declined';
      const moved = await records.transition(id, ['pending'], state, {
        atMs: now().getTime(),
        by: viewer.person,
      });
      if (!moved) return 'unknown';
      if (!moved.changed) return moved.record.state as RecordState;
      // The decision is on record (in the store, then the audit log) before a waiting call can execute it.
      await audit(revive(moved.record), state === 'approved' ? 'confirmed' : 'declined', viewer.person);
      settle(id);
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
