// structuredContent follows the same discipline as the text: some clients show the model only this part, others
// the whole result JSON-encoded. So every string is sanitized (keys too: raw documents carry platform keys),
// and the whole is bounded whatever the data size: long strings are shortened, long arrays keep their first
// items, deep nesting is emptied, each cut keeping the value's type so the output schema still holds.
// The answer says what was left out (`leftOut`) and what to do next (`nextStep`).
import { sanitize } from '../untrusted.js';

const MAX_STRUCTURED_CHARS = 16_000;

/**
 * One budget for a whole answer (DBOPS_MAX_OUTPUT_CHARS): some clients hand the model the text and the
 * structured content together, mcp-use even the whole result as JSON. So the budget is counted as that JSON:
 * the text JSON-encoded (its newlines and quotes escaped) takes at most two thirds; the structured part gets
 * what is left after the result's envelope (a third at least, never more than MAX_STRUCTURED_CHARS).
 */
export function shareBudget(budget: number) {
  /** `{"content":[{"type":"text","text":…}],"structuredContent":…,"isError":false}` around the two parts. */
  const envelope = 100;
  return {
    /** Most characters the text may take once JSON-encoded. */
    encodedText: Math.floor((budget * 2) / 3),
    structured: (encodedText: number) => Math.min(MAX_STRUCTURED_CHARS, budget - envelope - encodedText),
  };
}

/** Strings the model must receive whole: the consent handles and the instruction itself. */
const WHOLE = new Set(['nextStep', 'confirmationToken', 'approvalId', 'url']);

interface Cut {
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
  /** Most items kept per array path (`results`, `alerts.groups[].alertIds`); absent = all. */
  items: Map<string, number>;
}

/** Sanitizes every key and string, dropping undefined (JSON would drop it anyway). */
function sanitizeDeep(value: unknown): unknown {
  if (typeof value === 'string') return sanitize(value);
  if (Array.isArray(value)) return value.map(sanitizeDeep);
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties, so a platform key named "__proto__" stays data.
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [sanitize(k), sanitizeDeep(v)]),
  );
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
    const limit = depth >= level.depth ? 0 : (level.items.get(path) ?? value.length);
    if (value.length > limit) note(cuts, path, limit, value.length);
    return value.slice(0, limit).map((v) => shape(v, level, `${path}[]`, depth + 1, cuts));
  }
  const entries = Object.entries(value);
  if (depth >= level.depth && entries.length > 0) {
    note(cuts, `${path} (fields)`, 0, entries.length);
    return {};
  }
  return Object.fromEntries(
    entries.map(([k, v]) => [k, shape(v, level, path ? `${path}.${k}` : k, depth + 1, cuts)]),
  );
}

/**
 * The JSON size of a value, adding up per array path: its size (`full`), the part not inside nested arrays
 * (`own`: the heaviest on its own is the next one to cut) and its most items (`kept`).
 */
function weigh(
  value: unknown,
  path: string,
  own: Map<string, number>,
  kept: Map<string, number>,
  full: Map<string, number>,
): number {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)?.length ?? 0;
  if (Array.isArray(value)) {
    let size = 2;
    let inner = 0;
    for (const v of value) {
      const n = weigh(v, `${path}[]`, own, kept, full) + 1;
      size += n;
      inner += nestedArrays(v);
    }
    own.set(path, (own.get(path) ?? 0) + size - inner);
    full.set(path, (full.get(path) ?? 0) + size);
    kept.set(path, Math.max(kept.get(path) ?? 0, value.length));
    return size;
  }
  let size = 2;
  for (const [k, v] of Object.entries(value))
    size += k.length + 4 + weigh(v, path ? `${path}.${k}` : k, own, kept, full);
  return size;
}

/** How much of an item's weight already counts towards the arrays nested in it. */
function nestedArrays(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  if (Array.isArray(value)) return JSON.stringify(value).length;
  let n = 0;
  for (const v of Object.values(value)) n += nestedArrays(v);
  return n;
}

function note(cuts: Map<string, Cut>, path: string, kept: number, of: number): void {
  const c = cuts.get(path);
  if (c) {
    c.kept += kept;
    c.of += of;
  } else cuts.set(path, { path, kept, of });
}

interface BoundOptions {
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
    return { out, size: JSON.stringify(out).length, body };
  };
  // Long strings are shortened, then the array heaviest on its own loses as many items as the excess needs
  // (the alert objects inside each group go before the groups), until the whole fits; only then are
  // strings and nesting cut further.
  const items = new Map<string, number>();
  for (const [chars, depth] of [
    [2000, 12],
    [400, 12],
    [160, 6],
    [80, 4],
    [60, 2],
  ] as const) {
    for (;;) {
      const tried = attempt({ chars, depth, items });
      if (tried.size <= max) return tried.out;
      const own = new Map<string, number>();
      const kept = new Map<string, number>();
      const full = new Map<string, number>();
      weigh(tried.body, '', own, kept, full);
      const heaviest = [...own.entries()]
        .filter(([path]) => (kept.get(path) ?? 0) > 0)
        .sort((x, y) => y[1] - x[1])[0];
      if (!heaviest) break;
      // Items of an array weigh about the same: drop the excess's share (nested arrays included)…
      const path = heaviest[0];
      const n = kept.get(path) ?? 0;
      const share = 1 - (tried.size - max) / (full.get(path) ?? 1);
      // At most half per step, so that several heavy arrays share the cut.
      items.set(path, Math.max(0, Math.min(n - 1, Math.max(Math.floor(n * share), Math.floor(n / 2)))));
    }
  }
  // Nothing of the data fits (cannot happen with sane caps): the instruction alone.
  return { nextStep: `${own ? `${own} ` : ''}The structured result was too large to include. ${o.more}` };
}
