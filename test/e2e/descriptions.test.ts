// Descriptions the model reads are never cut mid-phrase: as tools/list sends them, no tool description and no
// parameter description (at any depth of the input schema) ends inside a parenthesis, on "e.g" or on a word
// that leaves the phrase hanging. A description trimmed to fit a budget must be trimmed at a sentence.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPrompts } from '../../src/mcp/prompts.js';
import { registerResources } from '../../src/mcp/resources.js';
import { startSimulator } from '../../src/simulator/index.js';
import { startTestServer, type TestServer } from '../helpers/mcp.js';

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let t: TestServer;
beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
  t = await startTestServer({ sim, extensions: [registerResources, registerPrompts] });
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

// Words a complete phrase does not end on.
const DANGLING = new Set(
  'a an the and or nor but of to in on at by for with from into onto than as like e.g eg i.e ie such when where which that whose if is are be was were per via vs'.split(
    ' ',
  ),
);

/** Why a description looks cut off, or undefined when it ends as a phrase should. */
function cutOff(text: string): string | undefined {
  const s = text.trim();
  if (!s) return 'empty';
  let depth = 0;
  for (const c of s) {
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
  }
  if (depth > 0) return 'ends inside a parenthesis';
  if (/\be\.g\.?$|\(e\.g\.?$|\bi\.e\.?$/i.test(s)) return 'ends on "e.g"';
  if (/[,;:(\-–—/]$/.test(s)) return `ends on "${s.at(-1)}"`;
  if (/(\.\.\.|…)$/.test(s)) return 'ends with an ellipsis';
  const last = /([A-Za-z.]+)\W*$/.exec(s)?.[1]?.toLowerCase().replace(/\.$/, '');
  if (last && DANGLING.has(last) && !/[.!?)"'`]$/.test(s)) return `ends on "${last}"`;
  return undefined;
}

/** Every description in an input schema, with its path. */
function descriptions(schema: unknown, path: string): Array<[string, string]> {
  if (!schema || typeof schema !== 'object') return [];
  const out: Array<[string, string]> = [];
  const node = schema as Record<string, unknown>;
  if (typeof node.description === 'string') out.push([path, node.description]);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object')
      for (const [name, sub] of Object.entries(value)) out.push(...descriptions(sub, `${path}.${name}`));
    else if (key === 'items' || key === 'additionalProperties') out.push(...descriptions(value, `${path}[]`));
    else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value))
      value.forEach((v, i) => {
        out.push(...descriptions(v, `${path}|${i}`));
      });
  }
  return out;
}

describe('descriptions in tools/list', () => {
  it('the check itself: finds each way of being cut off, and passes whole phrases', () => {
    expect(cutOff('Lists alerts (open ones first')).toBe('ends inside a parenthesis');
    expect(cutOff('A window id (e.g')).toBe('ends inside a parenthesis');
    expect(cutOff('Any duration, e.g')).toBe('ends on "e.g"');
    expect(cutOff('Sort by the time of')).toBe('ends on "of"');
    expect(cutOff('Project id,')).toBe('ends on ","');
    expect(cutOff('Lists alerts (open ones first).')).toBeUndefined();
    expect(cutOff('ISO 8601 (e.g. 2026-01-01T00:00:00Z)')).toBeUndefined();
    expect(cutOff('Page number, from 1')).toBeUndefined();
  });

  it('no tool or parameter description is cut mid-phrase', async () => {
    const { tools } = await t.client.listTools();
    expect(tools.length).toBeGreaterThan(20);
    const bad: string[] = [];
    for (const tool of tools) {
      const all: Array<[string, string]> = [
        [tool.name, tool.description ?? ''],
        ...descriptions(tool.inputSchema, tool.name),
      ];
      for (const [where, text] of all) {
        const why = cutOff(text);
        if (why) bad.push(`${where}: ${why}: …${text.slice(-60)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('no prompt or prompt argument description is cut mid-phrase', async () => {
    const { prompts } = await t.client.listPrompts();
    const bad = prompts.flatMap((p) =>
      [
        [p.name, p.description ?? ''],
        ...(p.arguments ?? []).map((a) => [`${p.name}.${a.name}`, a.description ?? '']),
      ].flatMap(([where, text]) => {
        const why = text ? cutOff(text as string) : undefined;
        return why ? [`${where}: ${why}`] : [];
      }),
    );
    expect(bad).toEqual([]);
  });
});

describe('dbops-mcp tools (one line per tool)', () => {
  it('shortens each description at a sentence, never inside "(e.g. …)"', () => {
    const cli = new URL('../../dist/bin/dbops-mcp.js', import.meta.url).pathname;
    const r = spawnSync(process.execPath, [cli, 'tools'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(20);
    const bad = lines.flatMap((line) => {
      const [name, , ...rest] = line.trim().split(/\s{2,}/);
      const why = cutOff(rest.join(' '));
      return why ? [`${name}: ${why}: ${line.slice(-60)}`] : [];
    });
    expect(bad).toEqual([]);
  });
});
