import { describe, expect, it } from 'vitest';
import {
  clampPage,
  type FetchPage,
  fetchAll,
  iteratePages,
  normalisePage,
  type Page,
} from '../../src/api/paging.js';

/** A fake list of `total` numbers, paged like the API, recording calls and concurrency. */
function fakeList(total: number, opts: { serverMax?: number; delayMs?: number; failOn?: number } = {}) {
  const calls: Array<{ pageNum: number; itemsPerPage: number }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetchPage: FetchPage<number> = async ({ pageNum, itemsPerPage }, signal) => {
    calls.push({ pageNum, itemsPerPage });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      // Random latency so that pages finish out of order.
      await new Promise((r) => setTimeout(r, (opts.delayMs ?? 5) * Math.random()));
      if (signal?.aborted) throw new Error('aborted');
      if (pageNum === opts.failOn) throw new Error(`page ${pageNum} failed`);
      const size = Math.min(itemsPerPage, opts.serverMax ?? 500);
      const start = (pageNum - 1) * size;
      const results = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => start + i);
      const links = [{ rel: 'self', href: 'x' }];
      if (start + size < total) links.push({ rel: 'next', href: 'y' });
      return { results, totalCount: total, links };
    } finally {
      inFlight--;
    }
  };
  return { fetchPage, calls, maxInFlight: () => maxInFlight };
}

describe('clampPage', () => {
  it('clamps to 1..500 and integers, keeps absent values absent', () => {
    expect(clampPage({ pageNum: 0, itemsPerPage: 1000 })).toEqual({ pageNum: 1, itemsPerPage: 500 });
    expect(clampPage({ pageNum: -3, itemsPerPage: 0 })).toEqual({ pageNum: 1, itemsPerPage: 1 });
    expect(clampPage({ pageNum: 2.7, itemsPerPage: 20.2 })).toEqual({ pageNum: 2, itemsPerPage: 20 });
    expect(clampPage({})).toEqual({});
    expect(clampPage({ pageNum: Number.NaN })).toEqual({});
    expect(clampPage()).toEqual({});
  });
});

describe('iteratePages', () => {
  it('follows the data to the end', async () => {
    const f = fakeList(23);
    const seen: number[] = [];
    for await (const page of iteratePages(f.fetchPage, { itemsPerPage: 10 })) seen.push(...page.results);
    expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => i));
    expect(f.calls.map((c) => c.pageNum)).toEqual([1, 2, 3]);
  });
  it('stops on an exact multiple without an extra empty request', async () => {
    const f = fakeList(20);
    let pages = 0;
    for await (const _ of iteratePages(f.fetchPage, { itemsPerPage: 10 })) pages++;
    expect(pages).toBe(2);
    expect(f.calls).toHaveLength(2);
  });
  it('without totalCount, stops at a short page with no next link', async () => {
    const f = fakeList(15);
    const noTotal: FetchPage<number> = async (q) => {
      const p = await f.fetchPage(q);
      return { results: p.results, links: p.links } as unknown as Page<number>;
    };
    const seen: number[] = [];
    for await (const page of iteratePages(noTotal, { itemsPerPage: 10 })) seen.push(...page.results);
    expect(seen).toHaveLength(15);
  });
  it('can stop early (the caller breaks) and clamps itemsPerPage', async () => {
    const f = fakeList(5000);
    for await (const page of iteratePages(f.fetchPage, { itemsPerPage: 9999 })) {
      expect(page.results).toHaveLength(500);
      break;
    }
    expect(f.calls).toEqual([{ pageNum: 1, itemsPerPage: 500 }]);
  });
});

describe('fetchAll', () => {
  it('returns every item in order, fetching the remaining pages concurrently within the bound', async () => {
    const f = fakeList(1234, { delayMs: 20 });
    const r = await fetchAll(f.fetchPage, { itemsPerPage: 50, concurrency: 4 });
    expect(r.totalCount).toBe(1234);
    expect(r.truncated).toBe(false);
    expect(r.items).toEqual(Array.from({ length: 1234 }, (_, i) => i));
    expect(f.calls).toHaveLength(25);
    expect(f.calls[0]).toEqual({ pageNum: 1, itemsPerPage: 50 });
    expect(new Set(f.calls.map((c) => c.pageNum)).size).toBe(25);
    expect(f.maxInFlight()).toBe(4);
  });
  it('caps at maxItems and says so', async () => {
    const f = fakeList(1000);
    const r = await fetchAll(f.fetchPage, { itemsPerPage: 100, maxItems: 250 });
    expect(r.items).toHaveLength(250);
    expect(r.items.at(-1)).toBe(249);
    expect(r.truncated).toBe(true);
    expect(r.totalCount).toBe(1000);
    expect(f.calls).toHaveLength(3); // pages 1..3 only
  });
  it('a single page needs a single request', async () => {
    const f = fakeList(7);
    const r = await fetchAll(f.fetchPage);
    expect(r).toEqual({ items: [0, 1, 2, 3, 4, 5, 6], totalCount: 7, truncated: false });
    expect(f.calls).toEqual([{ pageNum: 1, itemsPerPage: 500 }]);
  });
  it('an empty list is fine', async () => {
    const r = await fetchAll(fakeList(0).fetchPage);
    expect(r).toEqual({ items: [], totalCount: 0, truncated: false });
  });
  it('adapts to a server that caps the page size below what was asked', async () => {
    const f = fakeList(450, { serverMax: 100 });
    const r = await fetchAll(f.fetchPage, { itemsPerPage: 500 });
    expect(r.items).toEqual(Array.from({ length: 450 }, (_, i) => i));
    expect(f.calls.slice(1).every((c) => c.itemsPerPage === 100)).toBe(true);
  });
  it('rejects with the first failure and stops the rest', async () => {
    const f = fakeList(1000, { failOn: 3 });
    await expect(fetchAll(f.fetchPage, { itemsPerPage: 10, concurrency: 2 })).rejects.toThrow(
      'page 3 failed',
    );
    expect(f.calls.length).toBeLessThan(100);
  });
  it('stops when the caller aborts while the first page is in flight', async () => {
    const ac = new AbortController();
    const calls: number[] = [];
    const fetchPage: FetchPage<number> = async ({ pageNum, itemsPerPage }) => {
      calls.push(pageNum);
      ac.abort(); // the answer was already on its way when the caller gave up
      return { results: Array.from({ length: itemsPerPage }, (_, i) => i), totalCount: 100, links: [] };
    };
    await expect(fetchAll(fetchPage, { itemsPerPage: 10, signal: ac.signal })).rejects.toThrow();
    expect(calls).toEqual([1]);
  });
  it('honours the caller signal', async () => {
    const ac = new AbortController();
    ac.abort();
    const f = fakeList(1000);
    await expect(fetchAll(f.fetchPage, { itemsPerPage: 10, signal: ac.signal })).rejects.toThrow();
  });
});

describe('normalisePage', () => {
  it('fills in what a lenient server omits', () => {
    expect(normalisePage({ results: [1, 2] })).toEqual({ results: [1, 2], totalCount: 2, links: [] });
    expect(normalisePage(null)).toEqual({ results: [], totalCount: 0, links: [] });
  });
});
