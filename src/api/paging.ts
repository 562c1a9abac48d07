// Paging over {results, totalCount, links} lists: pageNum is 1-based, itemsPerPage at most 500.
// fetchAll reads the first page alone (to learn totalCount and the server's real page size), then the
// remaining pages concurrently with a bound, and returns the items in page order.

import { abortError } from './abort.js';
import { mapBounded } from './bounded.js';

export interface PageQuery {
  pageNum?: number;
  itemsPerPage?: number;
}

export interface Link {
  href: string;
  rel: string;
}

export interface Page<T> {
  results: T[];
  totalCount: number;
  links: Link[];
}

const MAX_ITEMS_PER_PAGE = 500;

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.trunc(n)));

/** pageNum ≥ 1 and itemsPerPage in 1..500 (integers); absent or non-finite values stay absent. */
export function clampPage(q: PageQuery = {}): PageQuery {
  const out: PageQuery = {};
  if (q.pageNum !== undefined && Number.isFinite(q.pageNum))
    out.pageNum = clamp(q.pageNum, 1, Number.MAX_SAFE_INTEGER);
  if (q.itemsPerPage !== undefined && Number.isFinite(q.itemsPerPage))
    out.itemsPerPage = clamp(q.itemsPerPage, 1, MAX_ITEMS_PER_PAGE);
  return out;
}

export type FetchPage<T> = (
  q: { pageNum: number; itemsPerPage: number },
  signal?: AbortSignal,
) => Promise<Page<T>>;

const hasNext = (p: Page<unknown>) => (p.links ?? []).some((l) => l.rel === 'next');

/**
 * Yields page after page until the data runs out: an empty page, totalCount reached, or (when a server
 * gives no totalCount) a short page without a `next` link.
 */
export async function* iteratePages<T>(
  fetchPage: FetchPage<T>,
  opts: { itemsPerPage?: number; startPage?: number; maxPages?: number; signal?: AbortSignal } = {},
): AsyncGenerator<Page<T>, void, undefined> {
  const itemsPerPage = clampPage({ itemsPerPage: opts.itemsPerPage ?? MAX_ITEMS_PER_PAGE }).itemsPerPage!;
  let pageNum = clampPage({ pageNum: opts.startPage ?? 1 }).pageNum!;
  let seen = (pageNum - 1) * itemsPerPage;
  const maxPages = opts.maxPages ?? 10_000; // a server that never stops must not hang the caller
  for (let n = 0; n < maxPages; n++) {
    if (opts.signal?.aborted) throw abortError(opts.signal);
    const page = await fetchPage({ pageNum, itemsPerPage }, opts.signal);
    yield page;
    const count = page.results?.length ?? 0;
    seen += count;
    if (count === 0) return;
    if (typeof page.totalCount === 'number') {
      if (seen >= page.totalCount) return;
    } else if (count < itemsPerPage && !hasNext(page)) return;
    pageNum++;
  }
}

interface FetchAllResult<T> {
  items: T[];
  totalCount: number;
  /** True when fewer items than totalCount are returned (maxItems, or the data shrank meanwhile). */
  truncated: boolean;
}

export async function fetchAll<T>(
  fetchPage: FetchPage<T>,
  opts: { itemsPerPage?: number; concurrency?: number; maxItems?: number; signal?: AbortSignal } = {},
): Promise<FetchAllResult<T>> {
  const requested = clampPage({ itemsPerPage: opts.itemsPerPage ?? MAX_ITEMS_PER_PAGE }).itemsPerPage!;
  const concurrency = Math.max(1, Math.trunc(opts.concurrency ?? 4));
  const maxItems = opts.maxItems ?? Number.POSITIVE_INFINITY;

  const first = await fetchPage({ pageNum: 1, itemsPerPage: requested }, opts.signal);
  const firstItems = first.results ?? [];
  const totalCount = typeof first.totalCount === 'number' ? first.totalCount : firstItems.length;
  const wanted = Math.min(totalCount, maxItems);
  // A server may cap the page size below what was asked; pageNum counts in its pages, not ours.
  const pageSize = firstItems.length > 0 && firstItems.length < requested ? firstItems.length : requested;
  const pageCount = firstItems.length === 0 ? 1 : Math.ceil(wanted / pageSize);

  // The remaining pages, in page order; one failure (or the caller's abort) stops the rest.
  // Most lists are one page: no fan-out then (a warm read across 500 projects is thousands of these).
  const rest = Array.from({ length: pageCount - 1 }, (_, i) => i + 2);
  const more =
    rest.length === 0
      ? []
      : await mapBounded(rest, concurrency, opts.signal, async (pageNum, signal) => {
          const page = await fetchPage({ pageNum, itemsPerPage: pageSize }, signal);
          return page.results ?? [];
        });
  const all = more.length ? [firstItems, ...more].flat() : firstItems.slice();
  const items = all.length > wanted ? all.slice(0, wanted) : all;
  return { items, totalCount, truncated: items.length < totalCount };
}

/** A list answer with the fields a caller relies on always present (a lenient server may omit some). */
export function normalisePage<T>(raw: unknown): Page<T> {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Partial<Page<T>>;
  const results = Array.isArray(o.results) ? o.results : [];
  return {
    ...o,
    results,
    totalCount: typeof o.totalCount === 'number' ? o.totalCount : results.length,
    links: Array.isArray(o.links) ? o.links : [],
  };
}
