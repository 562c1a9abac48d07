// What the consent flow says to the model and the person: the preview of a change and every answer a guarded
// call can give before, instead of, or after it runs. The policy layer (src/policy/guard.ts) decides; this
// module only words the decision, so the texts live in one place.

import { cell, type Fence } from '../untrusted.js';
import type { ToolAnswer } from './answers.js';
import { fields, when } from './markdown.js';
import { isSecretKey, redact } from './redact.js';

/** What a guarded tool will change, shown to the person before consent. */
export interface Preview {
  /** One line: "Delete maintenance window 65f… in project Prod (ends in 3 d)". Ids and the server's words only. */
  action: string;
  /** Target ids and names, e.g. {project: '…', window: '…'}. */
  target: Record<string, string>;
  /** Current state read from the API where an endpoint allows it (redacted before display). */
  current?: Record<string, unknown>;
  /** The change: field → {from, to}. */
  changes?: Array<{ field: string; from?: unknown; to?: unknown }>;
  /** Anything the person should know (e.g. "notifications muted by this window resume"). */
  notes?: string[];
  /**
   * The thing as it would be after the change, machine-readable and bounded (e.g. a maintenance window's ISO
   * times and alert types), for views that draw it (apps/); the texts above stay what a person reads.
   */
  proposed?: Record<string, unknown>;
  /** What a person calls the ids of `target` (id → name, where learned): views show the names, not the ids. */
  names?: Record<string, string>;
  /** What goes quiet, a line each (sanitized): said again by the answer of a change that ran without asking. */
  quiet?: string[];
}

interface Shown {
  fence: Fence;
  now: Date;
}

/**
 * Masks secrets in a preview, including a change whose field itself names a secret (apiKey: a → b), which
 * redact() alone cannot see. Every rendering below starts from its result.
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
    ...(p.proposed ? { proposed: redact(p.proposed) } : {}),
    ...(p.names ? { names: { ...p.names } } : {}),
    ...(p.quiet ? { quiet: [...p.quiet] } : {}),
  };
}

function changeLine(c: NonNullable<Preview['changes']>[number]): string {
  return `${c.field}: ${cell(c.from ?? '(none)', 200)} → ${cell(c.to ?? '(none)', 200)}`;
}

/** Plain text for an elicitation message (shown by the client to the person). */
export function previewText(p: Preview, title: string): string {
  const lines = [`${title}: ${cell(p.action, 300)}`];
  for (const [k, v] of Object.entries(p.target)) lines.push(`${k}: ${cell(v, 200)}`);
  for (const [k, v] of Object.entries(p.current ?? {})) lines.push(`${k} now: ${cell(v, 200)}`);
  for (const c of p.changes ?? []) lines.push(changeLine(c));
  for (const n of p.notes ?? []) lines.push(cell(n, 300));
  lines.push('Apply this change?');
  return lines.join('\n');
}

/** Markdown for the model: action and target, then the platform's current values fenced as data. */
function previewMarkdown(p: Preview, f: Shown): string {
  const parts = [fields([['Action', p.action], ...Object.entries(p.target)])];
  const data: string[] = [];
  if (p.current) data.push(fields(Object.entries(p.current)));
  for (const c of p.changes ?? []) data.push(changeLine(c));
  if (data.length) parts.push(f.fence.notice, f.fence.wrap(data.join('\n')));
  for (const n of p.notes ?? []) parts.push(`- ${cell(n, 400)}`);
  return parts.join('\n');
}

const again = (tool: string) => `call ${tool} again with the same arguments`;

export function confirmationNeeded(
  tool: string,
  preview: Preview,
  token: { token: string; expiresAt: Date },
  f: Shown,
): ToolAnswer {
  const text = [
    `## Confirmation needed — nothing has changed yet`,
    previewMarkdown(preview, f),
    '',
    `Show this to the person and ask whether to go ahead. Only if they agree, ${again(`\`${tool}\``)} plus \`confirmationToken\`: "${token.token}" (single use, expires ${when(token.expiresAt.toISOString(), f.now)}). Any other argument makes the token invalid.`,
  ].join('\n');
  return {
    text,
    structured: {
      outcome: 'confirmation_required',
      preview,
      confirmation: {
        channel: 'token',
        confirmationToken: token.token,
        expiresAt: token.expiresAt.toISOString(),
      },
      nextStep: `Nothing has changed yet. Show the preview to the person; only if they agree, ${again(tool)} plus confirmationToken "${token.token}".`,
    },
  };
}

export function approvalNeeded(
  tool: string,
  preview: Preview,
  pending: { approvalId: string; url: string; expiresAt: Date; otherApprover?: readonly string[] },
  f: Shown,
): ToolAnswer {
  // Under four eyes the person who asked can decline but not approve: say so, or the model promises otherwise.
  const rule = pending.otherApprover?.length
    ? ` (four-eyes rule: ${pending.otherApprover.join(', ')}; DBOPS_FOUR_EYES)`
    : '';
  const others = `an approver other than the person who asked (DBOPS_APPROVERS)${rule}`;
  const show = (link: string) =>
    pending.otherApprover
      ? `This change needs ${others}: show the ${link} to the person, who can pass it to an approver or decline it; once it is decided,`
      : `Show the ${link} to the person so they can approve or decline. Once they have decided,`;
  const text = [
    `## Approval needed — nothing has changed yet`,
    previewMarkdown(preview, f),
    '',
    `**Approval page**: ${pending.url}`,
    `**approvalId**: ${pending.approvalId} (expires ${when(pending.expiresAt.toISOString(), f.now)})`,
    '',
    `${show('link')} ${again(`\`${tool}\``)} plus approvalId "${pending.approvalId}".`,
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
      nextStep: pending.otherApprover
        ? `Nothing has changed yet. ${show(`approval link ${pending.url}`)} ${again(tool)} plus approvalId "${pending.approvalId}".`
        : `Nothing has changed yet. Show the approval link ${pending.url} to the person; once they have decided, ${again(tool)} plus approvalId "${pending.approvalId}".`,
    },
  };
}

export function stillPending(tool: string, approvalId: string): ToolAnswer {
  const step = `Wait for the person to decide on the approval page, then ${again(tool)} plus approvalId "${approvalId}".`;
  return {
    text: `Approval ${approvalId} is still pending — nothing has changed. ${step}`,
    structured: {
      outcome: 'approval_pending',
      confirmation: { channel: 'approval-page', approvalId },
      nextStep: `Nothing has changed yet. ${step}`,
    },
  };
}

/** The person said no (or closed the dialog): with the preview when there is one to show. */
export function declinedAnswer(
  tool: string,
  how: 'declined' | 'cancelled',
  preview?: Preview,
  f?: Shown,
): ToolAnswer {
  const dont = `Do not retry \`${tool}\` unless they ask again.`;
  const shown = preview && f ? `\n${previewMarkdown(preview, f)}\n` : ' ';
  return {
    text: `The person ${how} — nothing changed.${shown}${dont}`,
    structured: {
      outcome: 'declined',
      ...(preview ? { preview } : {}),
      nextStep: `Nothing changed: the person ${how}. Do not retry ${tool} unless they ask again.`,
    },
  };
}

/**
 * A change done. One that ran without asking says why (the consent rule that let it) and what goes quiet, so
 * the person hears of it from the answer, not from a silent pager.
 */
export function executedAnswer(answer: ToolAnswer, unasked?: { why: string; quiet?: string[] }): ToolAnswer {
  const said = unasked && [
    `Ran without asking: ${unasked.why}.`,
    ...(unasked.quiet?.length ? [`Goes quiet while it is in force: ${unasked.quiet.join('; ')}.`] : []),
  ];
  return {
    text: said ? `${answer.text}\n${said.join('\n')}` : answer.text,
    structured: {
      outcome: 'executed',
      result: answer.structured,
      ...(unasked
        ? { ranWithoutAsking: unasked.why, ...(unasked.quiet ? { quiet: unasked.quiet } : {}) }
        : {}),
      nextStep: unasked
        ? 'Done without asking: tell the person what changed and what goes quiet.'
        : 'Done: tell the person what changed.',
    },
  };
}

export function confirmationProblem(check: string, tool: string): string {
  const ask = `Call ${tool} again without confirmationToken to get a new preview and token, and ask the person again.`;
  switch (check) {
    case 'expired':
      return `The confirmation token has expired; nothing changed. ${ask}`;
    case 'used':
      return `The confirmation token was already used; nothing changed. ${ask}`;
    case 'mismatch':
      return `The confirmation token was issued for other arguments; nothing changed. Tokens are bound to the exact arguments. ${ask}`;
    case 'not-yours':
      return `The confirmation token was issued to another person; nothing changed. A token confirms only for the person who was asked. ${ask}`;
    default:
      return `The confirmation token is not valid here (not issued by this installation: DBOPS_TOKEN_SECRET and DBOPS_STATE_URL); nothing changed. ${ask}`;
  }
}

export function approvalProblem(state: string, approvalId: string, tool: string): string {
  if (state === 'foreign')
    return `Approval ${approvalId} belongs to the call that asked for it: another session or client asked for it; nothing changed. Call ${tool} without approvalId to ask the person yourself.`;
  if (state === 'mismatch')
    return `Approval ${approvalId} was given for a different tool or different arguments. Call ${tool} with exactly the arguments that were approved, or without approvalId to ask again.`;
  const why = state === 'used' ? 'already used' : state === 'expired' ? 'expired' : 'unknown';
  return `Approval ${approvalId} is ${why}; nothing changed. Call ${tool} without approvalId to ask the person again.`;
}

/** A change sent without an answer: it may have been applied, and only a read can tell. */
export function uncertainAdvice(tool: string, checkWith: string | undefined): string {
  return `Check with ${checkWith ?? 'the matching list or get tool'} whether it was before doing anything else, and tell the person; do not repeat ${tool} blindly, it could apply the change twice.`;
}

export const waitingFor = (url: string) =>
  `Waiting for the person to approve or decline${url ? ` at ${url}` : ' on the approval page'}`;
