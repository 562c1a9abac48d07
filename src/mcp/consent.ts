// Consent by elicitation, written once for both protocol eras: the guard's question becomes an
// `input_required` result (2026-07-28 clients answer it in a retried call; on 2025 connections the SDK's
// legacy shim sends a real elicitation/create and re-enters the handler). The state that carries the
// question through the client is sealed with our HMAC key, bound to the principal and the method, and
// expires; the SDK verifies it on every round before the handler runs, and the guard then checks the tool,
// the canonical arguments and single use.
import { randomBytes } from 'node:crypto';
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type ClientCapabilities,
  createRequestStateCodec,
  type Implementation,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Person } from '../identity/index.js';
import type { CallEnv, ConsentAnswer, ConsentQuestion, Requester } from '../policy/guard.js';
import type { Signer } from '../policy/signer.js';
import { clientLabel } from '../untrusted.js';
import { addressOf } from './person.js';

/** What the sealed requestState holds: no secret, only what the answer is bound to. */
interface Sealed {
  tool: string;
  hash: string;
  nonce: string;
  askedAtMs: number;
  expiresAtMs: number;
}

const requestedSchema = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const, title: 'Apply this change', default: false } },
  required: ['confirm'],
};

/** Who is asking: the person (HTTP: from their token), the 2025 session (if any), and the method. */
function principal(ctx: ServerContext): string {
  return [ctx.mcpReq.method, ctx.http?.authInfo?.clientId ?? '', ctx.sessionId ?? ''].join('\0');
}

export function consentCodec(signer: Signer, ttlMs: number): RequestStateCodec<Sealed> {
  return createRequestStateCodec<Sealed>({
    key: new Uint8Array(signer.derive('mcp-request-state')),
    ttlSeconds: Math.max(60, Math.ceil(ttlMs / 1000)),
    bind: principal,
  });
}

/**
 * Who asks: the person, with the client's name and version (from initialize on 2025, from the request's
 * envelope on 2026-07-28). An approval is resumed by the 2025 session, or without one by the person and
 * client together.
 */
function requesterOf(server: McpServer, ctx: ServerContext, person: Person): Requester {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const info =
    (envelope?.[CLIENT_INFO_META_KEY] as Implementation | undefined) ?? server.server.getClientVersion();
  // A client's self-chosen name is untrusted text: sanitized and bounded here, where it enters.
  const client = clientLabel(`${info?.name ?? '?'} ${info?.version ?? '?'}`);
  const key = ctx.sessionId ? `session:${ctx.sessionId}` : `client:${person.id}:${client}`;
  const address = addressOf(ctx.http?.authInfo);
  return {
    person: person.id,
    ...(person.name && person.name !== person.id ? { name: person.name } : {}),
    ...(person.address ? { personAddress: person.address } : {}),
    client,
    key,
    ...(ctx.sessionId ? { session: ctx.sessionId } : {}),
    ...(address ? { address } : {}),
  };
}

/** The client's capabilities for this request: per request on 2026-07-28, from initialize on 2025. */
export function capabilitiesOf(server: McpServer, ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (
    (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ??
    server.server.getClientCapabilities()
  );
}

function canElicit(server: McpServer, ctx: ServerContext): boolean {
  return formElicitation(capabilitiesOf(server, ctx)?.elicitation);
}

/** `elicitation: {}` declares form mode (the spec's reading, and what several clients send); `{ url: {} }` alone does not. */
function formElicitation(e: ClientCapabilities['elicitation']): boolean {
  if (!e) return false;
  const declared = e as { form?: unknown; url?: unknown };
  return declared.form !== undefined || declared.url === undefined;
}

/** The guard's view of this round: can the client elicit, and the person's answer if this round carries one. */
export function consentEnv(server: McpServer, ctx: ServerContext, person: Person): CallEnv {
  const sealed = ctx.mcpReq.requestState<Sealed>();
  const env: CallEnv = {
    session: ctx.sessionId,
    requester: requesterOf(server, ctx, person),
    canElicit: canElicit(server, ctx),
  };
  if (!sealed) return env;
  const view = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  let action: ConsentAnswer['action'] = 'cancel';
  if (view.kind === 'elicit')
    action = view.action === 'accept' ? (view.content?.confirm === true ? 'accept' : 'decline') : view.action;
  return { ...env, answer: { ...sealed, action } };
}

/** The guard's question as an `input_required` result whose state only this server can have minted. */
export async function askPerson(
  q: ConsentQuestion,
  codec: RequestStateCodec<Sealed>,
  ctx: ServerContext,
  ttlMs: number,
): Promise<InputRequiredResult> {
  const askedAtMs = Date.now();
  const requestState = await codec.mint(
    {
      tool: q.ask.tool,
      hash: q.ask.hash,
      nonce: randomBytes(12).toString('base64url'),
      askedAtMs,
      expiresAtMs: askedAtMs + ttlMs,
    },
    ctx,
  );
  return inputRequired({
    inputRequests: { confirm: inputRequired.elicit({ message: q.ask.message, requestedSchema }) },
    requestState,
  });
}

export type ToolResult = CallToolResult | InputRequiredResult;
