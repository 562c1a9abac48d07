// Which route answers a request: patterns with :name segments, the most specific one winning, and the
// methods a path allows when none matches the request's.

import type { SimRoute } from './types.js';

export interface Compiled {
  route: SimRoute;
  segments: string[];
  /** '1' per literal segment, '0' per parameter: a greater rank is a more specific pattern. */
  rank: string;
}

type Match =
  | { kind: 'route'; route: SimRoute; params: Record<string, string> }
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

export function compile(routes: readonly SimRoute[]): Compiled[] {
  return routes.map((route) => {
    const segments = route.path.split('/').slice(1);
    return { route, segments, rank: segments.map((s) => (s.startsWith(':') ? '0' : '1')).join('') };
  });
}

function matchSegments(pattern: string[], segs: string[]): Record<string, string> | undefined {
  if (pattern.length !== segs.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const s = segs[i]!;
    if (p.startsWith(':')) {
      if (s === '') return undefined;
      params[p.slice(1)] = s;
    } else if (p !== s) {
      return undefined;
    }
  }
  return params;
}

function matchRoute(compiled: Compiled[], method: string, segs: string[]): Match {
  let best: { c: Compiled; params: Record<string, string> } | undefined;
  const allowed = new Set<string>();
  for (const c of compiled) {
    const params = matchSegments(c.segments, segs);
    if (!params) continue;
    allowed.add(c.route.method);
    if (c.route.method === method && (!best || c.rank > best.c.rank)) best = { c, params };
  }
  if (best) return { kind: 'route', route: best.c.route, params: best.params };
  return allowed.size > 0 ? { kind: 'method', allowed: [...allowed] } : { kind: 'none' };
}

/** Splits the path after the prefix into decoded segments; undefined when a segment does not decode. */
function decodeSegments(relPath: string): string[] | undefined {
  try {
    return relPath
      .split('/')
      .slice(1)
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

/** The route for a method and a path below the prefix (a path that does not decode matches none). */
export function findRoute(compiled: Compiled[], method: string, relPath: string): Match {
  const segs = decodeSegments(relPath);
  return segs ? matchRoute(compiled, method, segs) : { kind: 'none' };
}
