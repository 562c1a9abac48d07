// completion/complete for references this server does not offer.
import { type McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

type CompletionHooks = Record<
  'handlePromptCompletion' | 'handleResourceCompletion',
  (request: unknown, ref: unknown) => Promise<unknown>
>;

/**
 * completion/complete for a prompt or resource template this server does not offer answers an empty list
 * instead of an InvalidParams error: clients probe with references of their own, and the MCP conformance
 * suite requires an answer. Wraps the SDK's two lookup methods (SDK 2.4; they are not public).
 */
export function answerUnknownCompletionRefs(server: McpServer): void {
  const hooks = server as unknown as CompletionHooks;
  for (const name of ['handlePromptCompletion', 'handleResourceCompletion'] as const) {
    const lookup = hooks[name];
    if (typeof lookup !== 'function') continue;
    hooks[name] = async (request, ref) => {
      try {
        return await lookup.call(server, request, ref);
      } catch (e) {
        if (
          e instanceof ProtocolError &&
          e.code === ProtocolErrorCode.InvalidParams &&
          / not found$/.test(e.message)
        )
          return { completion: { values: [], total: 0, hasMore: false } };
        throw e;
      }
    };
  }
}
