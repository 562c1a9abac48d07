// How a maintenance window looks to a person: its state (upcoming, active, ended) and its fields.
import type { MaintenanceWindow } from '../../api/types.js';
import type { ListView } from '../answers.js';
import { when } from '../markdown.js';

export function windowState(w: MaintenanceWindow, now: Date): string {
  const t = now.getTime();
  if (w.endDate && Date.parse(w.endDate) <= t) return 'ended';
  if (w.startDate && Date.parse(w.startDate) > t) return 'upcoming';
  return 'active';
}

export function windowPairs(w: MaintenanceWindow, now: Date): Array<[string, unknown]> {
  return [
    ['State', windowState(w, now)],
    ['Starts', when(w.startDate, now)],
    ['Ends', when(w.endDate, now)],
    ['Mutes', w.alertTypeNames],
    ['Description', w.description],
  ];
}

/** The window as a preview shows it before a change. */
export function windowCurrent(w: MaintenanceWindow, now: Date): Record<string, unknown> {
  return {
    state: windowState(w, now),
    startDate: w.startDate,
    endDate: w.endDate,
    alertTypeNames: (w.alertTypeNames ?? []).join(', '),
    description: w.description,
  };
}

export const windowList: ListView<MaintenanceWindow> = {
  columns: ['windowId', 'state', 'start', 'end', 'alert types', 'description'],
  row: (w: MaintenanceWindow, now: Date) => [
    w.id,
    windowState(w, now),
    when(w.startDate, now),
    when(w.endDate, now),
    (w.alertTypeNames ?? []).join(', '),
    w.description,
  ],
};

/** The windows in force next to a triage: which, until when, what they mute. */
export const windowInForceList: ListView<MaintenanceWindow> = {
  columns: ['windowId', 'ends', 'mutes', 'description'],
  row: (w, now) => [w.id, when(w.endDate, now), (w.alertTypeNames ?? []).join(', '), w.description],
};
