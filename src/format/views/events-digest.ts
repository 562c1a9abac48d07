// The event feeds drawn for people and models (dbops://projects/{id}/events, dbops://global/events).
import type { RecentEvents } from '../../model/index.js';
import type { FormatContext } from '../answers.js';
import { plural, table } from '../markdown.js';
import { eventColumns, eventRow } from './events.js';

export function eventsDigest(
  title: string,
  d: RecentEvents,
  hours: number,
  rows: number,
  f: FormatContext,
): string {
  const lines = [`# ${title} — ${plural(d.events.length, 'event')} in the last ${hours} h`];
  if (!d.events.length) lines.push('No events in the window.');
  else {
    const shown = d.events.slice(0, rows).map((e) => eventRow(e, f.now, f.names));
    lines.push(f.fence.notice, f.fence.wrap(table(eventColumns, shown)));
    if (d.events.length > rows) lines.push(`${d.events.length - rows} older events in ?format=json.`);
  }
  return lines.join('\n');
}
