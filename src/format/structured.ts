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
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== undefined) put(out, sanitize(k), sanitizeDeep(v));
  }
  return out;
}

/** Sets a property as data: a platform key named "__proto__" stays a key, as with Object.fromEntries. */
function put(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

function shape(value: unknown, level: Level, path: string, depth: number, cuts: Map<string, Cut>): unknown {
  if (typeof value === 'string') {
    if (value.length <= level.chars || WHOLE.has(path.slice(path.lastIndexOf('.') + 1))) return value;
    const kept = `${value.slice(0, level.chars - 1)}…`;
    note(cuts, `${path} (characters)`, kept.length, value.length);
    return kept;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const limit = depth >= level.depth ? 0 : (level.items.get(path) ?? value.length);
    if (value.length > limit) note(cuts, path, limit, value.length);
    const items = `${path}[]`;
    const out = new Array<unknown>(Math.min(limit, value.length));
    for (let i = 0; i < out.length; i++) out[i] = shape(value[i], level, items, depth + 1, cuts);
    return out;
  }
  const keys = Object.keys(value);
  if (depth >= level.depth && keys.length > 0) {
    note(cuts, `${path} (fields)`, 0, keys.length);
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const k of keys)
    put(
      out,
      k,
      shape((value as Record<string, unknown>)[k], level, path ? `${path}.${k}` : k, depth + 1, cuts),
    );
  return out;
}

/**
 * The JSON size of a value, adding up per array path: its size (`full`), the part not inside nested arrays
 * (`own`: the heaviest on its own is the next one to cut) and its most items (`kept`). One walk: each call also
 * leaves the value's exact JSON length in `json` and that of the arrays nested in it (not inside another
 * array) in `arrays`, which an item's array subtracts from its own weight.
 */
function weigh(
  value: unknown,
  path: string,
  own: Map<string, number>,
  kept: Map<string, number>,
  full: Map<string, number>,
): number {
  if (value === null || typeof value !== 'object') {
    const n =
      typeof value === 'string'
        ? JSON.stringify(value).length
        : typeof value === 'number'
          ? Number.isFinite(value)
            ? String(value).length
            : 4
          : typeof value === 'boolean'
            ? value
              ? 4
              : 5
            : value === null
              ? 4
              : (JSON.stringify(value)?.length ?? 0);
    json = n;
    arrays = 0;
    return n;
  }
  if (Array.isArray(value)) {
    let size = 2;
    let inner = 0;
    let exact = value.length ? 1 + value.length : 2;
    const items = `${path}[]`;
    for (const v of value) {
      size += weigh(v, items, own, kept, full) + 1;
      exact += v === undefined ? 4 : json; // JSON writes null for it
      inner += arrays;
    }
    own.set(path, (own.get(path) ?? 0) + size - inner);
    full.set(path, (full.get(path) ?? 0) + size);
    kept.set(path, Math.max(kept.get(path) ?? 0, value.length));
    json = exact;
    arrays = exact;
    return size;
  }
  let size = 2;
  const keys = Object.keys(value);
  let exact = keys.length ? 1 + keys.length : 2;
  let inner = 0;
  for (const k of keys) {
    size +=
      k.length + 4 + weigh((value as Record<string, unknown>)[k], path ? `${path}.${k}` : k, own, kept, full);
    exact += keyLength(k) + 1 + json;
    inner += arrays;
  }
  json = exact;
  arrays = inner;
  return size;
}
/** What the last weigh call measured besides its weight (see weigh). */
let json = 0;
let arrays = 0;
/** Keys' JSON lengths: an answer repeats a few field names thousands of times (cleared per answer). */
const keyLengths = new Map<string, number>();
function keyLength(k: string): number {
  let n = keyLengths.get(k);
  if (n === undefined) {
    n = JSON.stringify(k).length;
    keyLengths.set(k, n);
  }
  return n;
}

/** The sums weigh keeps per array path. */
interface Weights {
  own: Map<string, number>;
  kept: Map<string, number>;
  full: Map<string, number>;
}

/**
 * What shape then weigh would make of a value, without building the shaped copy: the same cuts noted, the same
 * weights summed, and in `json` the shaped value's exact JSON length (sanitized values hold no undefined field).
 * Each attempt that does not fit is measured only: a 500-project triage tries eleven levels.
 */
function measure(
  value: unknown,
  level: Level,
  path: string,
  depth: number,
  cuts: Map<string, Cut>,
  w: Weights,
): number {
  if (typeof value === 'string') {
    if (value.length <= level.chars || WHOLE.has(path.slice(path.lastIndexOf('.') + 1)))
      return weigh(value, path, w.own, w.kept, w.full);
    const kept = `${value.slice(0, level.chars - 1)}…`;
    note(cuts, `${path} (characters)`, kept.length, value.length);
    return weigh(kept, path, w.own, w.kept, w.full);
  }
  if (value === null || typeof value !== 'object') return weigh(value, path, w.own, w.kept, w.full);
  if (Array.isArray(value)) {
    const limit = depth >= level.depth ? 0 : (level.items.get(path) ?? value.length);
    if (value.length > limit) note(cuts, path, limit, value.length);
    const n = Math.min(limit, value.length);
    let size = 2;
    let inner = 0;
    let exact = n ? 1 + n : 2;
    const items = `${path}[]`;
    for (let i = 0; i < n; i++) {
      size += measure(value[i], level, items, depth + 1, cuts, w) + 1;
      exact += value[i] === undefined ? 4 : json;
      inner += arrays;
    }
    w.own.set(path, (w.own.get(path) ?? 0) + size - inner);
    w.full.set(path, (w.full.get(path) ?? 0) + size);
    w.kept.set(path, Math.max(w.kept.get(path) ?? 0, n));
    json = exact;
    arrays = exact;
    return size;
  }
  const keys = Object.keys(value);
  if (depth >= level.depth && keys.length > 0) {
    note(cuts, `${path} (fields)`, 0, keys.length);
    json = 2;
    arrays = 0;
    return 2;
  }
  let size = 2;
  let exact = keys.length ? 1 + keys.length : 2;
  let inner = 0;
  for (const k of keys) {
    const v = (value as Record<string, unknown>)[k];
    size += k.length + 4 + measure(v, level, path ? `${path}.${k}` : k, depth + 1, cuts, w);
    exact += keyLength(k) + 1 + json;
    inner += arrays;
  }
  json = exact;
  arrays = inner;
  return size;
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

  // An attempt is measured without being built (its cuts, weights and JSON length: see measure); only the one
  // that fits is built. The JSON length of `{...body, leftOut, nextStep}` is the body's plus the tail's, less
  // the body's own string nextStep (which the tail's replaces); any other body is built to be counted.
  const hasNext = Object.hasOwn(clean, 'nextStep');
  const countable =
    !Object.hasOwn(clean, 'leftOut') &&
    (!hasNext || typeof clean['nextStep'] === 'string') &&
    Object.keys(clean).length > (hasNext ? 1 : 0);
  const replaced = hasNext ? 1 + 11 + JSON.stringify(clean['nextStep']).length : 0; // ,"nextStep":…
  const build = (level: Level) => shape(clean, level, '', 0, new Map()) as Record<string, unknown>;
  const attempt = (level: Level) => {
    const cuts = new Map<string, Cut>();
    const w = {
      own: new Map<string, number>(),
      kept: new Map<string, number>(),
      full: new Map<string, number>(),
    };
    keyLengths.clear();
    measure(clean, level, '', 0, cuts, w);
    const bodyJson = json;
    const list = [...cuts.values()];
    const shown = list.slice(0, 8).map((c) => `${c.path}: ${c.kept} of ${c.of}`);
    if (list.length > 8) shown.push(`and ${list.length - 8} more places`);
    const step = `This structured result was shortened to ${max} characters (${shown.join('; ')}). ${o.more}`;
    const tail = { leftOut: list.slice(0, 8), nextStep: own ? `${own} ${step}` : step };
    const size = countable
      ? bodyJson - replaced + JSON.stringify(tail).length - 1
      : JSON.stringify({ ...build(level), ...tail }).length;
    return { size, tail, ...w };
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
      const level = { chars, depth, items };
      const tried = attempt(level);
      if (tried.size <= max) return { ...build(level), ...tried.tail };
      const { own, kept, full } = tried;
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
