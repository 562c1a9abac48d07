// What sits next to a window: the project's other windows that overlap it or adjoin it (windows are
// project-wide, so a person planning one wants the one that starts an hour later named), and what went quiet
// when a window was made without asking.
import type { MaintenanceWindow } from '../../api/types.js';
import { age, when } from '../markdown.js';
import { windowCalled } from './alerts.js';

/** A neighbour as the rule finds it (src/rules/windows.ts windowNeighbours). */
export interface NeighbourView {
  window: MaintenanceWindow;
  relation: 'overlaps' | 'before' | 'after';
  gapMs: number;
}

const gap = (ms: number, now: Date) =>
  ms === 0 ? 'right' : (age(new Date(now.getTime() - ms).toISOString(), now) ?? '').replace(/ ago$/, '');

/** "- "Index rebuild" starts 1 h after it ends: from 2026-… UTC (in 1 d) to …, mutes HOST", one per neighbour. */
export function neighbourLines(ns: readonly NeighbourView[], now: Date, asNote = false): string[] {
  if (!ns.length) return [];
  const lines = ns.map(({ window: w, relation, gapMs }) => {
    const how =
      relation === 'overlaps'
        ? 'overlaps it'
        : relation === 'after'
          ? `starts ${gap(gapMs, now)} after it ends`
          : `ends ${gap(gapMs, now)} before it starts`;
    return `${windowCalled(w)} ${how}: from ${when(w.startDate, now)} to ${when(w.endDate, now)}, mutes ${(w.alertTypeNames ?? []).join(', ') || '—'}`;
  });
  // A preview's notes are bullets already: there the neighbours are one note, not a list inside a list.
  if (asNote) return [`Next to it in this project: ${lines.join('; ')}`];
  return [`Next to it in this project (${ns.length}):`, ...lines.map((l) => `- ${l}`)];
}

/** The neighbours in structured content: ids, relation and times. */
export const neighboursData = (ns: readonly NeighbourView[]) =>
  ns.map((n) => ({
    maintenanceWindowId: n.window.id,
    relation: n.relation,
    startDate: n.window.startDate,
    endDate: n.window.endDate,
    alertTypeNames: n.window.alertTypeNames,
  }));
