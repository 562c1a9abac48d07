// Reads across every project the key can see: `projectId: "all"` on the list tools, triage_installation and
// find_user. Every project is read (no cap), a few at a time, each read through the client's shared read cache
// (so identical reads in flight, and on other replicas, cost the platform one request). A read that runs past
// the time limit (DBOPS_INSTALLATION_READ_MS) or meets a spent request budget (DBOPS_RATE_LIMIT) does not
// fail the answer: the projects read are answered, the others named as missing with why.
import { fanOut } from '../api/abort.js';
import { mapBounded } from '../api/bounded.js';
import type { Project } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { fetchAll } from '../api/paging.js';
import type { Missing } from '../format/views/projects-all.js';
import { ALL_PROJECTS, type ToolContext } from '../tool/index.js';

/**
 * Projects read at once. Each reads a few lists at once, so this times those stays under the client's cap on
 * requests in flight (DBOPS_MAX_CONCURRENT_REQUESTS, 16 by default), which queues the rest.
 */
const PROJECTS_AT_ONCE = 8;

/** The time limit when the server sets none (DBOPS_INSTALLATION_READ_MS). */
const READ_MS = 20_000;

/** Progress is reported once a read has taken this long, and then at most this often. */
const PROGRESS_AFTER_MS = 1_000;
const PROGRESS_EVERY_MS = 250;

interface ProjectPart<T> {
  project: Project;
  value: T;
}

export interface Everywhere<T> {
  parts: ProjectPart<T>[];
  /** Projects the key sees. */
  projects: number;
  missing: Missing[];
  /** Why the answer is partial (the time limit, the budget); absent when every project was read. */
  partial?: string;
}

const why = (e: unknown) => (e instanceof Error ? e.message : String(e));
export const spentBudget = (e: unknown) => e instanceof ApiError && e.errorCode === 'RATE_BUDGET_SPENT';

/** Every project the key can list, all pages (read through the cache: projects change rarely). */
export async function allProjects(ctx: ToolContext): Promise<Project[]> {
  const { items } = await fetchAll((q, signal) => ctx.api.projects.list(q, { signal }), {
    signal: ctx.signal,
    maxItems: Number.MAX_SAFE_INTEGER,
  });
  return items;
}

/** Progress for a read across projects: silent for its first second, then a few times a second. */
function progressOf(ctx: ToolContext, what: string, total: number) {
  const started = Date.now();
  let last = 0;
  let done = 0;
  return () => {
    done++;
    const now = Date.now();
    if (now - started < PROGRESS_AFTER_MS || (now - last < PROGRESS_EVERY_MS && done < total)) return;
    last = now;
    void ctx.progress(done, total, `${what}: ${done} of ${total} projects read`);
  };
}

/**
 * `read` for every project the key sees (or the one of `scope`), PROJECTS_AT_ONCE at a time, within the time limit
 * and the request budget; a project whose read fails is named as missing, with why.
 */
export async function everywhere<T>(
  ctx: ToolContext,
  what: string,
  read: (project: Project, signal: AbortSignal) => Promise<T>,
  scope: string | Project[] = ALL_PROJECTS,
): Promise<Everywhere<T>> {
  // One project (a filter of the installation's list asked of one) is read the same way.
  const projects = Array.isArray(scope)
    ? scope
    : scope === ALL_PROJECTS
      ? await allProjects(ctx)
      : [await ctx.api.projects.get(scope, ctx.req)];
  const limitMs = ctx.installationReadMs ?? READ_MS;
  const limit = new AbortController();
  // Every read in flight listens here (each project reads several lists at once).
  fanOut(limit.signal);
  const timer = setTimeout(() => limit.abort(), limitMs);
  const onAbort = () => limit.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const tick = progressOf(ctx, what, projects.length);
  let spent: string | undefined;
  const missing: Missing[] = [];
  const parts: Array<ProjectPart<T> | undefined> = [];
  try {
    const results = await mapBounded(projects, PROJECTS_AT_ONCE, ctx.signal, async (project) => {
      const miss = (reason: string) => {
        missing.push({ project: { id: project.id, name: project.name }, why: reason });
        return undefined;
      };
      try {
        if (spent) return miss('not read: the request budget is spent');
        if (limit.signal.aborted) return miss('not read within the time limit');
        return { project, value: await read(project, limit.signal) };
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        if (limit.signal.aborted) return miss('not read within the time limit');
        if (spentBudget(e)) {
          spent ??= why(e);
          return miss('not read: the request budget is spent');
        }
        return miss(why(e));
      } finally {
        tick();
      }
    });
    parts.push(...results);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }
  const timedOut = missing.some((m) => m.why === 'not read within the time limit');
  const partial = [
    ...(timedOut
      ? [
          `the time limit of ${limitMs / 1000} s (DBOPS_INSTALLATION_READ_MS) ran out before every project was read`,
        ]
      : []),
    ...(spent ? [spent] : []),
  ].join('; ');
  return {
    parts: parts.filter((p): p is ProjectPart<T> => p !== undefined),
    projects: projects.length,
    missing,
    ...(partial ? { partial } : {}),
  };
}
