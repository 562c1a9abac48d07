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
import {
  createDecisionPoint,
  type DecisionPoint,
  type Refusal,
  type RiskCategory,
} from '../policy/decide.js';
import type { ApprovalChannel, ApprovalState, PendingApproval, Requester } from '../policy/guard.js';
import { sameSecret } from '../policy/signer.js';
import { memoryRecords, type RecordStore, type StoredRecord } from '../state/approvals.js';
import { type Ledger, memoryLedger } from '../state/ledger.js';
import { ToolInputError } from '../tool/errors.js';

type RecordState = 'pending' | 'approved' | 'declined' | 'expired' | 'used';

export interface Approval {
  id: string;
  /** Per-approval form secret: only a page served to the person's browser knows it (cross-site guard). */
  secret: string;
  tool: string;
  title: string;
  hash: string;
  /** The risks the call carries (src/policy/decide.ts): whether a second person must approve is decided from them. */
  risks?: readonly RiskCategory[];
  /** Who asked, when known: only they resume it; pending approvals are capped per person and per client. */
  requester?: Requester;
  /** Redacted arguments and preview: the store never holds a secret the page could show. */
  args: Record<string, unknown>;
  preview: Preview;
  createdAt: Date;
  expiresAt: Date;
  state: RecordState;
  decidedAt?: Date;
  /** Who approved or declined it on the page: their identity (four eyes compares it) and how they are shown. */
  decidedBy?: string;
  decidedByName?: string;
  decidedByAddress?: string;
}

/** Who looks at the page: a person, whether they are an approver, and whether anyone else could be here. */
export interface Viewer {
  /** Their identity. */
  person: string;
  /** How they are shown, and how approvers list them. */
  name?: string;
  address?: string;
  /** False when their token lacks the write scope: they may look, not decide. */
  canWrite?: boolean;
  approver: boolean;
  /** Nobody else can reach the page (no identity configured: this machine's user alone). */
  alone?: boolean;
}

export type { Refusal };

export type DecideResult = RecordState | 'unknown' | 'forbidden' | Refusal;

type NewApproval = Parameters<ApprovalChannel['create']>[0];
type Taken = Awaited<ReturnType<ApprovalChannel['take']>>;

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

interface ApprovalStoreOptions {
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

function newId(): string {
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
    ...(r.decidedBy !== undefined ? decider(r.decidedBy) : {}),
  };
}

/** The record keeps the decider as one string: the identity, then the name and address when there are. */
const deciderString = (v: Viewer) =>
  (v.name && v.name !== v.person) || v.address
    ? JSON.stringify([v.person, v.name ?? v.person, v.address ?? ''])
    : v.person;

function decider(by: string): Pick<Approval, 'decidedBy' | 'decidedByName' | 'decidedByAddress'> {
  if (by.startsWith('["'))
    try {
      const [person, name, address] = JSON.parse(by) as [string, string, string?];
      return { decidedBy: person, decidedByName: name, ...(address ? { decidedByAddress: address } : {}) };
    } catch {
      // Not ours: the string as it is.
    }
  return { decidedBy: by };
}

export function createApprovalStore(opts: ApprovalStoreOptions): ApprovalStore {
  return new RecordApprovalStore(opts);
}

/** The store over a RecordStore (this process's or Redis), with the expiry timers and the calls waiting here. */
class RecordApprovalStore implements ApprovalStore {
  readonly now: () => Date;
  readonly decisions: DecisionPoint;
  readonly open: ((url: string) => void) | undefined;
  private readonly logger: Logger;
  private readonly tickMs: number;
  private readonly ledger: Ledger;
  private readonly records: RecordStore;
  private readonly perOwner: number;
  private readonly perPerson: number;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Calls waiting in this process; a decision made here wakes them at once, one made elsewhere at the next tick. */
  private readonly waiters = new Map<string, Set<() => void>>();

  private readonly opts: ApprovalStoreOptions;

  constructor(opts: ApprovalStoreOptions) {
    this.opts = opts;
    this.now = opts.now ?? (() => new Date());
    this.open = opts.open;
    this.logger = opts.logger ?? silentLogger;
    this.tickMs = opts.tickMs ?? 5_000;
    this.ledger = opts.ledger ?? memoryLedger();
    this.records = opts.records ?? memoryRecords();
    this.perOwner = opts.maxPendingPerOwner ?? MAX_PENDING_PER_OWNER;
    this.decisions = opts.decisions ?? createDecisionPoint({ approvers: [], tellsPeopleApart: false });
    // Capped per person only where people are told apart: one shared token is everyone at once.
    this.perPerson = this.decisions.tellsPeopleApart ? MAX_PENDING_PER_PERSON : MAX_PENDING;
  }

  async create(req: NewApproval): Promise<PendingApproval> {
    const origin = this.opts.origin();
    if (!origin) throw new Error('the approval page is not being served yet');
    const a = this.newApproval(req);
    await this.insert(a, origin);
    this.expireLater(a.id);
    const r = a.requester;
    const link = r && this.opts.linkFor ? `?as=${this.opts.linkFor(a.id, r.person)}` : '';
    const url = `${origin}/approvals/${a.id}${link}`;
    this.logger.info('approval pending', { tool: a.tool, approvalId: a.id, url });
    const risks = this.decisions.secondPerson(a);
    return { approvalId: a.id, url, expiresAt: a.expiresAt, ...(risks ? { otherApprover: risks } : {}) };
  }

  async take(id: string, tool: string, hash: string, requesterKey?: string): Promise<Taken> {
    const a = await this.fresh(id);
    if (!a) return { state: 'unknown' };
    if (a.tool !== tool || a.hash !== hash) return { state: 'mismatch' };
    if (a.requester !== undefined && a.requester.key !== requesterKey) return { state: 'foreign' };
    if (a.state !== 'approved') return { state: a.state };
    // The ledger, not a record that could be lost, has the last word on "executes once"; it is asked first,
    // so an approval whose claim cannot be checked (the store lost its records) stays approved, not used up.
    const first = await this.ledger.claim(
      `approval:${id}`,
      a.expiresAt.getTime() + KEEP_MS,
      a.createdAt.getTime(),
    );
    await this.records.transition(id, ['approved'], 'used');
    return first
      ? {
          state: 'approved',
          ...(a.decidedBy ? { approver: a.decidedBy } : {}),
          ...(a.decidedByName ? { approverName: a.decidedByName } : {}),
          ...(a.decidedByAddress ? { approverAddress: a.decidedByAddress } : {}),
        }
      : { state: 'used' };
  }

  wait(
    id: string,
    ms: number,
    signal: AbortSignal,
    onTick: (elapsedMs: number) => void,
  ): Promise<ApprovalState> {
    const start = Date.now();
    return new Promise((resolve) => {
      let finished = false;
      const done = () => {
        if (finished) return;
        finished = true;
        clearInterval(tick);
        clearTimeout(limit);
        signal.removeEventListener('abort', done);
        this.waiters.get(id)?.delete(done);
        this.fresh(id).then(
          (a) => resolve(a?.state ?? 'unknown'),
          () => resolve('pending'),
        );
      };
      const tick = setInterval(() => {
        void this.fresh(id).then(
          (a) => (a?.state !== 'pending' ? done() : onTick(Date.now() - start)),
          () => onTick(Date.now() - start),
        );
      }, this.tickMs);
      const limit = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      const set = this.waiters.get(id) ?? new Set();
      set.add(done);
      this.waiters.set(id, set);
      if (signal.aborted) return done();
      void this.fresh(id).then((a) => a?.state !== 'pending' && done(), done);
    });
  }

  get(id: string): Promise<Approval | undefined> {
    return this.fresh(id);
  }

  async pending(viewer: Viewer): Promise<Approval[]> {
    return (await this.records.pending(this.now().getTime()))
      .map(revive)
      .filter((a) => this.decisions.maySee(a, viewer))
      .sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime());
  }

  async decide(
    id: string,
    decision: 'approve' | 'decline',
    secret: string | true,
    viewer: Viewer,
  ): Promise<DecideResult> {
    const a = await this.fresh(id);
    if (!a) return 'unknown';
    if (secret !== true && !sameSecret(secret, a.secret)) return 'forbidden';
    const refused = this.decisions.mayDecide(a, viewer, decision);
    if (refused) return refused;
    if (a.state !== 'pending') return a.state;
    const state = decision === 'approve' ? 'approved' : 'declined';
    const moved = await this.records.transition(id, ['pending'], state, {
      atMs: this.now().getTime(),
      by: deciderString(viewer),
    });
    if (!moved) return 'unknown';
    if (!moved.changed) return moved.record.state as RecordState;
    // The decision is on record (in the store, then the audit log) before a waiting call can execute it.
    await this.audit(
      revive(moved.record),
      state === 'approved' ? 'confirmed' : 'declined',
      viewer.name ?? viewer.person,
    );
    this.settle(id);
    return state;
  }

  close(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const set of this.waiters.values()) for (const w of set) w();
    this.waiters.clear();
  }

  /** A new pending record: redacted, with its own form secret, expiring after the TTL. */
  private newApproval(req: NewApproval): Approval {
    const createdAt = this.now();
    return {
      id: newId(),
      secret: newId(),
      tool: req.tool,
      title: req.title,
      hash: req.hash,
      ...(req.risks ? { risks: req.risks } : {}),
      ...(req.requester ? { requester: req.requester } : {}),
      args: redact(req.args),
      preview: redactPreview(req.preview),
      createdAt,
      expiresAt: new Date(createdAt.getTime() + this.opts.ttlMs),
      state: 'pending',
    };
  }

  /** Stores the record unless its owner, its person or everyone already has as many waiting as allowed. */
  private async insert(a: Approval, origin: string): Promise<void> {
    const { state: _state, ...body } = a;
    const r = a.requester;
    const { tellsPeopleApart } = this.decisions;
    // Where people are not told apart, a sessionless caller is capped by its address: a client name is
    // whatever the caller says, so renaming it must not buy another share of the queue.
    const owner = r && (r.session || tellsPeopleApart ? r.key : `address:${r.address ?? r.key}`);
    const added = await this.records.insert(
      {
        id: a.id,
        body: JSON.stringify(body),
        ...(r && owner ? { owners: [owner, `person:${r.person}`] } : {}),
        expiresAtMs: a.expiresAt.getTime(),
        keepMs: KEEP_MS,
      },
      { perOwner: [this.perOwner, this.perPerson], total: MAX_PENDING },
      a.createdAt.getTime(),
    );
    if (added === 0 || added === 1 || added === 'total')
      throw new ToolInputError(this.overCap(added, r, origin));
  }

  /** Why a record was not stored: which cap (owner 0, person 1, or everyone's) it would exceed. */
  private overCap(added: 'total' | number, r: Requester | undefined, origin: string): string {
    const { tellsPeopleApart } = this.decisions;
    const ask = `ask the person to decide on ${origin}/approvals first (or let them expire).`;
    if (added === 1)
      return tellsPeopleApart
        ? `${MAX_PENDING_PER_PERSON} approvals asked for by ${r?.name ?? r?.person} are already waiting (the cap per person); ${ask}`
        : `${MAX_PENDING} approvals are already waiting (the cap for everyone); ${ask}`;
    if (added === 0) {
      const from = r?.session
        ? 'session'
        : tellsPeopleApart
          ? `client (${r?.client})`
          : `address (${r?.address ?? 'unknown'})`;
      return `${this.perOwner} approvals from this ${from} are already waiting (the cap per ${from.split(' ')[0]}); ${ask}`;
    }
    return `${MAX_PENDING} approvals are already waiting (the cap for everyone); ${ask}`;
  }

  /** Moves the record to expired (and audits it) just after its TTL, should nobody look at it before. */
  private expireLater(id: string): void {
    const timer = setTimeout(() => void this.fresh(id).catch(() => {}), this.opts.ttlMs + 50);
    timer.unref();
    this.timers.set(id, timer);
  }

  /**
   * Applies expiry: an approval not yet executed is void after expiresAt, approved or not. Whichever replica
   * moves it to expired (compare-and-set) writes the audit line, so it is written once.
   */
  private async fresh(id: string): Promise<Approval | undefined> {
    const r = await this.records.get(id);
    if (!r) return undefined;
    const a = revive(r);
    if ((a.state === 'pending' || a.state === 'approved') && this.now() >= a.expiresAt) {
      const moved = await this.records.transition(id, ['pending', 'approved'], 'expired');
      if (moved?.changed) {
        // On record before any later answer about this approval (the audit log reads in order).
        await this.audit(a, 'expired');
        this.settle(id);
      }
      return moved ? revive(moved.record) : undefined;
    }
    return a;
  }

  /** Decided or expired: no expiry timer, and the calls waiting here wake now. */
  private settle(id: string): void {
    const t = this.timers.get(id);
    if (t) clearTimeout(t);
    this.timers.delete(id);
    for (const w of this.waiters.get(id) ?? []) w();
    this.waiters.delete(id);
  }

  private audit(a: Approval, outcome: 'confirmed' | 'declined' | 'expired', by?: string) {
    return this.opts.audit.write({
      tool: a.tool,
      args: a.args,
      outcome,
      channel: 'approval-page',
      approvalId: a.id,
      ...(a.requester
        ? { requester: a.requester.name ?? a.requester.person, client: a.requester.client }
        : {}),
      ...(by ? { approver: by } : {}),
    });
  }
}
