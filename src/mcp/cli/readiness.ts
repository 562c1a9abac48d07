// GET /readyz for `serve --transport http`.
import { outsideBudget } from '../../api/budget.js';
import { freshReads } from '../../api/cache.js';
import type { RedisState } from '../../state/redis.js';
import type { Runtime } from '../runtime.js';
import type { ServerDeps } from '../server.js';

/**
 * What GET /readyz reports: the platform (each installation, with several) answers an authenticated read,
 * and the state store answers. Anyone may ask (load balancers send no token), so the platform's answer is
 * kept (DBOPS_READY_KEEP_MS, 30 s) and the probe spends nothing of the tools' rate budget: asking often costs
 * the platform nothing.
 */
export function readiness(
  runtime: Runtime,
  now: () => number = Date.now,
): () => Promise<Record<string, { ok: boolean; detail?: string }>> {
  const keepMs = runtime.deps.config.readyKeepMs;
  type Result = { ok: boolean; detail?: string };
  const check = async (probe: () => Promise<unknown>): Promise<Result> => {
    try {
      await probe();
      return { ok: true };
    } catch (e) {
      return { ok: false, detail: (e as Error).message };
    }
  };
  const kept = new Map<string, { at: number; result: Promise<Result> }>();
  /** One probe per installation at a time, its answer kept keepMs (fresh: a kept read says nothing). */
  const reads = (name: string, api: ServerDeps['api']) => {
    const k = kept.get(name);
    if (k && now() - k.at < keepMs) return k.result;
    const result = check(() =>
      outsideBudget(() =>
        freshReads(() => api.request({ method: 'GET', path: '/groups', query: { itemsPerPage: 1 } })),
      ),
    );
    kept.set(name, { at: now(), result });
    return result;
  };
  return async () => {
    const several = runtime.deps.platforms?.all;
    const platforms: Record<string, Result> = several
      ? Object.fromEntries(
          await Promise.all(several.map(async (p) => [`platform:${p.name}`, await reads(p.name, p.api)])),
        )
      : { platform: await reads('', runtime.deps.api) };
    return {
      ...platforms,
      ...(runtime.redis
        ? { stateStore: await check(() => (runtime.redis as RedisState).eval('return 1', [], [])) }
        : {}),
    };
  };
}
