// Consent on the approval page: the call answers with a link to a page where a person sees the preview and
// approves or declines; the call then resumes with its approvalId. The page records the decision (and the
// decision point decides who may make it); on the desktop the call may wait for it here.
import { approvalNeeded, approvalProblem, waitingFor } from '../../format/consent.js';
import { ToolInputError } from '../../tool/index.js';
import type { ApprovalChannel, ApprovalState, Channel, GuardedCall, Outcome } from './types.js';

const NAME = 'approval-page';

export const approvalPageChannel: Channel<string> = {
  name: NAME,
  argument: { name: 'approvalId', maxLength: 200 },
  proofOf: (args) => (typeof args.approvalId === 'string' ? args.approvalId : undefined),
  available: (call) => call.deps.approvals !== undefined && call.deps.config.confirmVia.includes(NAME),
  async ask(call) {
    const approvals = call.deps.approvals as ApprovalChannel;
    const preview = await call.preview();
    const pending = await approvals.create({
      tool: call.tool.name,
      title: call.tool.title,
      hash: call.hash,
      args: call.args,
      preview,
      risks: call.risks,
      ...(call.env.requester ? { requester: call.env.requester } : {}),
    });
    // On record before the person can decide (the page writes "confirmed" when they do).
    await call.write({
      tool: call.tool.name,
      args: call.args,
      outcome: 'approval_pending',
      channel: NAME,
      approvalId: pending.approvalId,
    });
    if (call.deps.config.approvalOpen && approvals.wait) {
      approvals.open?.(pending.url);
      const taken = await waitForDecision(call, pending.approvalId, pending.url);
      if (taken.state !== 'pending') return outcomeOf(taken, call, pending.approvalId);
    }
    return { answer: approvalNeeded(call.tool.name, preview, pending, call.f) };
  },
  async resume(call, approvalId) {
    const approvals = call.deps.approvals;
    if (!approvals || !call.deps.config.confirmVia.includes(NAME))
      throw new ToolInputError('The approval page is not enabled on this server; approvalId cannot be used.');
    let taken = await approvals.take(approvalId, call.tool.name, call.hash, call.env.requester?.key);
    // Desktop use: the person may be deciding right now, so wait for them here too.
    if (taken.state === 'pending' && call.deps.config.approvalOpen && approvals.wait)
      taken = await waitForDecision(call, approvalId, '');
    return outcomeOf(taken, call, approvalId);
  },
};

function outcomeOf(
  {
    state,
    approver,
    approverName,
    approverAddress,
  }: { state: ApprovalState; approver?: string; approverName?: string; approverAddress?: string },
  call: GuardedCall,
  approvalId: string,
): Outcome {
  switch (state) {
    case 'approved':
      return {
        kind: 'approved',
        channel: NAME,
        approvalId,
        recorded: true,
        ...(approver ? { approver } : {}),
        ...(approverName ? { approverName } : {}),
        ...(approverAddress ? { approverAddress } : {}),
      };
    case 'declined':
      return { kind: 'declined', channel: NAME, how: 'declined', approvalId, recorded: true };
    case 'pending':
      return { kind: 'pending', approvalId };
    default:
      return {
        kind: 'rejected',
        channel: NAME,
        approvalId,
        error: `approval ${state}`,
        message: approvalProblem(state, approvalId, call.tool.name),
      };
  }
}

/** Waits for the person's decision with progress notifications; an approval is taken (used) at once. */
async function waitForDecision(
  call: GuardedCall,
  approvalId: string,
  url: string,
): Promise<{ state: ApprovalState; approver?: string; approverName?: string; approverAddress?: string }> {
  const approvals = call.deps.approvals as ApprovalChannel;
  if (!approvals.wait) return { state: 'pending' };
  const { ctx } = call;
  const total = call.deps.config.approvalWaitMs;
  await ctx.progress(0, total, waitingFor(url));
  const state = await approvals.wait(approvalId, total, ctx.signal, (ms) => {
    void ctx.progress(Math.min(ms, total), total, waitingFor(url));
  });
  return state === 'approved'
    ? await approvals.take(approvalId, call.tool.name, call.hash, call.env.requester?.key)
    : { state };
}
