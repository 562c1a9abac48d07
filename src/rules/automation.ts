// A process and its goal: done when it reached the goal version with nothing left in its plan; behind
// otherwise, since the goal's publish (the newest publish of the automation configuration set the goal).

interface ProcessFields {
  lastGoalVersionAchieved?: number;
  plan?: string[];
  errorCode?: number;
  errorString?: string;
  errorCodeDescription?: string;
}

/**
 * Done: reached the goal version with nothing left in its plan. A process can report the goal version and
 * still have steps pending (seen in the field): that one is not done.
 */
export const atGoal = (p: ProcessFields, goal: number): boolean =>
  p.lastGoalVersionAchieved === goal && (p.plan ?? []).length === 0;

/** A process behind its goal that reports an error: it will not get there by waiting. */
export const failing = (p: ProcessFields): boolean =>
  Boolean(p.errorCode || p.errorString || p.errorCodeDescription);

export interface Behind {
  /** When the goal it has not reached was published, where the publish was read. */
  since?: string;
  /** Who published it (the event's username or key). */
  by?: string;
  failing: boolean;
}

/** How a process stands against its goal: undefined when at goal, else behind since the goal's publish. */
export function behindGoal(
  p: ProcessFields,
  goal: number,
  published?: { created?: string; username?: string; publicKey?: string },
): Behind | undefined {
  if (atGoal(p, goal)) return undefined;
  const by = published?.username ?? published?.publicKey;
  return {
    ...(published?.created ? { since: published.created } : {}),
    ...(by ? { by } : {}),
    failing: failing(p),
  };
}
