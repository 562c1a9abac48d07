// Small helpers for the fixed answer shape: a headline, `**Label**: value` lines, compact tables, a note on
// what was left out, and a hint for the next call. Values from the API go through cell() (sanitized).
import { cell } from './untrusted.js';

export function table(headers: string[], rows: unknown[][]): string {
  if (rows.length === 0) return '';
  const head = `| ${headers.join(' | ')} |\n|${headers.map(() => '---').join('|')}|`;
  return `${head}\n${rows.map((r) => `| ${r.map((v) => cell(v)).join(' | ')} |`).join('\n')}`;
}

export function fields(pairs: Array<[string, unknown]>): string {
  return pairs
    .filter(([, v]) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `**${k}**: ${cell(Array.isArray(v) ? v.join(', ') : v, 200)}`)
    .join('\n');
}

/** "3 h ago" / "in 2 d" relative to now; undefined for a missing or unparsable time. */
export function age(iso: unknown, now: Date = new Date()): string | undefined {
  if (typeof iso !== 'string') return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return undefined;
  const diff = now.getTime() - t;
  const abs = Math.abs(diff);
  const units: Array<[number, string]> = [
    [365 * 86_400_000, 'y'],
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
  ];
  const [size, unit] = units.find(([s]) => abs >= s) ?? [1000, 's'];
  const n = Math.floor(abs / size);
  if (abs > 50 * 365 * 86_400_000) return diff < 0 ? 'indefinitely' : 'long ago';
  return diff >= 0 ? `${n} ${unit} ago` : `in ${n} ${unit}`;
}

/** "2026-11-21 14:05 UTC (3 h ago)". */
export function when(iso: unknown, now: Date = new Date()): string | undefined {
  const rel = age(iso, now);
  if (!rel) return undefined;
  const d = new Date(iso as string).toISOString().slice(0, 16).replace('T', ' ');
  return `${d} UTC (${rel})`;
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
  // An opening tag stands alone on its line (the notice mentions the tag mid-sentence).
  const open = fenceTag && kept.split(`<${fenceTag}>\n`).length > kept.split(`</${fenceTag}>`).length;
  return kept + (open ? close : '') + note;
}
