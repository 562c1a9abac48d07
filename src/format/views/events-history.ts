// History as a person reads it: episodes (what, where, start, end, how long), newest first, and what was
// paired to make them — event names are not in the spec, so the answer says which it read.
import type { PageQuery } from '../../api/types.js';
import type { Episode } from '../../rules/index.js';
import { cell } from '../../untrusted.js';
import type { FormatContext, ToolAnswer } from '../answers.js';
import { duration, plural, stamp, table, utc } from '../markdown.js';

interface HistoryView {
  episodes: Episode[];
  events: { read: number; of: number };
  alerts: { read: number; closedUnread?: string };
  /** The outage pairs read, "HOST_DOWN → HOST_UP or HOST_RECOVERED". */
  pairs: string[];
}

const columns = ['what', 'where', utc('start'), utc('end'), 'duration', 'paired from'];

const endOf = (e: Episode, now: Date) =>
  e.end ? stamp(e.end, now) : e.unknownEnd ? 'not recorded' : 'ongoing';

/** How long it lasted, or has lasted so far; undefined when its end is not known. */
function lasted(e: Episode, now: Date): string | undefined {
  if (e.unknownEnd) return undefined;
  return e.end ? duration(e.start, e.end) : `${duration(e.start, now.toISOString())} so far`;
}

function row(e: Episode, now: Date): unknown[] {
  return [e.what, e.where, stamp(e.start, now), endOf(e, now), lasted(e, now), e.pairedBy];
}

/** "host down 2× (1 ongoing), monitoring agent down 1×" — the answer to "did it happen before" at a glance. */
function tally(episodes: Episode[]): string {
  const by = new Map<string, { n: number; on: number }>();
  for (const e of episodes) {
    const t = by.get(e.what) ?? { n: 0, on: 0 };
    t.n++;
    if (!e.end && !e.unknownEnd) t.on++;
    by.set(e.what, t);
  }
  return [...by].map(([what, t]) => `${what} ${t.n}×${t.on ? ` (${t.on} ongoing)` : ''}`).join(', ');
}

const range = (o: { minDate?: string; maxDate?: string }, now: Date) =>
  `${o.minDate ? ` from ${stamp(o.minDate, now)}` : ''}${o.maxDate ? ` to ${stamp(o.maxDate, now)}` : ''}`;

export function historyAnswer(
  h: HistoryView,
  q: Required<PageQuery>,
  of: { project: string; target?: string; minDate?: string; maxDate?: string },
  f: FormatContext,
): ToolAnswer {
  const project = `project ${f.names.project(of.project)}`;
  const subject = of.target ? `\`${cell(of.target, 100)}\` in ${project}` : project;
  const from = (q.pageNum - 1) * q.itemsPerPage;
  const shown = h.episodes.slice(from, from + q.itemsPerPage);
  const lines = [
    `# History of ${subject} — ${plural(h.episodes.length, 'episode')}${h.episodes.length ? `: ${tally(h.episodes)}` : ''}`,
  ];
  if (!shown.length)
    lines.push(
      h.episodes.length
        ? `Page ${q.pageNum} is past the end; call again with pageNum=1.`
        : 'Nothing went down and no alert opened in what was read.',
    );
  else {
    lines.push(f.fence.notice);
    lines.push(
      f.fence.wrap(
        table(
          columns,
          shown.map((e) => row(e, f.now)),
        ),
      ),
    );
  }
  const left = h.episodes.length - from - shown.length;
  if (left > 0 && shown.length) lines.push(`${left} more — call again with pageNum=${q.pageNum + 1}.`);
  lines.push(
    `Paired: ${h.pairs.join('; ')}; an agent's return without an UP event is its agent-down alert closing; alerts opened → closed (status CLOSED), an outage's own alert folded into it. Event names are not in the spec: these are the names servers write.`,
    `Read ${h.events.read === h.events.of ? `all ${h.events.read}` : `the newest ${h.events.read} of ${h.events.of}`} outage events of the project the platform keeps${range(of, f.now)}, and ${plural(h.alerts.read, 'alert')}.${h.alerts.closedUnread ? ` Closed alerts not readable here (${cell(h.alerts.closedUnread, 160)}).` : ''}`,
    'Next: list_project_events with the same target and no history for the events themselves.',
  );
  return {
    text: lines.join('\n'),
    structured: {
      totalCount: h.episodes.length,
      pageNum: q.pageNum,
      itemsPerPage: q.itemsPerPage,
      results: shown.map((e) => ({ ...e, duration: lasted(e, f.now) })),
      pairs: h.pairs,
      events: h.events,
      alerts: h.alerts,
    },
  };
}
