// The consent channels, registered once: the guard asks and resumes through them, and every change tool's input
// schema takes the arguments they read back (src/mcp/schemas.ts). A new channel is a module plus one line here;
// it is off until DBOPS_CONFIRM_VIA names it.
import { approvalPageChannel } from './approval-page.js';
import { confirmationChannel } from './confirmation.js';
import { elicitationChannel } from './elicitation.js';
import type { Channel } from './types.js';

const registered: Array<Channel<never>> = [
  elicitationChannel,
  approvalPageChannel,
  confirmationChannel,
] as Array<Channel<never>>;

/** The channels in the order they were registered. */
export const channels = (): readonly Channel<never>[] => registered;

/** The channel of this name, if one is registered. */
export const channelNamed = (name: string) => registered.find((c) => c.name === name);

/**
 * Adds a channel (a deployment's own, or a test's stand-in); its proof argument joins the input schemas.
 * Returns what takes it away again.
 */
export function registerChannel<Proof>(channel: Channel<Proof>): () => void {
  if (channelNamed(channel.name))
    throw new Error(`a consent channel named "${channel.name}" is registered already`);
  const added = channel as unknown as Channel<never>;
  registered.push(added);
  return () => {
    registered.splice(registered.indexOf(added), 1);
  };
}

/** The arguments calls carry back to resume, each with its longest value. */
export const proofArguments = () => registered.flatMap((c) => (c.argument ? [c.argument] : []));
