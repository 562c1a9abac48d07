// Maintenance windows: when one is in force, which one mutes an alert and why (windows are project-wide by
// alert type: a window listing HOST mutes every host alert of the project, whatever its description names), and
// what a window is called.
import { alertTypeOf } from './alerts.js';

interface WindowFields {
  id: string;
  startDate?: string;
  endDate?: string;
  alertTypeNames?: string[];
  description?: string;
}

type WindowState = 'active' | 'upcoming' | 'ended';

export function windowState(w: Pick<WindowFields, 'startDate' | 'endDate'>, now: Date): WindowState {
  const t = now.getTime();
  if (w.endDate && Date.parse(w.endDate) <= t) return 'ended';
  if (w.startDate && Date.parse(w.startDate) > t) return 'upcoming';
  return 'active';
}

export interface Muting {
  id: string;
  state: 'active' | 'upcoming';
  startDate?: string;
  endDate?: string;
  /** The window's alert types; `alertType` (the alert's) is among them: that is why it applies. */
  types: string[];
  alertType: string;
  description?: string;
}

/**
 * The window that mutes alerts of this event type now, or else the next one that will; ended windows are
 * ignored. Undefined when the event type falls under no alert type a window can name.
 */
export function muting(
  eventTypeName: string | undefined,
  windows: readonly WindowFields[],
  now: Date,
): Muting | undefined {
  const type = alertTypeOf(eventTypeName);
  if (!type) return undefined;
  const t = now.getTime();
  const matching = windows
    .filter((w) => (w.alertTypeNames ?? []).includes(type) && Date.parse(w.endDate ?? '') > t)
    .sort((a, b) => Date.parse(a.startDate ?? '') - Date.parse(b.startDate ?? ''));
  const w = matching.find((x) => Date.parse(x.startDate ?? '') <= t) ?? matching[0];
  if (!w) return undefined;
  return {
    id: w.id,
    state: Date.parse(w.startDate ?? '') <= t ? 'active' : 'upcoming',
    startDate: w.startDate,
    endDate: w.endDate,
    types: w.alertTypeNames ?? [],
    alertType: type,
    ...(w.description ? { description: w.description } : {}),
  };
}

/**
 * A window as people know it: its description (a person's words) in quotes, cut at `max`, else `window <id>`.
 * The description is platform text: a view draws the name through cell() (src/untrusted.ts).
 */
export function windowName(w: { id?: string; description?: string }, max = 60): string {
  const d = (w.description ?? '').replace(/\s+/g, ' ').trim();
  if (!d) return `window ${w.id ?? '?'}`;
  return `"${d.length > max ? `${d.slice(0, max - 1)}…` : d}"`;
}

/** Windows this close apart are named beside each other: one that starts an hour after another ends is "next to" it. */
const ADJOIN_MS = 2 * 3_600_000;

interface Neighbour<W> {
  window: W;
  /** Overlaps the span, or adjoins it (before or after, within ADJOIN_MS). */
  relation: 'overlaps' | 'before' | 'after';
  /** The gap in ms when it adjoins (0 when touching). */
  gapMs: number;
}

/**
 * The project's other windows that overlap a window's span or adjoin it: a person planning one wants to know
 * of the one that starts an hour later (windows are project-wide, so each silences the other's hosts too).
 */
export function windowNeighbours<W extends WindowFields>(
  span: { id?: string; startDate?: string; endDate?: string },
  windows: readonly W[],
): Array<Neighbour<W>> {
  const s = Date.parse(span.startDate ?? '');
  const e = Date.parse(span.endDate ?? '');
  if (!Number.isFinite(s) || !Number.isFinite(e)) return [];
  return windows.flatMap((w): Array<Neighbour<W>> => {
    const ws = Date.parse(w.startDate ?? '');
    const we = Date.parse(w.endDate ?? '');
    if ((span.id && w.id === span.id) || !Number.isFinite(ws) || !Number.isFinite(we)) return [];
    if (ws < e && we > s) return [{ window: w, relation: 'overlaps', gapMs: 0 }];
    if (ws >= e && ws - e <= ADJOIN_MS) return [{ window: w, relation: 'after', gapMs: ws - e }];
    if (we <= s && s - we <= ADJOIN_MS) return [{ window: w, relation: 'before', gapMs: s - we }];
    return [];
  });
}
