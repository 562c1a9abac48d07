// Events across every project (`projectId: "all"`), newest first.
import type { ApiEvent, PageQuery } from '../../api/types.js';
import type { FormatContext, ToolAnswer } from '../answers.js';
import { eventColumns, eventRow } from './events.js';
import { type Across, acrossAnswer } from './projects-all.js';

export function eventsAcross(
  a: Across<ApiEvent> & { totalCount: number },
  q: Required<PageQuery>,
  filters: string,
  f: FormatContext,
): ToolAnswer {
  const answer = acrossAnswer(
    a,
    q,
    {
      title: 'Events',
      columns: eventColumns,
      row: (e, now, names) => eventRow(e, now, names),
      order: 'newest first',
      filters,
      narrow: 'eventType, minDate and maxDate, or one projectId',
      next: 'get_project_event with its projectId and eventId',
      empty: 'No events match.',
    },
    f,
  );
  // Each project gave its newest page: the installation's total is the sum of the projects' totals.
  answer.structured = { ...answer.structured, totalCount: a.totalCount };
  return answer;
}

/** The filters given, in words, for the headline. */
export const eventFilterWords = (a: { eventType?: string[]; minDate?: string; maxDate?: string }) =>
  [
    a.eventType?.join(' or '),
    a.minDate ? `since ${a.minDate}` : undefined,
    a.maxDate ? `up to ${a.maxDate}` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
