// Every "Next:" line of every answer snapshot (test/e2e/answers/*.md) names calls that can give what it
// promises: each tool it names is in the catalog, each argument it names (`x=`, "with an x") is one that tool
// takes, and none points to a dead end — a tool whose platform answer cannot carry what its name suggests.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalog } from '../../src/catalog.js';

const dir = resolve(new URL('../e2e/answers', import.meta.url).pathname);
const tools = new Map(catalog.map((t) => [t.name, t]));

/**
 * Dead ends: the spec's disk endpoints give a partition's name only (no size, no usage), so get_disk_partition
 * answers with what the caller already knows; disk usage comes from disk alerts' values.
 */
const DEAD_ENDS = new Set(['get_disk_partition']);

/** The answer's own Next: lines (fenced platform data dropped). */
const nextLines = (text: string) =>
  text
    .replace(/<data-[A-Za-z0-9]+>[\s\S]*?<\/data-[A-Za-z0-9]+>/g, '')
    .split('\n')
    .filter((l) => l.startsWith('Next: '));

/** What is wrong with one Next: line (none when nothing). */
function problems(line: string): string[] {
  const out: string[] = [];
  // Each call is a clause: "tool … ; tool …" or "tool …, tool …".
  const clauses = line.slice(6).split(/;|, (?=[a-z]+_[a-z_]+)|\bor (?=[a-z]+_[a-z_]+)/);
  let named = 0;
  for (const clause of clauses) {
    const tool = /\b([a-z]+(?:_[a-z]+)+)\b/.exec(clause)?.[1];
    if (!tool) continue;
    const def = tools.get(tool);
    if (!def) {
      out.push(`names ${tool}, not in the catalog`);
      continue;
    }
    named++;
    if (DEAD_ENDS.has(tool)) out.push(`points to ${tool}, a dead end`);
    const args = [
      ...[...clause.matchAll(/\b([a-z][A-Za-z]+)=/g)].map((m) => m[1]!),
      ...[...clause.matchAll(/\bwith (?:an? |the )?([a-z]+[A-Z][A-Za-z]*)\b/g)].map((m) => m[1]!),
    ];
    for (const a of args) if (!(a in def.input)) out.push(`${tool} takes no ${a}`);
  }
  if (!named) out.push('names no tool');
  return out;
}

describe('Next: lines in the answer snapshots', () => {
  it('the check itself can fail', () => {
    expect(problems('Next: get_disk_partition with a hostId.')).toEqual([
      'points to get_disk_partition, a dead end',
    ]);
    expect(problems('Next: list_project_events with a partitionName.')).toEqual([
      'list_project_events takes no partitionName',
    ]);
    expect(problems('Next: list_things for more.')).toEqual([
      'names list_things, not in the catalog',
      'names no tool',
    ]);
    expect(problems('Next: list_open_alerts; list_project_events with target=x and history=true.')).toEqual(
      [],
    );
  });

  it('every Next: line names calls that can give what it promises', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.md'));
    expect(files.length).toBeGreaterThan(30);
    const found = files.flatMap((f) =>
      nextLines(readFileSync(join(dir, f), 'utf8')).flatMap((l) =>
        problems(l).map((p) => `${f}: ${p} — ${l}`),
      ),
    );
    expect(found).toEqual([]);
  });
});
