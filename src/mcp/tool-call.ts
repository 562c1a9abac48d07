// One tool call, as steps: which installation and who asks → refusals that need no platform (the token's
// scope, a read-only installation) → the call's context → the guard (consent, then the tool) → the answer as
// a result (src/mcp/answer.ts), or the consent question, or the error as text. Never a crash.
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { fanOut } from '../api/abort.js';
import { readAges } from '../api/cache.js';
import type { Person } from '../identity/index.js';
import { toolCallSeconds, toolCalls } from '../metrics.js';
import { type ConsentFacts, kindOf } from '../policy/consent.js';
import { callTool } from '../policy/guard.js';
import { type ClientSets, callableByName, notListedSet, type Toolsets } from '../policy/toolsets.js';
import type { AnyTool, ToolContext } from '../tool/index.js';
import { callNames } from '../tool/names.js';
import { newFence } from '../untrusted.js';
import { resultOf } from './answer.js';
import { askPerson, type consentCodec, consentEnv, type ToolResult } from './consent.js';
import type { PlatformRuntime, ServerDeps } from './deps.js';
import { errorMessage } from './errors.js';
import { handling } from './logging.js';
import { personOf } from './person.js';

/** What every call on one server shares. */
export interface CallScope {
  server: McpServer;
  deps: ServerDeps;
  /** Whom the server answers (a request's own token may narrow it). */
  person: Person;
  consent: ConsentFacts;
  codec: ReturnType<typeof consentCodec>;
  ttlMs: number;
  /** What the server offers this client, read at each call (enable_toolset changes the client's sets). */
  offer: Offer;
}

/** The tools one server allows, the toolsets, and the client's toolsets now (src/mcp/listing.ts keeps them). */
export interface Offer {
  tools: AnyTool[];
  sets: Toolsets;
  clientSets: ClientSets;
}

/** The set of a tool this client does not see now (hidden by a setting or outside its toolsets). */
const unlistedSet = (o: Offer, name: string) =>
  o.tools.some((x) => x.name === name) ? notListedSet(o.sets, o.clientSets, name) : undefined;

/** Whether this client may call a tool through call_read_tool. */
function byName(o: Offer, name: string): boolean {
  const tool = o.tools.find((t) => t.name === name);
  return tool !== undefined && callableByName(o.sets, o.clientSets, tool);
}

/** A call as it will run: on which installation, with which arguments, for whom. */
interface ResolvedCall {
  tool: AnyTool;
  platform: PlatformRuntime | undefined;
  args: Record<string, unknown>;
  api: ServerDeps['api'];
  asker: Person;
}

/** The deps' clock (tests set one), or the wall clock. */
const clockOf = (scope: CallScope): (() => Date) => scope.deps.now ?? (() => new Date());

/** The SDK handler of one tool. */
export function toolHandler(scope: CallScope, tool: AnyTool) {
  return (given: Record<string, unknown>, extra: ServerContext): Promise<ToolResult> =>
    handling.run(scope.server, () => answerCall(scope, tool, given, extra));
}

async function answerCall(
  scope: CallScope,
  tool: AnyTool,
  given: Record<string, unknown>,
  extra: ServerContext,
): Promise<ToolResult> {
  const call = resolveCall(scope, tool, given, extra);
  const refused = refusal(scope, call);
  if (refused) {
    toolCalls.inc({ tool: tool.name, outcome: 'error' });
    return { content: [{ type: 'text', text: refused }], isError: true };
  }
  const ctx = contextFor(scope, call, extra);
  const env = {
    ...consentEnv(scope.server, extra, call.asker),
    ...(scope.deps.elicitationChannel ? { elicitationChannel: scope.deps.elicitationChannel } : {}),
  };
  const reads: { oldestAt?: number } = {};
  const timer = toolCallSeconds.startTimer({ tool: tool.name });
  const counted = (outcome: string) => {
    toolCalls.inc({ tool: tool.name, outcome });
    timer();
  };
  try {
    const fence = newFence();
    const answer = await readAges.run(reads, () =>
      callTool(tool, call.args, ctx, env, scope.deps, {
        fence,
        now: clockOf(scope)(),
        detailed: call.args.responseFormat === 'detailed',
        asksFirst: scope.consent.asksFirst,
        names: ctx.names,
      }),
    );
    if ('ask' in answer) {
      counted('consent_asked');
      return await askPerson(answer, scope.codec, extra, scope.ttlMs);
    }
    counted(String((answer.structured as { outcome?: unknown }).outcome ?? 'ok'));
    return resultOf(answer, {
      tool,
      fenceTag: fence.tag,
      oldestAt: reads.oldestAt,
      maxOutputChars: scope.deps.config.maxOutputChars,
      clientSets: scope.offer.clientSets,
      unlistedSet: (name) => unlistedSet(scope.offer, name),
      byName: (name) => byName(scope.offer, name),
      server: scope.server,
      extra,
    });
  } catch (e) {
    const text = errorMessage(e, tool.name);
    counted('error');
    scope.deps.logger.debug('tool call failed', { tool: tool.name, error: text });
    return { content: [{ type: 'text', text }], isError: true };
  }
}

/**
 * The installation this call is for (named in the arguments, so consent is bound to it too), and who sends
 * this request, now: a 2025 session keeps its server, but each request carries its own token, and the
 * narrower of the two decides (a read-only token cannot change through a write session).
 */
function resolveCall(
  scope: CallScope,
  tool: AnyTool,
  given: Record<string, unknown>,
  extra: ServerContext,
): ResolvedCall {
  const several = scope.deps.platforms;
  const platform = several?.all.find((p) => p.name === (given.platform ?? several.default));
  return {
    tool,
    platform,
    args: platform ? { ...given, platform: platform.name } : given,
    api: platform?.api ?? scope.deps.api,
    asker: personOf(extra.http?.authInfo) ?? scope.person,
  };
}

/** Why a change is refused before anything is called (the token's scope, a read-only installation), if it is. */
function refusal(scope: CallScope, { tool, args, asker, platform }: ResolvedCall): string | undefined {
  if (!asker.canWrite && kindOf(tool, args) !== 'read') {
    const [, write] = scope.deps.config.oauthScopes;
    return `${tool.name} changes something, and the token of this request lacks the "${write}" scope (DBOPS_OAUTH_SCOPES); nothing was called. Use a token with that scope.`;
  }
  if (platform?.readOnly && kindOf(tool, args) !== 'read')
    return `Platform \`${platform.name}\` is read-only on this server (readOnly in DBOPS_PLATFORMS); nothing was called.`;
  return undefined;
}

/** What the tool runs with: the installation's client and defaults, cancellation, progress, names, secrets. */
function contextFor(scope: CallScope, { api, platform }: ResolvedCall, extra: ServerContext): ToolContext {
  const { deps } = scope;
  const progressToken = extra.mcpReq._meta?.progressToken;
  // A call reads its parts at once (a triage: a dozen lists, some paged), each listening on this signal.
  const signal = fanOut(extra.mcpReq.signal);
  return {
    api,
    defaults: platform ? platform.defaults : { projectId: deps.config.projectId, orgId: deps.config.orgId },
    ...(platform ? { platform: platform.name } : {}),
    signal,
    req: { signal },
    now: clockOf(scope),
    logger: deps.logger,
    names: callNames(api, deps.logger),
    secrets: deps.secrets,
    installationReadMs: deps.config.installationReadMs,
    progress: async (progress, total, message) => {
      if (progressToken === undefined) return;
      await extra.mcpReq
        .notify({
          method: 'notifications/progress',
          params: { progressToken, progress, total, message },
        })
        .catch(() => {});
    },
  };
}
