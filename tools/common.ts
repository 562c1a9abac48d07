// The fixed answer shapes shared by the catalog: a paged list (headline with counts, a fenced table, what
// was left out and how to get it, the next call) and a single record (fenced `**Label**: value` lines).
import { z } from 'zod';
import type { Page, PageQuery } from '../src/api/client.js';
import { isMissingEndpoint } from '../src/feeds/capabilities.js';
import { fields, plural, table } from '../src/format/markdown.js';
import { redact } from '../src/format/redact.js';
import type { FormatContext, ToolAnswer } from './define.js';

export const DEFAULT_ROWS = 20;

export function pageQuery(args: { pageNum?: number; itemsPerPage?: number }): Required<PageQuery> {
  return { pageNum: args.pageNum ?? 1, itemsPerPage: args.itemsPerPage ?? DEFAULT_ROWS };
}

export const listOutput = {
  totalCount: z.number(),
  pageNum: z.number(),
  itemsPerPage: z.number(),
  results: z.array(z.looseObject({})),
};

export const recordOutput = { record: z.looseObject({}) };

/**
 * A preview's read of the current state, where the server offers it: the reads of one alert, one user and
 * the integration list are beyond the spec, and a server without one answers 404 or 405 (the path exists
 * for PATCH only). The preview then goes on without the current state.
 */
export async function readIfOffered<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (e) {
    if (isMissingEndpoint(e)) return undefined;
    throw e;
  }
}

export interface ListSpec<T> {
  title: string;
  columns: string[];
  row: (item: T) => unknown[];
  /** The next call a person would make with a row's id. */
  next?: string;
  empty?: string;
}

export function listAnswer<T>(
  page: Page<T>,
  q: Required<PageQuery>,
  spec: ListSpec<T>,
  f: FormatContext,
): ToolAnswer {
  const results = redact(page.results);
  const shown = results.length;
  const first = (q.pageNum - 1) * q.itemsPerPage + 1;
  const head =
    shown === 0
      ? `# ${spec.title} — ${page.totalCount} total${page.totalCount > 0 ? `, none on page ${q.pageNum}` : ''}`
      : `# ${spec.title} — ${page.totalCount} total, showing ${first}–${first + shown - 1}`;
  const lines = [head];
  const pages = Math.ceil(page.totalCount / q.itemsPerPage);
  // Past the end is not "nothing matches": the filters are fine, the page number is not.
  if (shown === 0 && page.totalCount > 0 && q.pageNum > pages)
    lines.push(
      `Page ${q.pageNum} is past the end: ${page.totalCount} in all, ${plural(pages, 'page')} of ${q.itemsPerPage}. Call again with pageNum=1${pages > 1 ? ` to ${pages}` : ''}.`,
    );
  else if (shown === 0) lines.push(spec.empty ?? 'Nothing to show.');
  else {
    lines.push(f.fence.notice);
    const body = f.detailed
      ? results.map((r) => JSON.stringify(r)).join('\n')
      : table(
          spec.columns,
          results.map((r) => spec.row(r as T)),
        );
    lines.push(f.fence.wrap(body));
  }
  const left = page.totalCount - (first - 1 + shown);
  if (left > 0 && shown > 0) lines.push(`${left} more — call again with pageNum=${q.pageNum + 1}.`);
  if (spec.next && shown > 0) lines.push(`Next: ${spec.next}.`);
  return {
    text: lines.join('\n'),
    structured: { totalCount: page.totalCount, pageNum: q.pageNum, itemsPerPage: q.itemsPerPage, results },
  };
}

/** A single record; `pairs` receives the redacted record, so no secret can reach the text. Titles carry ids only. */
export function recordAnswer<T extends object>(
  title: string,
  record: T,
  pairs: (safe: T) => Array<[string, unknown]>,
  f: FormatContext,
  next?: string,
): ToolAnswer {
  const safe = redact(record);
  const body = f.detailed ? JSON.stringify(safe, null, 1) : fields(pairs(safe));
  const lines = [`# ${title}`, f.fence.notice, f.fence.wrap(body)];
  if (next) lines.push(`Next: ${next}.`);
  return { text: lines.join('\n'), structured: { record: safe } };
}
