// The one decision point: may this person decide this request? Four eyes, revocation and who sees what are
// answered here and nowhere else; each consent channel (src/policy/channels/) only carries the question to a
// person and the answer back. Under DBOPS_APPROVERS a change needs a second person by its risk: which risks
// a call carries is decided from the tool's kind and its preview (risksOf), and DBOPS_FOUR_EYES says which of
// them need someone other than the asker. The table is docs/approval.md's.
import { type RiskCategory, riskCategories } from '../config/index.js';
import type { Preview } from '../format/consent.js';
import type { ToolKind } from '../tool/index.js';

export type { RiskCategory };

/** The risks each change tool can carry; which of them one call carries is risksOf's. */
export const TOOL_RISKS: Readonly<Record<string, readonly RiskCategory[]>> = {
  create_first_user: ['grant'],
  create_user: ['grant'],
  update_user_roles: ['grant'],
  create_org_api_key: ['key'],
  create_project_api_key: ['key'],
  delete_maintenance_window: ['deletion'],
  set_alert_config_enabled: ['disable-alerting'],
  put_integration: ['integration'],
  create_maintenance_window: ['window-pages', 'window-long'],
  update_maintenance_window: ['window-pages', 'window-long'],
};

/** DBOPS_FOUR_EYES and DBOPS_LONG_WINDOW_HOURS. */
export interface FourEyesSettings {
  fourEyes: readonly RiskCategory[];
  longWindowHours: number;
}

export const DEFAULT_FOUR_EYES: FourEyesSettings = { fourEyes: riskCategories, longWindowHours: 24 };

/**
 * Which of a tool's risks need a second person under these settings (any call of it may carry them): what a
 * tool's description and the server's instructions say. Pure.
 */
export function secondPersonRisks(tool: string, s: Pick<FourEyesSettings, 'fourEyes'>): RiskCategory[] {
  return (TOOL_RISKS[tool] ?? []).filter((r) => s.fourEyes.includes(r));
}

/** Whether a tool's risks can only be told from its preview (then the guard reads the preview first). */
export const risksNeedPreview = (tool: string) =>
  (TOOL_RISKS[tool] ?? []).some((r) => r === 'window-pages' || r === 'window-long');

const HOUR_MS = 3_600_000;
const ms = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : Number.NaN);

/** A window (as proposed) longer than the limit; for a change, only when it lengthens the window. */
function longWindow(p: Preview | undefined, hours: number): boolean {
  const after = ms(p?.proposed?.endDate) - ms(p?.proposed?.startDate);
  if (!(after > hours * HOUR_MS)) return false;
  const before = ms(p?.current?.endDate) - ms(p?.current?.startDate);
  return !(before >= after);
}

/** The risks one call carries, from the tool's kind and its preview. Pure. */
export function risksOf(
  tool: string,
  kind: ToolKind,
  preview: Preview | undefined,
  s: Pick<FourEyesSettings, 'longWindowHours'>,
): RiskCategory[] {
  return (TOOL_RISKS[tool] ?? []).filter((r) => {
    switch (r) {
      case 'disable-alerting':
        return kind === 'destructive';
      // Counted by the paging rule where the preview is drawn (tools/windows.ts), unknown counting as one.
      case 'window-pages':
        return Number(preview?.proposed?.pagesSilenced ?? 0) > 0;
      case 'window-long':
        return longWindow(preview, s.longWindowHours);
      default:
        return true;
    }
  });
}

/** How a person is known to the decision point: their identity, and the address approvers are listed by. */
export interface Who {
  /** The identity: an OAuth token's issuer and subject, a tokens-file entry, the OS user. */
  person: string;
  /** How they are listed in DBOPS_APPROVERS (a verified email, a tokens-file name); never a bare `sub`. */
  address?: string;
}

/** A person looking at a request (the approval page, a script, the requester's own client). */
interface Decider extends Who {
  /** Nobody else can reach the page (no identity configured: this machine's user alone). */
  alone?: boolean;
  /** False when their token lacks the write scope (DBOPS_OAUTH_SCOPES): they may not decide. */
  canWrite?: boolean;
}

/** A request as the decision point needs it: who asked, for which tool, and the risks its call carries. */
interface Decidable {
  tool: string;
  /** From risksOf when the request was made; absent: every risk the tool can carry. */
  risks?: readonly RiskCategory[];
  requester?: { person: string; personAddress?: string };
}

/** The requester as a Who (a Requester's `address` is where they connected from, not how they are listed). */
const askerOf = (r: NonNullable<Decidable['requester']>): Who => ({
  person: r.person,
  ...(r.personAddress ? { address: r.personAddress } : {}),
});

/** Why a person may not decide: not theirs to see, their own four-eyes request, no longer known, read-only. */
export type Refusal = 'not-yours' | 'four-eyes' | 'revoked' | 'read-only';

interface DecisionPointOptions {
  /** DBOPS_APPROVERS. */
  approvers: readonly string[];
  /** Whether each person has a token of their own (OAuth, named tokens): only then can four eyes hold. */
  tellsPeopleApart: boolean;
  /** Whether a person is still known now (a token-file line removed → false); always true when absent. */
  stillKnown?: (person: string) => boolean;
  /** DBOPS_FOUR_EYES and DBOPS_LONG_WINDOW_HOURS; all categories and 24 h when absent. */
  fourEyes?: FourEyesSettings;
}

export interface DecisionPoint {
  readonly tellsPeopleApart: boolean;
  /** Whether any approvers are configured. */
  readonly fourEyesOn: boolean;
  readonly settings: FourEyesSettings;
  isApprover(who: Who): boolean;
  /** The risks of this request that need a second person under the live settings, or undefined. */
  secondPerson(r: Decidable): readonly RiskCategory[] | undefined;
  /** The words for a four-eyes refusal: what the change does, who must decide, and the rule. */
  secondPersonText(risks: readonly RiskCategory[] | undefined, requester?: string): string;
  /** Whether the viewer may see the request at all. */
  maySee(r: Decidable, v: Decider): boolean;
  /** Whether the viewer may approve (or, with `decline`, decline) it now; undefined when they may. */
  mayDecide(r: Decidable, v: Decider, decision: 'approve' | 'decline'): Refusal | undefined;
  /**
   * Whether an approval given by `approver` still stands when the change is about to run: four eyes, and the
   * approver still known. (Who could see the request was settled where they decided.)
   */
  stands(r: Decidable, approver: Who): Refusal | undefined;
}

/** Addresses compare trimmed and case-folded: " Bob@Example.com" is bob@example.com. */
const addressKey = (address: string) => address.normalize('NFKC').trim().toLowerCase();

/** One person: the same identity, or the same address (two tokens of one person may name them either way). */
const samePerson = (a: Who, b: Who) =>
  a.person === b.person ||
  (a.address !== undefined && b.address !== undefined && addressKey(a.address) === addressKey(b.address));

/** What a change of this risk does, in words ("mints an API key"). */
export function riskWords(r: RiskCategory, s: Pick<FourEyesSettings, 'longWindowHours'>): string {
  switch (r) {
    case 'grant':
      return 'grants or changes access';
    case 'key':
      return 'mints an API key';
    case 'deletion':
      return 'deletes something';
    case 'disable-alerting':
      return 'disables an alert configuration';
    case 'integration':
      return 'adds or replaces an integration (where alerts go, and with which key)';
    case 'window-pages':
      return 'makes a maintenance window silence paging alerts';
    case 'window-long':
      return `makes a maintenance window longer than ${s.longWindowHours} h (DBOPS_LONG_WINDOW_HOURS)`;
  }
}

export function createDecisionPoint(opts: DecisionPointOptions): DecisionPoint {
  const approvers = new Set(opts.approvers.map(addressKey));
  const settings = opts.fourEyes ?? DEFAULT_FOUR_EYES;
  const known = (person: string) => opts.stillKnown?.(person) ?? true;
  const isApprover = (w: Who) =>
    w.address !== undefined && approvers.has(addressKey(w.address)) && known(w.person);
  const point: DecisionPoint = {
    tellsPeopleApart: opts.tellsPeopleApart,
    fourEyesOn: approvers.size > 0,
    settings,
    isApprover,
    secondPerson(r) {
      if (approvers.size === 0) return undefined;
      const risks = (r.risks ?? TOOL_RISKS[r.tool] ?? []).filter((x) => settings.fourEyes.includes(x));
      return risks.length ? risks : undefined;
    },
    secondPersonText(risks, requester) {
      const does = risks?.length ? risks.map((r) => riskWords(r, settings)).join(' and ') : 'needs four eyes';
      const other = requester ? `someone other than ${requester}` : 'someone other than the person who asked';
      const rule = risks?.length ? ` (four-eyes rule: ${risks.join(', ')}; DBOPS_FOUR_EYES)` : '';
      return `This change ${does}: one of the approvers (DBOPS_APPROVERS), ${other}, must approve it${rule}.`;
    },
    maySee: (r, v) =>
      v.alone === true || isApprover(v) || r.requester === undefined || samePerson(askerOf(r.requester), v),
    mayDecide(r, v, decision) {
      if (v.alone !== true && !known(v.person)) return 'revoked';
      if (!point.maySee(r, v)) return 'not-yours';
      // Deciding is a change: a token without the write scope decides nothing, not even another's decline.
      if (v.canWrite === false) return 'read-only';
      // Declining is always the requester's right; approving a four-eyes change needs a second person.
      return decision === 'approve' ? point.stands(r, v) : undefined;
    },
    stands(r, approver) {
      if (!known(approver.person)) return 'revoked';
      if (point.secondPerson(r) && r.requester && samePerson(askerOf(r.requester), approver))
        return 'four-eyes';
      return undefined;
    },
  };
  return point;
}
