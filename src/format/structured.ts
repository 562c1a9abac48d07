// structuredContent follows the same discipline as the text: some clients show the model only this part, others
// the whole result JSON-encoded. So every string is sanitized (keys too: raw documents carry platform keys),
// and the whole is bounded whatever the data size: long strings are shortened, long arrays keep their first
// items, deep nesting is emptied, each cut keeping the value's type so the output schema still holds.
// The answer says what was left out (`leftOut`) and what to do next (`nextStep`).
import { sanitize } from './untrusted.js';

export const MAX_STRUCTURED_CHARS = 16_000;

/** Strings the model must receive whole: the consent handles and the instruction itself. */
const WHOLE = new Set(['nextStep', 'confirmationToken', 'approvalId', 'url']);

export interface Cut {
  /** Where, with `[]` for "in every item": `results`, `alerts.groups[].alertIds`. */
  path: string;
  kept: number;
  of: number;
}

interface Level {
  /** Longest string kept whole. */
  chars: number;
  /** Deeper objects and arrays are emptied. */
  depth: number;
  /** Longest array kept whole. */
  items: number;
  /** The same for arrays inside array items (alert ids of each group): these are cut first. */
  nested: number;
}

/** Sanitizes every key and string, dropping undefined (JSON would drop it anyway). */
export function sanitizeDeep(value: unknown): unknown {
  if (typeof value === 'string') return sanitize(value);
  if (Array.isArray(value)) return value.map(sanitizeDeep);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[sanitize(k)] = sanitizeDeep(v);
  return out;
}

function shape(value: unknown, level: Level, path: string, depth: number, cuts: Map<string, Cut>): unknown {
  const key = path.slice(path.lastIndexOf('.') + 1);
  if (typeof value === 'string') {
    if (value.length <= level.chars || WHOLE.has(key)) return value;
    const kept = `${value.slice(0, level.chars - 1)}…`;
    note(cuts, `${path} (characters)`, kept.length, value.length);
    return kept;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const limit = depth >= level.depth ? 0 : path.includes('[]') ? level.nested : level.items;
    if (value.length > limit) note(cuts, path, limit, value.length);
    return value.slice(0, limit).map((v) => shape(v, level, `${path}[]`, depth + 1, cuts));
  }
  const entries = Object.entries(value);
  if (depth >= level.depth && entries.length > 0) {
    note(cuts, `${path} (fields)`, 0, entries.length);
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) out[k] = shape(v, level, path ? `${path}.${k}` : k, depth + 1, cuts);
  return out;
}

function note(cuts: Map<string, Cut>, path: string, kept: number, of: number): void {
  const c = cuts.get(path);
  if (c) {
    c.kept += kept;
    c.of += of;
  } else cuts.set(path, { path, kept, of });
}

function longestArray(value: unknown): number {
  if (Array.isArray(value)) return Math.max(value.length, ...value.map(longestArray));
  if (value === null || typeof value !== 'object') return 0;
  return Math.max(0, ...Object.values(value).map(longestArray));
}

export interface BoundOptions {
  max?: number;
  /** What to do next when nothing had to be left out (a structured `nextStep` already present wins). */
  nextStep: string;
  /** How to get what was left out, e.g. "call again with a smaller itemsPerPage". */
  more: string;
}

/**
 * The bounded, sanitized form of a structured result, with `nextStep` (kept when the tool set one) and, when
 * something was cut, `leftOut` listing where and how much. Never longer than `max` characters as JSON.
 */
export function boundStructured(value: Record<string, unknown>, o: BoundOptions): Record<string, unknown> {
  const max = o.max ?? MAX_STRUCTURED_CHARS;
  const clean = sanitizeDeep(value) as Record<string, unknown>;
  const own = typeof value['nextStep'] === 'string' ? (clean['nextStep'] as string) : undefined;
  const whole = { ...clean, nextStep: own ?? o.nextStep };
  if (JSON.stringify(whole).length <= max) return whole;

  const attempt = (level: Level) => {
    const cuts = new Map<string, Cut>();
    const body = shape(clean, level, '', 0, cuts) as Record<string, unknown>;
    const list = [...cuts.values()];
    const shown = list.slice(0, 8).map((c) => `${c.path}: ${c.kept} of ${c.of}`);
    if (list.length > 8) shown.push(`and ${list.length - 8} more places`);
    const step = `This structured result was shortened to ${max} characters (${shown.join('; ')}). ${o.more}`;
    const out = { ...body, leftOut: list.slice(0, 8), nextStep: own ? `${own} ${step}` : step };
    return JSON.stringify(out).length <= max ? out : undefined;
  };
  const longest = longestArray(clean);
  /** The largest n (0…longest, binary search) for which tryWith(n) fits. */
  const most = (tryWith: (n: number) => Record<string, unknown> | undefined) => {
    let best = tryWith(0);
    if (!best) return undefined;
    let lo = 0;
    let hi = longest;
    while (lo < hi) {
      const n = Math.ceil((lo + hi) / 2);
      const out = tryWith(n);
      if (out) {
        best = out;
        lo = n;
      } else hi = n - 1;
    }
    return best;
  };
  for (const [chars, depth] of [
    [2000, 12],
    [400, 12],
    [160, 6],
    [80, 4],
    [60, 2],
  ] as const) {
    // Nested arrays (the alert ids of each group) are cut first, then the outer ones too.
    const best =
      most((nested) => attempt({ chars, depth, items: longest, nested })) ??
      most((items) => attempt({ chars, depth, items, nested: Math.min(items, 3) }));
    if (best) return best;
  }
  // Nothing of the data fits (cannot happen with sane caps): the instruction alone.
  return { nextStep: `${own ? `${own} ` : ''}The structured result was too large to include. ${o.more}` };
}
