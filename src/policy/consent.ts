// What a change needs before it runs, decided in one place from the tool's kind and the live policy
// (DBOPS_CONFIRM). Every text that tells the model or the person whether a call asks first is generated
// from here, so it stays true under `destructive`, `write` and `never`.

import type { Config } from '../config/index.js';
import type { AnyTool, ToolKind } from '../tool/index.js';
import { maxKindOf } from '../tool/index.js';
import { type FourEyesSettings, riskWords, secondPersonRisks } from './decide.js';

type ConfirmPolicy = Config['confirm'];

export function kindOf(tool: AnyTool, args: Record<string, unknown>): ToolKind {
  return typeof tool.kind === 'function' ? tool.kind(args) : tool.kind;
}

export function needsConsent(kind: ToolKind, confirm: ConfirmPolicy): boolean {
  if (confirm === 'never' || kind === 'read') return false;
  return confirm === 'write' || kind === 'destructive';
}

/** Whether every call of the tool asks the person first under this policy (false for unknown tools). */
function alwaysAsks(tool: AnyTool | undefined, confirm: ConfirmPolicy): boolean {
  if (!tool) return false;
  // A kind that depends on the arguments asks for every call only when even its mildest form does.
  const mildest: ToolKind = typeof tool.kind === 'function' ? 'write' : tool.kind;
  return needsConsent(mildest, confirm);
}

/** The consent facts a text needs: ask by tool name. */
export interface ConsentFacts {
  confirm: ConfirmPolicy;
  asksFirst(toolName: string): boolean;
}

export function consentFacts(confirm: ConfirmPolicy, tools: AnyTool[]): ConsentFacts {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return { confirm, asksFirst: (name) => alwaysAsks(byName.get(name), confirm) };
}

/** The server instructions' sentence on changes, true under the live policy. */
export function consentInstruction(confirm: ConfirmPolicy): string {
  const show =
    'when a call answers with a preview, an approval link or a confirmation token, show it to the person and continue only after they decide. Never pass a token or approvalId the person did not approve.';
  switch (confirm) {
    case 'write':
      return `Every change (acknowledge, maintenance windows, users, keys, integrations, alert configurations) asks the person's consent through the server first: ${show}`;
    case 'destructive':
      return `Changes that delete, disable, grant access, mint keys, replace integration keys or make a maintenance window silence paging alerts ask the person's consent through the server first: ${show} Other changes (acknowledging alerts, other maintenance windows, enabling alert configurations) run at once: agree them with the person before calling.`;
    default:
      return 'This server applies every change at once, without asking the person (DBOPS_CONFIRM=never): agree each change with the person before calling a tool that changes anything.';
  }
}

/** Who decides under the live settings: the decision point's answer for a tool (four eyes), if any. */
export interface ConsentSettings {
  confirm: ConfirmPolicy;
  /** Under DBOPS_APPROVERS: which risks need a second person (DBOPS_FOUR_EYES); none when absent. */
  fourEyes?: FourEyesSettings;
}

/**
 * The sentence a change tool's description ends with: when it asks first, and when a second person decides,
 * from the same rules the guard applies (needsConsent, the tool's kinds, the decision point), so a change of
 * those rules or settings changes the descriptions too. Undefined for read tools.
 */
export function consentNote(tool: AnyTool, s: ConsentSettings): string | undefined {
  const max = maxKindOf(tool);
  if (max === 'read') return undefined;
  const mildest: ToolKind = typeof tool.kind === 'function' || tool.kindFromPreview ? 'write' : tool.kind;
  const ask = needsConsent(mildest, s.confirm)
    ? 'Asks first.'
    : needsConsent(max, s.confirm)
      ? `Asks first ${tool.asksWhen ?? 'when destructive'}.`
      : `Runs at once${s.confirm === 'never' ? ' (DBOPS_CONFIRM=never)' : ''}.`;
  const risks = s.fourEyes ? secondPersonRisks(tool.name, s.fourEyes) : [];
  if (!s.fourEyes || risks.length === 0) return ask;
  const settings = s.fourEyes;
  return `${ask} An approver, not the asker, decides when it ${risks.map((r) => riskWords(r, settings)).join(', or ')}.`;
}

/** Why a change ran without asking anyone, from the same rules that let it (its answer says so). */
export function unaskedWhy(tool: AnyTool, confirm: ConfirmPolicy): string {
  if (confirm === 'never') return 'DBOPS_CONFIRM=never applies every change at once';
  if (tool.asksWhen) return `it asks first only ${tool.asksWhen}, and this one does not`;
  return `DBOPS_CONFIRM=${confirm} asks first only for destructive changes, and this one is not`;
}

/** A tool's description as listed under these settings. */
export const describedAs = (tool: AnyTool, s: ConsentSettings) =>
  [tool.description, consentNote(tool, s)].filter(Boolean).join(' ');
