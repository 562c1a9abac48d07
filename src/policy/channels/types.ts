// The shapes every consent channel shares with the guard: who asks, what a channel answers, and the
// approval page's side of the contract. Kept apart from the guard so that channels and guard import
// downwards only.
import type { Config } from '../../config/index.js';
import type { Preview } from '../../format/consent.js';
import type { AnyTool, CallArgs, FormatContext, ToolAnswer, ToolContext } from '../../tool/index.js';
import type { AuditEntry, AuditLog } from '../audit.js';
import type { DecisionPoint, RiskCategory } from '../decide.js';
import type { Signer } from '../signer.js';

export type ApprovalState =
  | 'pending'
  | 'approved'
  | 'declined'
  | 'expired'
  | 'unknown'
  | 'used'
  | 'mismatch'
  /** Asked for by another session (2025) or another client (2026): only the asker may resume it. */
  | 'foreign';

/** Who asked for a change: the person, the client they asked through, and the 2025 session if any. */
export interface Requester {
  /** Their identity (an OAuth token's issuer and sub, a tokens-file name, the OS user): four eyes compares it. */
  person: string;
  /** How they are shown (a verified address; the identity when absent). */
  name?: string;
  /** How approvers list them (a verified email, a tokens-file name): one person under two tokens shares it. */
  personAddress?: string;
  /** "name version" of the MCP client, as it introduced itself. */
  client: string;
  session?: string;
  /**
   * What an approval is resumed by: the 2025 session, or on 2026-07-28 (no sessions) the person with the
   * client's name and version. Pending approvals are capped per person and per this key.
   */
  key: string;
  /** The caller's network address as the server sees it (HTTP): caps sessionless callers nobody tells apart. */
  address?: string;
}

export interface PendingApproval {
  approvalId: string;
  url: string;
  expiresAt: Date;
  /** Four eyes apply for these risks: an approver other than the requester must approve (they may decline). */
  otherApprover?: readonly RiskCategory[];
}

/**
 * The approval page's side of the contract (src/approval/). The channel records the person's decision in
 * the audit log when it is made (confirmed / declined / expired); the guard records what it then does.
 */
export interface ApprovalChannel {
  create(req: {
    tool: string;
    title: string;
    hash: string;
    args: Record<string, unknown>;
    preview: Preview;
    /** Who asked: only they resume it; pending approvals are capped per person and per requester key. */
    requester?: Requester;
    /** The risks the call carries (src/policy/decide.ts): the page's four eyes decide from them. */
    risks?: readonly RiskCategory[];
  }): Promise<PendingApproval>;
  /**
   * Current state; when approved, bound to this tool and hash, and asked for by `requesterKey`, marks it used
   * (it executes once). An approved one names who approved it.
   */
  take(
    approvalId: string,
    tool: string,
    hash: string,
    requesterKey?: string,
  ): Promise<{ state: ApprovalState; approver?: string; approverName?: string; approverAddress?: string }>;
  /** Waits for a decision up to ms, calling onTick periodically; resolves with the state then. */
  wait?(
    approvalId: string,
    ms: number,
    signal: AbortSignal,
    onTick: (elapsedMs: number) => void,
  ): Promise<ApprovalState>;
  /** Opens the page in the person's browser (desktop use). */
  open?(url: string): void;
}

export interface CallEnv {
  /** The MCP session the call came from, when the transport has sessions. */
  session?: string;
  /** Who is asking, as far as the transport knows. An approval resumes only for its requester. */
  requester?: Requester;
  canElicit: boolean;
  /** How the audit names consent by elicitation: `--yes` when `dbops-mcp call --yes` answered for the person. */
  elicitationChannel?: string;
  /**
   * The person's answer to this call's consent question, carried by a later round of the same call (MCP
   * `input_required`). The transport has checked its seal, principal and expiry; the guard checks what it
   * is bound to (tool and arguments) and that it is used once.
   */
  answer?: ConsentAnswer;
}

export interface ConsentAnswer {
  tool: string;
  hash: string;
  /** Unique per question: an answer executes at most once, however often the round is replayed. */
  nonce: string;
  askedAtMs: number;
  expiresAtMs: number;
  action: 'accept' | 'decline' | 'cancel';
}

/** The guard's answer when the client should ask the person now (elicitation) and call again with the answer. */
export interface ConsentQuestion {
  ask: { tool: string; hash: string; message: string };
}

export interface GuardDeps {
  config: Pick<Config, 'confirm' | 'confirmVia' | 'approvalOpen' | 'approvalWaitMs'> & {
    approvers?: Config['approvers'];
    fourEyes?: Config['fourEyes'];
    longWindowHours?: Config['longWindowHours'];
  };
  signer: Signer;
  audit: AuditLog;
  approvals?: ApprovalChannel;
  /**
   * Who may decide what (four eyes, revocation). When absent, DBOPS_APPROVERS with nobody told apart: a
   * four-eyes change is then refused, never run on the asker's word.
   */
  decisions?: DecisionPoint;
}

/** Writes an audit entry; who asked (and through which client) and the installation are added by the guard. */
export type Write = (e: Omit<AuditEntry, 'requester' | 'client' | 'platform'>) => Promise<void>;

/** One guarded call as every channel sees it: the checked arguments, their hash and the live context. */
export interface GuardedCall {
  tool: AnyTool;
  args: CallArgs;
  hash: string;
  ctx: ToolContext;
  env: CallEnv;
  deps: GuardDeps;
  f: FormatContext;
  /** The risks this call carries (src/policy/decide.ts risksOf; empty without DBOPS_APPROVERS). */
  risks: readonly RiskCategory[];
  /** The risks that need a second person to approve (DBOPS_APPROVERS, DBOPS_FOUR_EYES), or undefined. */
  secondPerson: readonly RiskCategory[] | undefined;
  /** The preview of the change, redacted, computed once. */
  preview(): Promise<Preview>;
  /** The audit log, with who asked added. */
  write: Write;
}

/** What a channel learned from the person (or a proof the caller brought back); the guard acts on it. */
export type Outcome =
  /** Approved: execute. `recorded` when the channel already wrote the "confirmed" line (the page does). */
  | {
      kind: 'approved';
      channel: string;
      /** The identity of who approved (four eyes compares it), and how they are shown. */
      approver?: string;
      approverName?: string;
      approverAddress?: string;
      approvalId?: string;
      recorded?: boolean;
    }
  | {
      kind: 'declined';
      channel: string;
      how: 'declined' | 'cancelled';
      approvalId?: string;
      recorded?: boolean;
    }
  | { kind: 'pending'; approvalId: string }
  /** The proof does not hold: nothing runs; `message` says what the person can do. */
  | { kind: 'rejected'; channel: string; error: string; message: string; approvalId?: string };

/** What asking produced: an answer for the model, or a question for the client, with its audit line. */
interface Asked {
  answer: ToolAnswer | ConsentQuestion;
  audit?: { outcome: AuditEntry['outcome']; channel: string; approvalId?: string };
}

/**
 * A consent channel: carries the question to a person (ask) and checks the answer the caller brings back
 * (resume). Whether the person may decide is not a channel's call: the guard asks the decision point.
 */
export interface Channel<Proof> {
  /** Its name in DBOPS_CONFIRM_VIA (src/config/schema.ts lists the names a setting accepts). */
  name: string;
  /**
   * The argument a call carries back to resume through this channel, and its longest value: the input schema
   * of every change tool takes it. None for a channel whose proof comes with the call itself (elicitation).
   */
  argument?: { name: string; maxLength: number };
  /** The proof this call brings back for this channel, if any (its argument, or what the call carries). */
  proofOf(args: Record<string, unknown>, env: CallEnv): Proof | undefined;
  /** Whether this channel can reach the person of this call now (never the asker under four eyes). */
  available(call: GuardedCall): boolean;
  ask(call: GuardedCall): Promise<Asked | Outcome>;
  resume(call: GuardedCall, proof: Proof): Promise<Outcome>;
}
