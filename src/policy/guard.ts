// The policy layer every tool call passes through, whatever the client claims: a guarded call changes
// nothing until a person consents through one of three channels (elicitation, the approval page, a
// confirmation token), each bound to the exact arguments, single use, expiring, and audited.
import type { AnyTool, FormatContext, Preview, ToolAnswer, ToolContext } from '../../tools/define.js';
import { ToolInputError } from '../../tools/define.js';
import { ApiError } from '../api/errors.js';
import type { Channel, Config } from '../config.js';
import { fields, when } from '../format/markdown.js';
import { isSecretKey, redact } from '../format/redact.js';
import { cell } from '../format/untrusted.js';
import type { AuditLog } from './audit.js';
import { argsHash } from './canonical.js';
import { kindOf, needsConsent } from './consent.js';
import type { TokenSigner } from './tokens.js';

export type ApprovalState = 'pending' | 'approved' | 'declined' | 'expired' | 'unknown' | 'used' | 'mismatch';

export interface PendingApproval {
  approvalId: string;
  url: string;
  expiresAt: Date;
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
    /** Who asked (the MCP session): pending approvals are capped per owner as well as in total. */
    owner?: string;
  }): Promise<PendingApproval>;
  /** Current state; when approved and bound to this tool and hash, marks it used (it executes once). */
  take(approvalId: string, tool: string, hash: string): Promise<ApprovalState>;
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
  canElicit: boolean;
  elicit(message: string): Promise<'accept' | 'decline' | 'cancel'>;
}

export interface GuardDeps {
  config: Pick<Config, 'confirm' | 'confirmVia' | 'approvalOpen' | 'approvalWaitMs'>;
  tokens: TokenSigner;
  audit: AuditLog;
  approvals?: ApprovalChannel;
}

/** Models send null or "" for a consent field they leave out: that means "not given". */
const given = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export async function callTool(
  tool: AnyTool,
  rawArgs: Record<string, unknown>,
  ctx: ToolContext,
  env: CallEnv,
  deps: GuardDeps,
  f: FormatContext,
): Promise<ToolAnswer> {
  const { confirmationToken: rawToken, approvalId: rawApproval, ...args } = rawArgs;
  const confirmationToken = given(rawToken);
  const approvalId = given(rawApproval);
  const kind = kindOf(tool, args);
  if (kind === 'read') return execute(tool, args, ctx, f);
  const audited = { tool: tool.name, args };
  if (!needsConsent(kind, deps.config.confirm)) return executeAudited(tool, args, ctx, f, deps.audit, 'none');

  const hash = argsHash(tool.name, args);
  const allowed = new Set(deps.config.confirmVia);

  if (confirmationToken !== undefined) {
    if (!allowed.has('token'))
      throw new ToolInputError('Confirmation tokens are disabled here (DBOPS_CONFIRM_VIA).');
    const check = await deps.tokens.redeem(confirmationToken, tool.name, hash);
    if (check !== 'ok') {
      await deps.audit.write({ ...audited, outcome: 'rejected', channel: 'token', error: `token ${check}` });
      throw new ToolInputError(tokenProblem(check, tool.name));
    }
    await deps.audit.write({ ...audited, outcome: 'confirmed', channel: 'token' });
    return executeAudited(tool, args, ctx, f, deps.audit, 'token');
  }

  if (approvalId !== undefined) {
    if (!deps.approvals || !allowed.has('approval-page'))
      throw new ToolInputError('The approval page is not enabled on this server; approvalId cannot be used.');
    let state = await deps.approvals.take(approvalId, tool.name, hash);
    if (state === 'pending' && deps.config.approvalOpen && deps.approvals.wait) {
      // Desktop use: the person may be deciding right now, so wait for them here too.
      state = await waitForDecision(deps.approvals, approvalId, tool.name, hash, deps, ctx, '');
    }
    return resolveApproval(state, tool, args, ctx, f, deps, approvalId);
  }

  // Masked once here: every channel below shows this preview to the model or the person.
  const preview = redactPreview(tool.preview ? await tool.preview(ctx, args) : defaultPreview(tool, args));
  const channel = pickChannel(deps.config.confirmVia, env, deps);

  if (channel === 'elicitation') {
    const action = await env.elicit(previewText(preview, tool));
    if (action !== 'accept') {
      await deps.audit.write({ ...audited, outcome: 'declined', channel });
      return declined(tool, preview, f, action === 'cancel' ? 'cancelled' : 'declined');
    }
    await deps.audit.write({ ...audited, outcome: 'confirmed', channel });
    return executeAudited(tool, args, ctx, f, deps.audit, channel);
  }

  if (channel === 'approval-page' && deps.approvals) {
    const approvals = deps.approvals;
    const pending = await approvals.create({
      tool: tool.name,
      title: tool.title,
      hash,
      args,
      preview,
      owner: env.session,
    });
    await deps.audit.write({
      ...audited,
      outcome: 'approval_pending',
      channel,
      approvalId: pending.approvalId,
    });
    if (deps.config.approvalOpen && approvals.wait) {
      approvals.open?.(pending.url);
      const state = await waitForDecision(
        approvals,
        pending.approvalId,
        tool.name,
        hash,
        deps,
        ctx,
        pending.url,
      );
      if (state !== 'pending') return resolveApproval(state, tool, args, ctx, f, deps, pending.approvalId);
    }
    return approvalPending(tool, preview, pending, f);
  }

  const { token, expiresAt } = deps.tokens.issue(tool.name, hash);
  await deps.audit.write({ ...audited, outcome: 'confirmation_required', channel: 'token' });
  const text = [
    `## Confirmation needed — nothing has changed yet`,
    previewMarkdown(preview, f),
    '',
    `Show this to the person and ask whether to go ahead. Only if they agree, call \`${tool.name}\` again with the same arguments plus \`confirmationToken\`: "${token}" (single use, expires ${when(expiresAt.toISOString(), f.now)}). Any other argument makes the token invalid.`,
  ].join('\n');
  return {
    text,
    structured: {
      outcome: 'confirmation_required',
      preview,
      confirmation: { channel: 'token', confirmationToken: token, expiresAt: expiresAt.toISOString() },
      nextStep: `Show the preview to the person. Only if they agree, call ${tool.name} again with the same arguments plus confirmationToken.`,
    },
  };
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
  deps: GuardDeps,
  ctx: ToolContext,
  url: string,
): Promise<ApprovalState> {
  if (!approvals.wait) return 'pending';
  const total = deps.config.approvalWaitMs;
  const where = url ? ` at ${url}` : ' on the approval page';
  await ctx.progress(0, total, `Waiting for the person to approve or decline${where}`);
  const state = await approvals.wait(approvalId, total, ctx.signal, (ms) => {
    void ctx.progress(Math.min(ms, total), total, `Waiting for the person to approve or decline${where}`);
  });
  return state === 'approved' ? await approvals.take(approvalId, tool, hash) : state;
}

async function resolveApproval(
  state: ApprovalState,
  tool: AnyTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  f: FormatContext,
  deps: GuardDeps,
  approvalId: string,
): Promise<ToolAnswer> {
  const audited = { tool: tool.name, args, channel: 'approval-page', approvalId };
  switch (state) {
    case 'approved':
      return executeAudited(tool, args, ctx, f, deps.audit, 'approval-page');
    case 'declined':
      return {
        text: `Declined by the person — nothing changed. Do not retry \`${tool.name}\` unless they ask again.`,
        structured: {
          outcome: 'declined',
          nextStep: `Nothing changed. Do not retry ${tool.name} unless the person asks again.`,
        },
      };
    case 'pending':
      return {
        text: `Approval ${approvalId} is still pending — nothing has changed. Wait for the person to decide on the approval page, then call \`${tool.name}\` again with the same arguments and this approvalId.`,
        structured: {
          outcome: 'approval_pending',
          confirmation: { channel: 'approval-page', approvalId },
          nextStep: `Wait for the person to decide on the approval page, then call ${tool.name} again with the same arguments and approvalId.`,
        },
      };
    case 'mismatch':
      await deps.audit.write({ ...audited, outcome: 'rejected', error: 'approval mismatch' });
      throw new ToolInputError(
        `Approval ${approvalId} was given for a different tool or different arguments. Call ${tool.name} with exactly the arguments that were approved, or without approvalId to ask again.`,
      );
    default:
      await deps.audit.write({ ...audited, outcome: 'rejected', error: `approval ${state}` });
      throw new ToolInputError(
        `Approval ${approvalId} is ${state === 'used' ? 'already used' : state === 'expired' ? 'expired' : 'unknown'}; nothing changed. Call ${tool.name} without approvalId to ask the person again.`,
      );
  }
}

async function execute(tool: AnyTool, args: Record<string, unknown>, ctx: ToolContext, f: FormatContext) {
  return tool.format(await tool.run(ctx, args), args, f) as ToolAnswer;
}

async function executeAudited(
  tool: AnyTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  f: FormatContext,
  audit: AuditLog,
  channel: string,
): Promise<ToolAnswer> {
  try {
    const answer = await execute(tool, args, ctx, f);
    await audit.write({ tool: tool.name, args, outcome: 'executed', channel });
    return {
      text: answer.text,
      structured: {
        outcome: 'executed',
        result: answer.structured,
        nextStep: 'Done: tell the person what changed.',
      },
    };
  } catch (e) {
    const status = (e as { status?: number }).status;
    const unknown = mayHaveApplied(e);
    await audit.write({
      tool: tool.name,
      args,
      outcome: unknown ? 'unknown' : 'failed',
      channel,
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
        message: `${e.message} Check with ${tool.checkWith ?? 'the matching list or get tool'} whether it was before doing anything else, and tell the person; do not repeat ${tool.name} blindly, it could apply the change twice.`,
      });
    throw e;
  }
}

/** A change sent without an answer (lost connection, time-out, cancellation while in flight). */
function mayHaveApplied(e: unknown): boolean {
  if (e instanceof ApiError) return e.uncertain;
  return e instanceof Error && (e.name === 'AbortError' || e.name === 'TimeoutError');
}

function tokenProblem(check: string, tool: string): string {
  const again = `Call ${tool} again without confirmationToken to get a new preview and token, and ask the person again.`;
  switch (check) {
    case 'expired':
      return `The confirmation token has expired; nothing changed. ${again}`;
    case 'used':
      return `The confirmation token was already used; nothing changed. ${again}`;
    case 'mismatch':
      return `The confirmation token was issued for other arguments; nothing changed. Tokens are bound to the exact arguments. ${again}`;
    default:
      return `The confirmation token is not valid; nothing changed. ${again}`;
  }
}

function defaultPreview(tool: AnyTool, args: Record<string, unknown>): Preview {
  return {
    action: tool.title,
    target: Object.fromEntries(Object.entries(args).map(([k, v]) => [k, String(v)])),
  };
}

/**
 * Masks secrets in a preview, including a change whose field itself names a secret (apiKey: a → b), which
 * redact() alone cannot see. The previews below are rendered from its result only.
 */
export function redactPreview(p: Preview): Preview {
  const masked = (field: string, v: unknown) => {
    const key = field.split('.').pop() ?? field;
    return isSecretKey(key) ? redact({ [key]: v })[key] : redact(v);
  };
  return {
    action: p.action,
    target: redact(p.target),
    ...(p.current ? { current: redact(p.current) } : {}),
    ...(p.changes
      ? {
          changes: p.changes.map((c) => ({
            field: c.field,
            from: masked(c.field, c.from),
            to: masked(c.field, c.to),
          })),
        }
      : {}),
    ...(p.notes ? { notes: [...p.notes] } : {}),
  };
}

function changeLine(c: NonNullable<Preview['changes']>[number]): string {
  return `${c.field}: ${cell(c.from ?? '(none)', 200)} → ${cell(c.to ?? '(none)', 200)}`;
}

/** Plain text for an elicitation message (shown by the client to the person). */
function previewText(p: Preview, tool: AnyTool): string {
  const lines = [`${tool.title}: ${cell(p.action, 300)}`];
  for (const [k, v] of Object.entries(p.target)) lines.push(`${k}: ${cell(v, 200)}`);
  for (const c of p.changes ?? []) lines.push(changeLine(c));
  for (const n of p.notes ?? []) lines.push(cell(n, 300));
  lines.push('Apply this change?');
  return lines.join('\n');
}

/** Markdown for the model: action and target, then the platform's current values fenced as data. */
function previewMarkdown(p: Preview, f: FormatContext): string {
  const parts = [fields([['Action', p.action], ...Object.entries(p.target)])];
  const data: string[] = [];
  if (p.current) data.push(fields(Object.entries(p.current)));
  for (const c of p.changes ?? []) data.push(changeLine(c));
  if (data.length) parts.push(f.fence.notice, f.fence.wrap(data.join('\n')));
  for (const n of p.notes ?? []) parts.push(`- ${n}`);
  return parts.join('\n');
}

function declined(
  tool: AnyTool,
  preview: Preview,
  f: FormatContext,
  how: 'declined' | 'cancelled',
): ToolAnswer {
  return {
    text: `The person ${how} — nothing changed.\n${previewMarkdown(preview, f)}\nDo not retry \`${tool.name}\` unless they ask again.`,
    structured: {
      outcome: 'declined',
      preview,
      nextStep: `Nothing changed. Do not retry ${tool.name} unless the person asks again.`,
    },
  };
}

function approvalPending(
  tool: AnyTool,
  preview: Preview,
  pending: PendingApproval,
  f: FormatContext,
): ToolAnswer {
  const text = [
    `## Approval needed — nothing has changed yet`,
    previewMarkdown(preview, f),
    '',
    `**Approval page**: ${pending.url}`,
    `**approvalId**: ${pending.approvalId} (expires ${when(pending.expiresAt.toISOString(), f.now)})`,
    '',
    `Show the link to the person so they can approve or decline. Once they have decided, call \`${tool.name}\` again with the same arguments plus approvalId "${pending.approvalId}".`,
  ].join('\n');
  return {
    text,
    structured: {
      outcome: 'approval_pending',
      preview,
      confirmation: {
        channel: 'approval-page',
        approvalId: pending.approvalId,
        url: pending.url,
        expiresAt: pending.expiresAt.toISOString(),
      },
      nextStep: `Show the approval link to the person. Once they have decided, call ${tool.name} again with the same arguments plus approvalId.`,
    },
  };
}
