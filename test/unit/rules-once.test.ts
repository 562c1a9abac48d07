// Each platform rule lives once, in src/rules/: no other file of src/, tools/ or apps/ (the simulator, which
// plays the platform, aside) writes a regular expression over event-type names, a windowName, an isPaging, or
// the severity words. A second copy of a rule is how the text and the apps came to disagree.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/vocabulary/index.js';

const root = resolve(new URL('../..', import.meta.url).pathname);
const files = (dir: string): string[] =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const p = join(dir, name);
    return statSync(join(root, p)).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
const under = (p: string, dir: string) => p.startsWith(`${dir}/`);

const checked = [...files('src'), ...files('tools'), ...files('apps')].filter(
  (f) => !under(f, 'src/simulator') && !under(f, 'src/rules'),
);

/** Event-type names a rule may be about: the vocabulary's and the ones only alerts carry. */
const NAMES = [
  ...EVENT_TYPES,
  'AUTOMATION_AGENT_DOWN',
  'CLUSTER_MONGOS_IS_MISSING',
  'ALERT_CONFIG_CHANGED_AUDIT',
  'GLOBAL_ALERT_CONFIG_ADDED_AUDIT',
  'ALERT_ACKNOWLEDGED_AUDIT',
  'PRIMARY_ELECTED',
];

/** Regular-expression literals of a source (after an operator or keyword, so a division is not one). */
function regexes(text: string): RegExp[] {
  const literal =
    /(?:^|[=(,:[!&|?{};]|\breturn)\s*\/((?:\\.|\[(?:\\.|[^\]\n])*\]|[^/\n\\[*])(?:\\.|\[(?:\\.|[^\]\n])*\]|[^/\n\\[])*)\/([dgimsuyv]*)/gm;
  return [...text.matchAll(literal)].flatMap((m) => {
    try {
      return [new RegExp(m[1]!, m[2]!.replace(/[gy]/g, ''))];
    } catch {
      return [];
    }
  });
}

/**
 * A regex over event-type names: it matches one, and spells part of one (a word of three capitals outside its
 * character classes), so /[A-Z]/ or /_/ are not taken for one.
 */
function overNames(r: RegExp): boolean {
  const words =
    r.source
      .replace(/\\./g, ' ')
      .replace(/\[[^\]]*\]/g, ' ')
      .match(/[A-Z]{3,}/g) ?? [];
  return words.some((w) => NAMES.some((n) => n.includes(w))) && NAMES.some((n) => r.test(n));
}

/** Where a rule is written outside src/rules/: "file: what". */
function copies(): string[] {
  return checked.flatMap((f) => {
    const text = readFileSync(join(root, f), 'utf8');
    const out: string[] = [];
    for (const r of regexes(text)) if (overNames(r)) out.push(`${f}: regex over event types ${r}`);
    for (const m of text.matchAll(
      /\b(?:function|const|let|var)\s+(windowName|isPaging)\b|\b(windowName|isPaging)\s*[:=]\s*[(a-z]/g,
    ))
      out.push(`${f}: defines ${m[1] ?? m[2]}`);
    // The MCP logging levels are the protocol's words for a log line, not an alert's severity.
    if (f !== 'src/mcp/logging.ts')
      for (const m of text.matchAll(/(['"`])(critical|warning)\1/g)) out.push(`${f}: '${m[2]}'`);
    return out;
  });
}

describe('each rule once', () => {
  it('finds the copies it looks for (the check itself can fail)', () => {
    const text = "const A = /^(HOST_DOWN|NO_PRIMARY)$/; x.replace(/_AGENT_DOWN$/, ''); const b = 1 / 2 / 3;";
    expect(regexes(text).filter(overNames)).toHaveLength(2);
    expect(regexes('const c = /^[A-Z][A-Z0-9_]*$/; const d = /_/;').filter(overNames)).toHaveLength(0);
  });

  it('writes no regex over event types, windowName, isPaging or severity word outside src/rules/', () => {
    expect(copies()).toEqual([]);
  });
});
