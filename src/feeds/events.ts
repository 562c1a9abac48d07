// What changes in a feed of events: its newest event. The events are read by the model (src/model/events.ts).
import type { ApiEvent } from '../api/client.js';

const ms = (e: ApiEvent) => Date.parse(e.created ?? '') || 0;

/** The newest event(s): a new event changes it, events ageing out of the window do not. */
export function eventsFingerprint(events: ApiEvent[]): string {
  const newest = events.reduce((m, e) => Math.max(m, ms(e)), 0);
  const ids = events
    .filter((e) => ms(e) === newest)
    .map((e) => e.id)
    .sort();
  return `${newest}:${ids.join(',')}`;
}
