// The one decision point: may this person decide this request? Four eyes, revocation and who sees what are
// answered here and nowhere else; each consent channel (src/policy/channels/) only carries the question to a
// person and the answer back. Which changes need a second person is this table, the same list DESIGN.md and
// the README give: grants of access, API keys, deletions. Other guarded changes need the asker's own consent.

/** Why a change needs someone other than the person who asked (when DBOPS_APPROVERS is set). */
export type SecondPersonReason = 'grant' | 'key' | 'deletion';

export const FOUR_EYES: Readonly<Record<string, SecondPersonReason>> = {
  create_first_user: 'grant',
  create_user: 'grant',
  update_user_roles: 'grant',
  create_org_api_key: 'key',
  create_project_api_key: 'key',
  delete_maintenance_window: 'deletion',
};

const WHAT: Record<SecondPersonReason, string> = {
  grant: 'grants or changes access',
  key: 'mints an API key',
  deletion: 'deletes something',
};

/** Why a tool needs a second person, in words ("grants or changes access"): tool descriptions say it. */
export const secondPersonWhy = (tool: string): string | undefined => {
  const reason = FOUR_EYES[tool];
  return reason && WHAT[reason];
};

/** A person looking at a request (the approval page, a script, the requester's own client). */
export interface Decider {
  person: string;
  /** Nobody else can reach the page (no identity configured: this machine's user alone). */
  alone?: boolean;
}

/** A request as the decision point needs it: who asked, and for which tool. */
export interface Decidable {
  tool: string;
  requester?: { person: string };
}

/** Why a person may not decide: not theirs to see, their own four-eyes request, or no longer known. */
export type Refusal = 'not-yours' | 'four-eyes' | 'revoked';

export interface DecisionPointOptions {
  /** DBOPS_APPROVERS. */
  approvers: readonly string[];
  /** Whether each person has a token of their own (OAuth, named tokens): only then can four eyes hold. */
  tellsPeopleApart: boolean;
  /** Whether a person is still known now (a token-file line removed → false); always true when absent. */
  stillKnown?: (person: string) => boolean;
}

export interface DecisionPoint {
  readonly tellsPeopleApart: boolean;
  /** Whether any approvers are configured. */
  readonly fourEyesOn: boolean;
  isApprover(person: string): boolean;
  /** Why this tool needs a second person under the live settings, or undefined. */
  secondPerson(tool: string): SecondPersonReason | undefined;
  /** The words for a four-eyes refusal: what the change does and who must decide. */
  secondPersonText(tool: string, requester?: string): string;
  /** Whether the viewer may see the request at all. */
  maySee(r: Decidable, v: Decider): boolean;
  /** Whether the viewer may approve (or, with `decline`, decline) it now; undefined when they may. */
  mayDecide(r: Decidable, v: Decider, decision: 'approve' | 'decline'): Refusal | undefined;
  /**
   * Whether an approval given by `approver` still stands when the change is about to run: four eyes, and the
   * approver still known. (Who could see the request was settled where they decided.)
   */
  stands(r: Decidable, approver: string): Refusal | undefined;
}

export function createDecisionPoint(opts: DecisionPointOptions): DecisionPoint {
  const approvers = new Set(opts.approvers);
  const known = (person: string) => opts.stillKnown?.(person) ?? true;
  const isApprover = (person: string) => approvers.has(person) && known(person);
  const point: DecisionPoint = {
    tellsPeopleApart: opts.tellsPeopleApart,
    fourEyesOn: approvers.size > 0,
    isApprover,
    secondPerson: (tool) => (approvers.size > 0 ? FOUR_EYES[tool] : undefined),
    secondPersonText(tool, requester) {
      const reason = FOUR_EYES[tool];
      const what = reason ? WHAT[reason] : 'needs four eyes';
      const other = requester ? `someone other than ${requester}` : 'someone other than the person who asked';
      return `This change ${what}: one of the approvers (DBOPS_APPROVERS), ${other}, must approve it.`;
    },
    maySee: (r, v) =>
      v.alone === true ||
      isApprover(v.person) ||
      r.requester === undefined ||
      r.requester.person === v.person,
    mayDecide(r, v, decision) {
      if (v.alone !== true && !known(v.person)) return 'revoked';
      if (!point.maySee(r, v)) return 'not-yours';
      // Declining is always the requester's right; approving a four-eyes change needs a second person.
      return decision === 'approve' ? point.stands(r, v.person) : undefined;
    },
    stands(r, approver) {
      if (!known(approver)) return 'revoked';
      if (point.secondPerson(r.tool) && r.requester?.person === approver) return 'four-eyes';
      return undefined;
    },
  };
  return point;
}
