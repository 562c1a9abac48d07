// The policy layer every tool call passes through, whatever the client claims: a guarded call changes
// nothing until a person with the right to decide consents. The guard picks a channel (src/policy/channels/:
// elicitation, the approval page, a confirmation token) and writes the audit; whether the person who answered
// may decide is the decision point's (src/policy/decide.ts), asked once, here, for every channel.
import { freshReads } from '../api/cache.js';
import { ApiError } from '../api/errors.js';
import type { RoleAssignment } from '../api/types.js';
import { findHosts, resolveHost } from '../feeds/names.js';
import {
  declinedAnswer,
  executedAnswer,
  type Preview,
  redactPreview,
  stillPending,
  uncertainAdvice,
} from '../format/consent.js';
import { HOST_ID } from '../rules/index.js';
import type { AnyTool, FormatContext, ToolAnswer, ToolContext } from '../tool/index.js';
import { ALL_PROJECTS, type CallArgs, maxKindOf, ToolInputError, withDefaults } from '../tool/index.js';
import { withProjectIds } from '../tool/roles.js';
import type { AuditEntry } from './audit.js';
import { argsHash } from './canonical.js';
import { channelNamed, channels, proofArguments } from './channels/index.js';
import type {
  CallEnv,
  Channel,
  ConsentQuestion,
  GuardDeps,
  GuardedCall,
  Outcome,
  Write,
} from './channels/types.js';
import { kindOf, needsConsent, unaskedWhy } from './consent.js';
import { createDecisionPoint, DEFAULT_FOUR_EYES, risksNeedPreview, risksOf } from './decide.js';

export type {
  ApprovalChannel,
  ApprovalState,
  CallEnv,
  ConsentAnswer,
  ConsentQuestion,
  GuardDeps,
  PendingApproval,
  Requester,
} from './channels/types.js';

/** The runtime's decision point, or one with the configured approvers where nobody is told apart. */
const decisionsOf = (deps: GuardDeps) =>
  deps.decisions ??
  createDecisionPoint({
    approvers: deps.config.approvers ?? [],
    tellsPeopleApart: false,
    fourEyes: {
      fourEyes: deps.config.fourEyes ?? DEFAULT_FOUR_EYES.fourEyes,
      longWindowHours: deps.config.longWindowHours ?? DEFAULT_FOUR_EYES.longWindowHours,
    },
  });

/** How a person is named to people: the requester's address when it is them. */
const shownAs = (call: GuardedCall, person: string) =>
  call.env.requester?.person === person ? (call.env.requester.name ?? person) : person;

export async function callTool(
  tool: AnyTool,
  rawArgs: Record<string, unknown>,
  ctx: ToolContext,
  env: CallEnv,
  deps: GuardDeps,
  f: FormatContext,
): Promise<ToolAnswer | ConsentQuestion> {
  // A read asks nobody, and its input takes no proof (src/mcp/schemas.ts): the channels are for changes.
  const reads = maxKindOf(tool) === 'read';
  // null and "" were dropped at the boundary: a proof argument here is a real value. A proof the call brings
  // back belongs to one channel; the tool's own arguments are the rest.
  const proof = reads
    ? undefined
    : channels()
        .map((channel) => ({ channel, value: channel.proofOf(rawArgs, env) }))
        .find((p) => p.value !== undefined);
  const given = reads
    ? rawArgs
    : Object.fromEntries(
        Object.entries(rawArgs).filter(([k]) => !proofArguments().some((a) => a.name === k)),
      );
  // Defaults first, then the tool's own checks, once: every later step sees the same, checked arguments.
  const args = withDefaults(tool, await hostProject(tool, given, ctx), ctx.defaults);
  // A project given by name becomes its id here: consent, audit and the platform all see the id. "all" is
  // the whole installation, for the list tools that take it.
  if (args.projectId === ALL_PROJECTS && !tool.acrossProjects)
    throw new ToolInputError(
      `projectId "all" (every project) is for the list tools; ${tool.name} takes one project: its id or name (list_projects shows them).`,
    );
  if (typeof args.projectId === 'string' && args.projectId !== ALL_PROJECTS)
    args.projectId = await ctx.names.projectIdOf(args.projectId, ctx.signal);
  // So does a host given by name, in the project given (src/feeds/names.ts: one resolver for host names).
  if (typeof args.hostId === 'string' && !HOST_ID.test(args.hostId))
    args.hostId = (
      await resolveHost(ctx.api, args.hostId, { projectId: args.projectId, signal: ctx.signal })
    ).host.id;
  // So do projects named in roles' groupId: what the person approves is the project they saw, by its id.
  if (Array.isArray(args.roles) && args.roles.some((r) => typeof r === 'object'))
    args.roles = await withProjectIds(ctx, args.roles as RoleAssignment[]);
  tool.check?.(args, ctx.now());
  const kind = reads ? 'read' : kindOf(tool, args);
  if (kind === 'read') return execute(tool, args, ctx, f);
  // What a change is previewed and made from is read from the platform, never from kept answers.
  return freshReads(() => guarded(tool, args, kind, proof, ctx, env, deps, f));
}

/**
 * A host given by name without a project is looked for in the default project, then in every project: its
 * project becomes the call's. So is
 * an events target that names one host (a target that names none, or several, leaves the default project).
 */
async function hostProject(tool: AnyTool, given: Record<string, unknown>, ctx: ToolContext) {
  const { hostId, target, projectId } = given;
  if (!('projectId' in tool.input) || projectId !== undefined) return given;
  if (typeof hostId === 'string' && !HOST_ID.test(hostId)) {
    // The default project first (DBOPS_PROJECT_ID): a host there is the one meant; else every project.
    const home = ctx.defaults.projectId;
    const inHome = home
      ? await resolveHost(ctx.api, hostId, { projectId: home, signal: ctx.signal }).catch(() => undefined)
      : undefined;
    const hit = inHome ?? (await resolveHost(ctx.api, hostId, { signal: ctx.signal }));
    return { ...given, projectId: hit.projectId, hostId: hit.host.id };
  }
  if (typeof target === 'string' && 'target' in tool.input) {
    const s = await findHosts(ctx.api, target, { signal: ctx.signal }).catch(() => undefined);
    const hit = s?.hits.length === 1 ? s.hits[0] : undefined;
    if (hit) return { ...given, projectId: hit.projectId };
  }
  return given;
}

async function guarded(
  tool: AnyTool,
  args: CallArgs,
  kind: ReturnType<typeof kindOf>,
  proof: { channel: Channel<never>; value: unknown } | undefined,
  ctx: ToolContext,
  env: CallEnv,
  deps: GuardDeps,
  f: FormatContext,
): Promise<ToolAnswer | ConsentQuestion> {
  const who = { ...whoOf(env), ...(ctx.platform ? { platform: ctx.platform } : {}) };
  const write: Write = (e) => deps.audit.write({ ...e, ...who });
  // The preview, read once: for the risk a tool's preview shows, then for every channel.
  let preview: Promise<Preview> | undefined;
  const previewOnce = () => {
    preview ??= previewOf(tool, args, ctx);
    return preview;
  };
  // A tool whose risk only its preview shows (tool.kindFromPreview) asks when that risk needs it; who may
  // decide (four eyes) stays the tool's own.
  const c = deps.config.confirm;
  const risk =
    tool.kindFromPreview && tool.preview && !needsConsent(kind, c) && needsConsent('destructive', c)
      ? tool.kindFromPreview(await previewOnce(), args)
      : kind;
  // Under DBOPS_APPROVERS the risks this call carries (its kind and preview) say whether a second person
  // must decide; such a change asks first whatever its kind (DBOPS_CONFIRM=never aside).
  const decisions = decisionsOf(deps);
  const fourEyes = decisions.fourEyesOn && c !== 'never';
  const seen = fourEyes && risksNeedPreview(tool.name) && tool.preview ? await previewOnce() : undefined;
  const risks = fourEyes ? risksOf(tool.name, kind, seen, decisions.settings) : [];
  const secondPerson = decisions.secondPerson({ tool: tool.name, risks });
  if (!needsConsent(risk, c) && !secondPerson) {
    const quiet = preview && (await preview).quiet;
    const unasked = { why: unaskedWhy(tool, c), ...(quiet ? { quiet } : {}) };
    return executeAudited(tool, args, ctx, f, write, 'none', undefined, undefined, unasked);
  }

  const requester = env.requester?.person;
  // Four eyes where nobody can be told apart: whoever answered would be the asker. Nobody is asked.
  if (secondPerson && !decisions.tellsPeopleApart) {
    await write({ tool: tool.name, args, outcome: 'rejected', error: 'four eyes: people not told apart' });
    throw new ToolInputError(
      `${decisions.secondPersonText(secondPerson)} This server cannot tell people apart (stdio, one shared DBOPS_HTTP_TOKEN, or no sign-in), so nothing was changed and nobody was asked. Make this change through the team server, where each person signs in with their own token (DBOPS_HTTP_TOKENS_FILE or DBOPS_OAUTH_ISSUER).`,
    );
  }
  const call: GuardedCall = {
    tool,
    args,
    hash: argsHash(tool.name, args),
    ctx,
    env,
    deps,
    f,
    risks,
    secondPerson,
    write,
    preview: previewOnce,
  };

  // A proof the caller brought back: the channel it belongs to checks it.
  const outcome = proof ? await proof.channel.resume(call, proof.value as never) : undefined;
  if (outcome) return act(call, outcome, requester);

  const channel = pickChannel(call);
  const asked = await channel.ask(call);
  if ('kind' in asked) return act(call, asked, requester);
  if (asked.audit) await write({ tool: tool.name, args, ...asked.audit });
  return asked.answer;
}

/** What the guard does with a channel's outcome: execute only what a person with the right to decide approved. */
async function act(call: GuardedCall, o: Outcome, requester: string | undefined): Promise<ToolAnswer> {
  const { tool, args, ctx, f, write } = call;
  const audited = { tool: tool.name, args, channel: o.kind === 'pending' ? '' : o.channel };
  const ids = 'approvalId' in o && o.approvalId ? { approvalId: o.approvalId } : {};
  switch (o.kind) {
    case 'pending':
      return stillPending(tool.name, o.approvalId);
    case 'declined':
      if (o.recorded) return declinedAnswer(tool.name, o.how);
      await write({ ...audited, outcome: 'declined' });
      return declinedAnswer(tool.name, o.how, await call.preview(), f);
    case 'rejected':
      await write({ ...audited, ...ids, outcome: 'rejected', error: o.error });
      throw new ToolInputError(o.message);
  }
  // The one question every channel's "yes" must pass: does the decision of the person who gave it stand?
  const decider = o.approver ?? requester;
  const asker = call.env.requester;
  const refused = decider
    ? decisionsOf(call.deps).stands(
        { tool: tool.name, risks: call.risks, ...(asker ? { requester: asker } : {}) },
        o.approver !== undefined && o.approver !== asker?.person
          ? { person: o.approver, ...(o.approverAddress ? { address: o.approverAddress } : {}) }
          : { person: decider, ...(asker?.personAddress ? { address: asker.personAddress } : {}) },
      )
    : undefined;
  if (refused) {
    await write({ ...audited, ...ids, outcome: 'rejected', error: `decider ${refused}` });
    throw new ToolInputError(refusalText(call, refused, decider as string, o.channel));
  }
  if (!o.recorded)
    await write({
      ...audited,
      outcome: 'confirmed',
      ...(decider ? { approver: shownAs(call, decider) } : {}),
    });
  const shownApprover = o.approverName ?? (o.approver ? shownAs(call, o.approver) : undefined);
  return executeAudited(tool, args, ctx, f, write, o.channel, shownApprover, o.approvalId);
}

function refusalText(call: GuardedCall, refused: string, decider: string, channel: string): string {
  const name = call.tool.name;
  const decisions = decisionsOf(call.deps);
  if (refused === 'four-eyes')
    return `${decisions.secondPersonText(call.secondPerson, shownAs(call, decider))} A "yes" given through the asker's own ${channel === 'token' ? 'confirmation token' : channel} cannot approve it, so nothing changed. Call ${name} again without it: the answer is an approval link the person passes to an approver.`;
  if (refused === 'revoked')
    return `${shownAs(call, decider)} may no longer decide (their token or approver role was removed), so nothing changed.`;
  return `${shownAs(call, decider)} may not decide this request, so nothing changed.`;
}

function pickChannel(call: GuardedCall): Channel<never> {
  const order = call.deps.config.confirmVia;
  for (const name of order) {
    const channel = channelNamed(name);
    if (channel?.available(call)) return channel;
  }
  if (call.secondPerson)
    throw new ToolInputError(
      `${decisionsOf(call.deps).secondPersonText(call.secondPerson)} Approvers decide on the approval page, which is not enabled here (DBOPS_CONFIRM_VIA=${order.join(',')}), so nothing was changed. Ask the operator to enable the approval page.`,
    );
  throw new ToolInputError(
    `No confirmation channel is available for this client (DBOPS_CONFIRM_VIA=${order.join(',')}). Ask the operator to enable the approval page or the token channel.`,
  );
}

/** Masked once: every channel shows this preview to the model or the person. */
async function previewOf(tool: AnyTool, args: CallArgs, ctx: ToolContext): Promise<Preview> {
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
  // The names of the ids it targets, for views that show names (the action line names them already).
  const names = Object.fromEntries(
    Object.values(where.target)
      .map((id) => [id, ctx.names.nameOf(id)] as const)
      .filter((e): e is readonly [string, string] => e[1] !== undefined),
  );
  return redactPreview(Object.keys(names).length ? { ...where, names } : where);
}

async function execute(tool: AnyTool, args: CallArgs, ctx: ToolContext, f: FormatContext) {
  // Names are looked up alongside the call's reads; under a rate limit of ours, after them.
  const learning = () => ctx.names.learn(args, ctx.signal);
  const [result] = ctx.api.budget?.limited
    ? [await tool.run(ctx, args), await learning()]
    : await Promise.all([tool.run(ctx, args), learning()]);
  return tool.format(result, args, f) as ToolAnswer;
}

function whoOf(env: CallEnv): Pick<AuditEntry, 'requester' | 'client'> {
  const r = env.requester;
  return r ? { requester: r.name ?? r.person, client: r.client } : {};
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
  unasked?: { why: string; quiet?: string[] },
): Promise<ToolAnswer> {
  const decided = { channel, ...(approver ? { approver } : {}), ...(approvalId ? { approvalId } : {}) };
  try {
    const answer = await execute(tool, args, ctx, f);
    await write({ tool: tool.name, args, outcome: 'executed', ...decided });
    return executedAnswer(answer, unasked);
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
      throw e.withAdvice(uncertainAdvice(tool.name, tool.checkWith), { uncertain: true });
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
