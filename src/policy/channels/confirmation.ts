// Consent by confirmation token: the first call answers with a preview and a single-use token bound to the
// tool and its arguments; the person's "yes" is the model passing it back. Never for a four-eyes change:
// the token comes back through the asker's own client.
import { confirmationNeeded, confirmationProblem } from '../../format/consent.js';
import { ToolInputError } from '../../tool/index.js';
import type { Channel } from './types.js';

export const confirmationChannel: Channel<string> = {
  name: 'token',
  argument: { name: 'confirmationToken', maxLength: 1000 },
  proofOf: (args) => (typeof args.confirmationToken === 'string' ? args.confirmationToken : undefined),
  available: (call) => call.deps.config.confirmVia.includes('token') && !call.secondPerson,
  async ask(call) {
    const token = call.deps.signer.issue(call.tool.name, call.hash, call.env.requester?.person);
    return {
      answer: confirmationNeeded(call.tool.name, await call.preview(), token, call.f),
      audit: { outcome: 'confirmation_required', channel: 'token' },
    };
  },
  async resume(call, token) {
    if (!call.deps.config.confirmVia.includes('token'))
      throw new ToolInputError('Confirmation tokens are disabled here (DBOPS_CONFIRM_VIA).');
    const check = await call.deps.signer.redeem(token, call.tool.name, call.hash, call.env.requester?.person);
    if (check !== 'ok')
      return {
        kind: 'rejected',
        channel: 'token',
        error: `token ${check}`,
        message: confirmationProblem(check, call.tool.name),
      };
    return { kind: 'approved', channel: 'token', ...asker(call.env.requester?.person) };
  },
};

/** The token and the elicitation answer come back through the asker's own client: the asker decided. */
export const asker = (person: string | undefined) => (person ? { approver: person } : {});
