// Consent by elicitation (a 2025 elicitation/create or a 2026 input_required round; src/mcp/consent.ts
// carries it): the client asks the person and the same call comes back with their answer, sealed and bound
// to the tool and arguments. Never for a four-eyes change: it would ask the person who asked.
import { previewText } from '../../format/consent.js';
import { ToolInputError } from '../../tool/index.js';
import { asker } from './confirmation.js';
import type { Channel, ConsentAnswer } from './types.js';

export const elicitationChannel: Channel<ConsentAnswer> = {
  name: 'elicitation',
  // The person's answer comes back with a later round of the same call (MCP input_required), not as an argument.
  proofOf: (_args, env) => env.answer,
  available: (call) =>
    call.deps.config.confirmVia.includes('elicitation') && call.env.canElicit && !call.secondPerson,
  async ask(call) {
    const message = previewText(await call.preview(), call.tool.title);
    return { answer: { ask: { tool: call.tool.name, hash: call.hash, message } } };
  },
  async resume(call, a) {
    const name = call.tool.name;
    const channel = call.env.elicitationChannel ?? 'elicitation';
    if (!call.deps.config.confirmVia.includes('elicitation'))
      throw new ToolInputError(
        'Consent by elicitation is disabled here (DBOPS_CONFIRM_VIA); nothing changed.',
      );
    const rejected = (error: string, message: string) => ({
      kind: 'rejected' as const,
      channel,
      error,
      message,
    });
    if (a.tool !== name || a.hash !== call.hash)
      return rejected(
        'answer for other arguments',
        `The person's answer was given for ${a.tool === name ? 'other arguments' : a.tool}; nothing changed. Call ${name} again without it to ask the person about exactly these arguments.`,
      );
    if (a.action !== 'accept')
      return { kind: 'declined', channel, how: a.action === 'cancel' ? 'cancelled' : 'declined' };
    // The answer's own expiry decides, whatever the seal around it still allows.
    // (Wall-clock time, as when the question was asked: the sealed expiry was computed from it.)
    if (a.expiresAtMs <= Date.now())
      return rejected(
        'answer expired',
        `The person's answer expired; nothing changed. Call ${name} again to ask the person again.`,
      );
    // A replayed round (same sealed state, same answer) must not apply the change a second time.
    if (!(await call.deps.signer.consume(`consent:${a.nonce}`, a.expiresAtMs, a.askedAtMs)))
      return rejected(
        'answer already used',
        `This consent was already used once; nothing changed now. Call ${name} again to ask the person again.`,
      );
    return { kind: 'approved', channel, ...asker(call.env.requester?.person) };
  },
};
