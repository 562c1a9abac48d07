// The policy layer every tool call passes through, whatever the client claims: a guarded call changes
// nothing until a person consents through one of three channels (elicitation, the approval page, a
// confirmation token), each bound to the exact arguments, single use, expiring, and audited.
import { freshReads } from '../api/cache.js';
import { ApiError } from '../api/errors.js';
import type { Channel, Config } from '../config.js';
import {
  approvalNeeded,
  approvalProblem,
  confirmationNeeded,
  declinedAnswer,
  executedAnswer,
  type Preview,
  previewText,
  redactPreview,
  stillPending,
  tokenProblem,
  uncertainAdvice,
  waitingFor,
} from '../format/consent.js';
import type { AnyTool, FormatContext, ToolAnswer, ToolContext } from '../tool/index.js';
import { type CallArgs, ToolInputError, withDefaults } from '../tool/index.js';
import type { AuditEntry, AuditLog } from './audit.js';
import { argsHash } from './canonical.js';
import { kindOf, needsConsent } from './consent.js';
import type { TokenSigner } from './tokens.js';

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
  person: string;
  /** "name version" of the MCP client, as it introduced itself. */
  client: string;
  session?: string;
  /**
   * What an approval is resumed by: the 2025 session, or on 2026-07-28 (no sessions) the person with the
   * client's name and version. Pending approvals are capped per person and per this key.
   */
  key: string;
}

export interface PendingApproval {
  approvalId: string;
  url: string;
  expiresAt: Date;
  /** Four eyes apply: an approver other than the requester must approve (the requester may decline). */
  otherApprover?: boolean;
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
    /** With approvers set, someone other than the requester must approve (grants of access, deletions). */
    fourEyes?: boolean;
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
  ): Promise<{ state: ApprovalState; approver?: string }>;
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
  config: Pick<Config, 'confirm' | 'confirmVia' | 'approvalOpen' | 'approvalWaitMs'>;
  tokens: TokenSigner;
  audit: AuditLog;
  approvals?: ApprovalChannel;
}

export async function callTool(
  tool: AnyTool,
  rawArgs: Record<string, unknown>,
  ctx: ToolContext,
  env: CallEnv,
  deps: GuardDeps,
  f: FormatContext,
): Promise<ToolAnswer | ConsentQuestion> {
  // null and "" were dropped at the boundary (src/mcp/schemas.ts): a consent field here is a real string.
  const { confirmationToken, approvalId, ...given } = rawArgs as Record<string, unknown> & {
    confirmationToken?: string;
    approvalId?: string;
  };
  // Defaults first, then the tool's own checks, once: every later step sees the same, checked arguments.
  const args = withDefaults(tool, given, ctx.defaults);
  // A project given by name becomes its id here: consent, audit and the platform all see the id.
  if (typeof args.projectId === 'string')
    args.projectId = await ctx.names.projectIdOf(args.projectId, ctx.signal);
  tool.check?.(args, ctx.now());
  const kind = kindOf(tool, args);
  if (kind === 'read') return execute(tool, args, ctx, f);
  // What a change is previewed and made from is read from the platform, never from kept answers.
  return freshReads(() => guarded(tool, args, kind, confirmationToken, approvalId, ctx, env, deps, f));
}

async function guarded(
  tool: AnyTool,
  args: CallArgs,
  kind: ReturnType<typeof kindOf>,
  confirmationToken: string | undefined,
  approvalId: string | undefined,
  ctx: ToolContext,
  env: CallEnv,
  deps: GuardDeps,
  f: FormatContext,
): Promise<ToolAnswer | ConsentQuestion> {
  const who = { ...whoOf(env), ...(ctx.platform ? { platform: ctx.platform } : {}) };
  const write = (e: Omit<AuditEntry, keyof typeof who>) => deps.audit.write({ ...e, ...who });
  const audited = { tool: tool.name, args };
  if (!needsConsent(kind, deps.config.confirm)) return executeAudited(tool, args, ctx, f, write, 'none');

  const hash = argsHash(tool.name, args);
  const allowed = new Set(deps.config.confirmVia);

  if (confirmationToken !== undefined) {
    if (!allowed.has('token'))
      throw new ToolInputError('Confirmation tokens are disabled here (DBOPS_CONFIRM_VIA).');
    const check = await deps.tokens.redeem(confirmationToken, tool.name, hash);
    if (check !== 'ok') {
      await write({ ...audited, outcome: 'rejected', channel: 'token', error: `token ${check}` });
      throw new ToolInputError(tokenProblem(check, tool.name));
    }
    await write({ ...audited, outcome: 'confirmed', channel: 'token' });
    return executeAudited(tool, args, ctx, f, write, 'token', who.requester);
  }

  if (approvalId !== undefined) {
    if (!deps.approvals || !allowed.has('approval-page'))
      throw new ToolInputError('The approval page is not enabled on this server; approvalId cannot be used.');
    let taken = await deps.approvals.take(approvalId, tool.name, hash, env.requester?.key);
    if (taken.state === 'pending' && deps.config.approvalOpen && deps.approvals.wait) {
      // Desktop use: the person may be deciding right now, so wait for them here too.
      taken = await waitForDecision(deps.approvals, approvalId, tool.name, hash, env, deps, ctx, '');
    }
    return resolveApproval(taken, tool, args, ctx, f, write, approvalId);
  }

  // Masked once here: every channel below shows this preview to the model or the person.
  const previewOf = async () => {
    await ctx.names.learn(args, ctx.signal);
    const p = tool.preview ? await tool.preview(ctx, args) : defaultPreview(tool, args);
    // With several installations, the person must see which one changes.
    const where = ctx.platform
      ? {
          ...p,
          action: `${p.action} — on platform \`${ctx.platform}\``,
          target: { platform: ctx.platform, ...p.target },
        }
      : p;
    return redactPreview(where);
  };

  if (env.answer) {
    const a = env.answer;
    const channel = env.elicitationChannel ?? 'elicitation';
    if (!allowed.has('elicitation'))
      throw new ToolInputError(
        'Consent by elicitation is disabled here (DBOPS_CONFIRM_VIA); nothing changed.',
      );
    if (a.tool !== tool.name || a.hash !== hash) {
      await write({
        ...audited,
        outcome: 'rejected',
        channel,
        error: 'answer for other arguments',
      });
      throw new ToolInputError(
        `The person's answer was given for ${a.tool === tool.name ? 'other arguments' : a.tool}; nothing changed. Call ${tool.name} again without it to ask the person about exactly these arguments.`,
      );
    }
    if (a.action !== 'accept') {
      await write({ ...audited, outcome: 'declined', channel });
      return declinedAnswer(
        tool.name,
        a.action === 'cancel' ? 'cancelled' : 'declined',
        await previewOf(),
        f,
      );
    }
    // The answer's own expiry decides, whatever the seal around it still allows.
    // (Wall-clock time, as when the question was asked: the sealed expiry was computed from it.)
    if (a.expiresAtMs <= Date.now()) {
      await write({ ...audited, outcome: 'rejected', channel, error: 'answer expired' });
      throw new ToolInputError(
        `The person's answer expired; nothing changed. Call ${tool.name} again to ask the person again.`,
      );
    }
    // A replayed round (same sealed state, same answer) must not apply the change a second time.
    if (!(await deps.tokens.consume(`consent:${a.nonce}`, a.expiresAtMs, a.askedAtMs))) {
      await write({ ...audited, outcome: 'rejected', channel, error: 'answer already used' });
      throw new ToolInputError(
        `This consent was already used once; nothing changed now. Call ${tool.name} again to ask the person again.`,
      );
    }
    await write({ ...audited, outcome: 'confirmed', channel, approver: who.requester });
    return executeAudited(tool, args, ctx, f, write, channel, who.requester);
  }

  const preview = await previewOf();
  const channel = pickChannel(deps.config.confirmVia, env, deps);

  if (channel === 'elicitation')
    return { ask: { tool: tool.name, hash, message: previewText(preview, tool.title) } };

  if (channel === 'approval-page' && deps.approvals) {
    const approvals = deps.approvals;
    const pending = await approvals.create({
      tool: tool.name,
      title: tool.title,
      hash,
      args,
      preview,
      ...(env.requester ? { requester: env.requester } : {}),
      fourEyes: kind === 'destructive',
    });
    await write({
      ...audited,
      outcome: 'approval_pending',
      channel,
      approvalId: pending.approvalId,
    });
    if (deps.config.approvalOpen && approvals.wait) {
      approvals.open?.(pending.url);
      const taken = await waitForDecision(
        approvals,
        pending.approvalId,
        tool.name,
        hash,
        env,
        deps,
        ctx,
        pending.url,
      );
      if (taken.state !== 'pending')
        return resolveApproval(taken, tool, args, ctx, f, write, pending.approvalId);
    }
    return approvalNeeded(tool.name, preview, pending, f);
  }

  const token = deps.tokens.issue(tool.name, hash);
  await write({ ...audited, outcome: 'confirmation_required', channel: 'token' });
  return confirmationNeeded(tool.name, preview, token, f);
}

function pickChannel(order: Channel[], env: CallEnv, deps: GuardDeps): Channel {
  for (const c of order) {
    if (c === 'elicitation' && env.canElicit) return c;
    if (c === 'approval-page' && deps.approvals) return c;
    if (c === 'token') return c;
  }
  throw new ToolInputError(
    `No confirmation channel is available for this client (DBOPS_CONFIRM_VIA=${order.join(',')}). Ask the operator to enable the approval page or the token channel.`,
  );
}

/** Waits for the person's decision with progress notifications; an approval is taken (used) at once. */
async function waitForDecision(
  approvals: ApprovalChannel,
  approvalId: string,
  tool: string,
  hash: string,
  env: CallEnv,
  deps: GuardDeps,
  ctx: ToolContext,
  url: string,
): Promise<{ state: ApprovalState; approver?: string }> {
  if (!approvals.wait) return { state: 'pending' };
  const total = deps.config.approvalWaitMs;
  await ctx.progress(0, total, waitingFor(url));
  const state = await approvals.wait(approvalId, total, ctx.signal, (ms) => {
    void ctx.progress(Math.min(ms, total), total, waitingFor(url));
  });
  return state === 'approved' ? await approvals.take(approvalId, tool, hash, env.requester?.key) : { state };
}

async function resolveApproval(
  { state, approver }: { state: ApprovalState; approver?: string },
  tool: AnyTool,
  args: CallArgs,
  ctx: ToolContext,
  f: FormatContext,
  write: Write,
  approvalId: string,
): Promise<ToolAnswer> {
  const audited = { tool: tool.name, args, channel: 'approval-page', approvalId };
  switch (state) {
    case 'approved':
      return executeAudited(tool, args, ctx, f, write, 'approval-page', approver, approvalId);
    case 'declined':
      return declinedAnswer(tool.name, 'declined');
    case 'pending':
      return stillPending(tool.name, approvalId);
    default:
      await write({ ...audited, outcome: 'rejected', error: `approval ${state}` });
      throw new ToolInputError(approvalProblem(state, approvalId, tool.name));
  }
}

async function execute(tool: AnyTool, args: CallArgs, ctx: ToolContext, f: FormatContext) {
  // Names are looked up alongside the call's reads; under a rate limit of ours, after them.
  const learning = () => ctx.names.learn(args, ctx.signal);
  const [result] = ctx.api.budget?.limited
    ? [await tool.run(ctx, args), await learning()]
    : await Promise.all([tool.run(ctx, args), learning()]);
  return tool.format(result, args, f) as ToolAnswer;
}

/** Writes an audit entry with who asked (and through which client) and the installation added. */
type Write = (e: Omit<AuditEntry, 'requester' | 'client' | 'platform'>) => Promise<void>;

function whoOf(env: CallEnv): Pick<AuditEntry, 'requester' | 'client'> {
  const r = env.requester;
  return r ? { requester: r.person, client: r.client } : {};
}

async function executeAudited(
  tool: AnyTool,
  args: CallArgs,
  ctx: ToolContext,
  f: FormatContext,
  write: Write,
  channel: string,
  approver?: string,
  approvalId?: string,
): Promise<ToolAnswer> {
  const decided = { channel, ...(approver ? { approver } : {}), ...(approvalId ? { approvalId } : {}) };
  try {
    const answer = await execute(tool, args, ctx, f);
    await write({ tool: tool.name, args, outcome: 'executed', ...decided });
    return executedAnswer(answer);
  } catch (e) {
    const status = (e as { status?: number }).status;
    const unknown = mayHaveApplied(e);
    await write({
      tool: tool.name,
      args,
      outcome: unknown ? 'unknown' : 'failed',
      ...decided,
      status,
      error: (e as Error).message,
    });
    if (unknown && e instanceof ApiError)
      throw new ApiError({
        status: e.status,
        errorCode: e.errorCode,
        method: e.method,
        path: e.path,
        uncertain: true,
        cause: e,
        message: `${e.message} ${uncertainAdvice(tool.name, tool.checkWith)}`,
      });
    throw e;
  }
}

/** A change sent without an answer (lost connection, time-out, cancellation while in flight). */
function mayHaveApplied(e: unknown): boolean {
  if (e instanceof ApiError) return e.uncertain;
  return e instanceof Error && (e.name === 'AbortError' || e.name === 'TimeoutError');
}

function defaultPreview(tool: AnyTool, args: Record<string, unknown>): Preview {
  return {
    action: tool.title,
    target: Object.fromEntries(Object.entries(args).map(([k, v]) => [k, String(v)])),
  };
}
