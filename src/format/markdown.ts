// Small helpers for the fixed answer shape: a headline, `**Label**: value` lines, compact tables, a note on
// what was left out, and a hint for the next call. Values from the API go through cell() (sanitized).
import { span } from '../rules/index.js';
import { cell } from '../untrusted.js';

export function table(headers: string[], rows: unknown[][]): string {
  if (rows.length === 0) return '';
  const head = `| ${headers.join(' | ')} |\n|${headers.map(() => '---').join('|')}|`;
  return `${head}\n${rows.map((r) => `| ${r.map((v) => cell(v)).join(' | ')} |`).join('\n')}`;
}

export function fields(pairs: Array<[string, unknown]>): string {
  return (
    pairs
      .filter(([, v]) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0))
      // Each element of a list bounded on its own: a long list (a person's roles) is never cut mid-element.
      .map(([k, v]) => `**${k}**: ${Array.isArray(v) ? v.map((x) => cell(x, 200)).join(', ') : cell(v, 200)}`)
      .join('\n')
  );
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

/** "3 h ago" / "in 1 h 59 min" / "in 5 d" relative to now; undefined for a missing or unparsable time. */
export function age(iso: unknown, now: Date = new Date()): string | undefined {
  if (typeof iso !== 'string') return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return undefined;
  const diff = now.getTime() - t;
  if (Math.abs(diff) > 50 * YEAR) return diff < 0 ? 'indefinitely' : 'long ago';
  return diff >= 0 ? `${span(diff)} ago` : `in ${span(-diff)}`;
}

const utcTime = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** "2026-11-21 14:05 UTC (3 h ago)". */
export function when(iso: unknown, now: Date = new Date()): string | undefined {
  const rel = age(iso, now);
  return rel && `${utcTime(iso as string)} (${rel})`;
}

/**
 * Times in a table: absolute beside relative, "2026-11-21 14:05 (3 h ago)", the zone said once by the column's
 * header (`utc('time')` → "time (UTC)"). Every list view draws its times with these two.
 */
export function stamp(iso: unknown, now: Date = new Date()): string | undefined {
  const rel = age(iso, now);
  if (!rel || rel === 'indefinitely' || rel === 'long ago') return rel;
  return `${utcTime(iso as string).replace(' UTC', '')} (${rel})`;
}

export const utc = (column: string) => `${column} (UTC)`;

/** How long from one time to another ("12 min", "1 h 5 min"); undefined when either is missing. */
export function duration(from: unknown, to: unknown): string | undefined {
  const a = typeof from === 'string' ? Date.parse(from) : Number.NaN;
  const b = typeof to === 'string' ? Date.parse(to) : Number.NaN;
  if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
  return span(Math.abs(b - a));
}

/**
 * For a time a person acts on (an acknowledgement lapsing, a window starting or ending): relative, plus the
 * UTC time when it is due within 48 hours — "in 1 h 59 min, 2026-11-21 13:59 UTC".
 */
export function due(iso: unknown, now: Date = new Date()): string | undefined {
  const rel = age(iso, now);
  if (!rel) return undefined;
  const ahead = Date.parse(iso as string) - now.getTime();
  return ahead > 0 && ahead <= 2 * DAY ? `${rel}, ${utcTime(iso as string)}` : rel;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Caps text at max characters, cutting at a line break, with a note saying how to narrow. When the cut falls
 * inside a fenced block (`fenceTag`), the block is closed before the note so the note is not read as data.
 */
export function capText(text: string, max: number, narrow: string, fenceTag?: string): string {
  if (text.length <= max) return text;
  const note = `\n\n… output truncated at ${max} characters. ${narrow}`;
  const close = fenceTag ? `\n</${fenceTag}>` : '';
  const room = max - note.length - close.length;
  const cut = text.lastIndexOf('\n', room);
  const kept = text.slice(0, cut > 0 ? cut : room);
  // An opening tag stands alone on its line (the notice mentions the tag mid-sentence), the kept text's last
  // line included.
  const lines = kept.split('\n');
  const open =
    fenceTag &&
    lines.filter((l) => l === `<${fenceTag}>`).length > lines.filter((l) => l === `</${fenceTag}>`).length;
  return kept + (open ? close : '') + note;
}
