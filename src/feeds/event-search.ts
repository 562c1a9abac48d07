// Events searched by who and target: the platform filters by type and time only, so up to SEARCH_LIMIT events
// are read and matched here — by person or key, by what an event is about (ids, a host as people type it), and
// by name (a configuration's condition, a window's description).
import type { ApiEvent, Page, PageQuery } from '../api/client.js';
import { fetchAll } from '../api/paging.js';
import { conditionWords, configName } from '../format/views/alerts.js';
import { type EventTargets, eventTarget, newestFirst, noTargets } from '../format/views/events.js';
import { loadWindows } from '../model/index.js';
import { hostMatches } from '../rules/index.js';
import { pageQuery, type ToolContext } from '../tool/index.js';

/** The platform filters by type and time; who and target are matched here over this many events at most. */
const SEARCH_LIMIT = 2_000;

type Search = { who?: string; target?: string };

const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

const holds = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase().includes(b.toLowerCase());

function matches(e: ApiEvent, q: Search, targets: Targets): boolean {
  const r = e as Record<string, unknown>;
  if (q.who && !same(e.username, q.who) && !same(e.publicKey, q.who)) return false;
  if (q.target) {
    const about = [
      e.alertConfigId,
      e.alertId,
      e.hostId,
      e.hostname,
      eventTarget(e),
      r.targetUsername,
      r.targetPublicKey,
      r.maintenanceWindowId,
      r.userId,
    ];
    // By name too: part of a configuration's condition ("disk space", "DISK_PARTITION_SPACE_USED_DATA") or of a
    // window's description, for "who changed the disk threshold" in one call.
    const named = [
      e.alertConfigId && targets.config(e.alertConfigId),
      e.alertConfigId && targets.raw?.(e.alertConfigId),
      typeof r.maintenanceWindowId === 'string' && targets.window(r.maintenanceWindowId),
    ];
    // A host as people type it: short name, with or without domain or port, or its id.
    const host = hostMatches(q.target, { id: e.hostId, hostname: e.hostname, port: e.port ?? e.Port });
    if (!host && !about.some((v) => same(v, q.target!)) && !named.some((v) => holds(v, q.target!)))
      return false;
  }
  return true;
}

export type Targets = EventTargets & { raw?: (id: string) => string | undefined };

/**
 * The names of a project's alert configurations (their condition in words, and the platform's own) and of
 * its maintenance windows that can still be read (by description), for the target column and the target
 * search. A list that cannot be read leaves ids.
 */
export async function projectTargets(ctx: ToolContext, projectId: string): Promise<Targets> {
  const [configs, windows] = await Promise.all([
    fetchAll((q, s) => ctx.api.alertConfigs.list(projectId, q, { signal: s }), {
      signal: ctx.signal,
      maxItems: 2_000,
    }).then(
      (r) => r.items,
      () => [],
    ),
    loadWindows(ctx.api, projectId, ctx.signal).catch(() => null),
  ]);
  const words = new Map(configs.map((c) => [c.id, conditionWords(c)]));
  const raw = new Map(configs.map((c) => [c.id, configName(c)]));
  const described = new Map((windows ?? []).map((w) => [w.id, w.description ?? '']));
  return {
    config: (id) => words.get(id),
    raw: (id) => raw.get(id),
    window: (id) => described.get(id),
  };
}

/**
 * With who or target, up to SEARCH_LIMIT events of the platform's (type and time filtered) list are read and
 * matched here; the answer says how many were read, and whether more were left unread.
 */
export async function searched(
  list: (q: Required<PageQuery>, signal?: AbortSignal) => Promise<Page<ApiEvent>>,
  args: Search & { pageNum?: number; itemsPerPage?: number },
  signal: AbortSignal,
  targets: Targets = noTargets,
): Promise<Page<ApiEvent> & { searched?: { read: number; of: number } }> {
  if (!args.who && !args.target) return list(pageQuery(args), signal);
  const all = await fetchAll((q, s) => list(q as Required<PageQuery>, s), { maxItems: SEARCH_LIMIT, signal });
  const hits = newestFirst({
    results: all.items.filter((e) => matches(e, args, targets)),
    totalCount: 0,
    links: [],
  });
  const q = pageQuery(args);
  const from = (q.pageNum - 1) * q.itemsPerPage;
  return {
    results: hits.results.slice(from, from + q.itemsPerPage),
    totalCount: hits.results.length,
    links: [],
    searched: { read: all.items.length, of: all.totalCount },
  };
}
