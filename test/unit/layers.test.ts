// The layering docs/architecture.md draws, checked from the imports themselves, with no list of exceptions: a
// change that imports upwards, in a circle, sideways between tools, or from the simulator into the client fails
// here; so does a tool that draws its own text, or a file outside the API's one partition.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolsets } from '../../tools/index.js';

const root = resolve(new URL('../..', import.meta.url).pathname);

function files(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const p = join(dir, name);
    return statSync(join(root, p)).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const sources = [...files('src'), ...files('tools'), ...files('prompts')];

/** Project files a file imports (static, dynamic and type-only, re-exports included). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specs = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s+'(\.[^']+)'/g),
    ...text.matchAll(/import\(\s*'(\.[^']+)'\s*\)/g),
  ].map((m) => m[1] as string);
  return specs.map((s) => relative(root, resolve(root, dirname(file), s)).replace(/\.js$/, '.ts'));
}

const edges = sources.flatMap((from) => importsOf(from).map((to) => ({ from, to })));
const under = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);

/**
 * Layers, bottom to top; a file may import its own layer and the ones below. Within a layer, folders do
 * not import each other upwards either (format below tool, feeds and policy beside each other).
 */
const LAYERS: Array<[number, string[]]> = [
  [
    1,
    [
      'src/vocabulary',
      'src/rules',
      'src/log.ts',
      'src/net.ts',
      'src/config',
      'src/version.ts',
      'src/metrics.ts',
      'src/untrusted.ts',
    ],
  ],
  [2, ['src/api']],
  [3, ['src/model']],
  [4, ['src/format', 'src/state']],
  [5, ['src/tool']],
  [6, ['src/feeds', 'src/policy', 'src/approval', 'src/identity']],
  [7, ['tools', 'prompts']],
  // What the server offers, assembled once from tools/ and prompts/: the doctor and the adapter both read it.
  [8, ['src/catalog.ts']],
  [9, ['src/doctor']],
  // The adapter (the SDK's door, HTTP in src/mcp/http/) and the entry points: the doctor never imports them.
  [10, ['src/mcp', 'src/index.ts', 'src/cli.ts']],
];

function layerOf(file: string): number | undefined {
  let best: [number, number] | undefined; // [layer, length of the matching prefix]
  for (const [layer, dirs] of LAYERS)
    for (const d of dirs)
      if (under(file, d.replace(/\.ts$/, '')) || file === d)
        if (!best || d.length > best[1]) best = [layer, d.length];
  return best?.[0];
}

const show = (es: Array<{ from: string; to: string }>) => es.map((e) => `${e.from} → ${e.to}`);

describe('the layering', () => {
  it('places every source file in a layer', () => {
    const unplaced = sources.filter((f) => !under(f, 'src/simulator') && layerOf(f) === undefined);
    expect(unplaced).toEqual([]);
  });

  it('imports downwards only', () => {
    const up = edges.filter((e) => {
      if (under(e.from, 'src/simulator') || under(e.to, 'src/simulator')) return false;
      const [a, b] = [layerOf(e.from), layerOf(e.to)];
      return a !== undefined && b !== undefined && b > a;
    });
    expect(show(up)).toEqual([]);
  });

  it('keeps tools a leaf: only src/catalog.ts imports tools/ and prompts/, and no tool imports another', () => {
    const bad = edges.filter(
      (e) =>
        (under(e.to, 'tools') || under(e.to, 'prompts')) &&
        !(e.from === 'src/catalog.ts' && (e.to === 'tools/index.ts' || e.to === 'prompts/index.ts')) &&
        !(e.from === 'tools/index.ts' && under(e.to, 'tools')) &&
        !(under(e.from, 'prompts') && under(e.to, 'prompts')),
    );
    expect(show(bad)).toEqual([]);
  });

  it('keeps the simulator apart: it imports only the spec and base modules, and nothing imports it but demo mode', () => {
    const out = edges.filter(
      (e) =>
        under(e.from, 'src/simulator') &&
        !under(e.to, 'src/simulator') &&
        !under(e.to, 'src/vocabulary') &&
        !['src/log.ts', 'src/net.ts'].includes(e.to),
    );
    expect(show(out)).toEqual([]);
    const into = edges.filter(
      (e) =>
        under(e.to, 'src/simulator') &&
        !under(e.from, 'src/simulator') &&
        !['src/mcp/runtime.ts', 'src/cli.ts', 'src/index.ts', 'src/doctor/target.ts'].includes(e.from),
    );
    expect(show(into)).toEqual([]);
  });

  it('draws entities in views only: feeds, policy and tools take rows and headlines from src/format/views', () => {
    // A view is imported by the tools of its entity; no view imports a tool, a feed or the policy.
    const views = files('src/format/views');
    expect(views.length).toBeGreaterThan(0);
    const fromViews = edges.filter((e) => under(e.from, 'src/format/views') && layerOf(e.to)! > 4);
    expect(show(fromViews)).toEqual([]);
  });

  it('keeps the rules pure: src/rules/ imports src/vocabulary/ only, no I/O, so the apps may import them', () => {
    const out = edges.filter(
      (e) => under(e.from, 'src/rules') && !under(e.to, 'src/rules') && !under(e.to, 'src/vocabulary'),
    );
    expect(show(out)).toEqual([]);
    const io = files('src/rules').filter((f) =>
      /from 'node:|\bfetch\(|\bprocess\./.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(io).toEqual([]);
  });

  it('lets the apps import ext-apps, each other and the rules only (they run in the host, not here)', () => {
    const apps = readdirSync(join(root, 'apps'))
      .filter((n) => n.endsWith('.ts'))
      .map((n) => `apps/${n}`);
    const bad = apps.flatMap((from) =>
      [...readFileSync(join(root, from), 'utf8').matchAll(/\bfrom\s+'([^']+)'/g)]
        .map((m) => m[1] as string)
        .filter((spec) =>
          spec.startsWith('.')
            ? !(spec.startsWith('./') || under(relative(root, resolve(root, 'apps', spec)), 'src/rules'))
            : !spec.startsWith('@modelcontextprotocol/ext-apps'),
        )
        .map((to) => `${from} → ${to}`),
    );
    expect(bad).toEqual([]);
  });

  it('lets views take record types from below, not from the client', () => {
    const viewsOnClient = edges.filter((e) => under(e.from, 'src/format') && e.to === 'src/api/client.ts');
    expect(show(viewsOnClient)).toEqual([]);
  });

  it('gives every tool a view: a tool file draws no table or record of its own', () => {
    // The index and the toolsets (tools/toolsets.ts: names grouped by area) assemble tools; they are none.
    const tools = files('tools').filter((f) => f !== 'tools/index.ts' && f !== 'tools/toolsets.ts');
    const noView = tools.filter((f) => !importsOf(f).some((t) => under(t, 'src/format/views')));
    expect(noView).toEqual([]);
    const drawn = /\bcolumns:\s*\[|\brow:\s*\(|\btable\(\s*\[|Pairs\s*=\s*\(/;
    const drawing = tools.filter((f) => drawn.test(readFileSync(join(root, f), 'utf8')));
    expect(drawing).toEqual([]);
  });

  it('has no circle: no file reaches itself through its imports', () => {
    const next = new Map<string, string[]>();
    for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    const circles: string[] = [];
    const done = new Set<string>();
    const walk = (f: string, path: string[]) => {
      const at = path.indexOf(f);
      if (at >= 0) return void circles.push([...path.slice(at), f].join(' → '));
      if (done.has(f)) return;
      for (const t of next.get(f) ?? []) walk(t, [...path, f]);
      done.add(f);
    };
    for (const f of sources) walk(f, []);
    expect(circles).toEqual([]);
  });

  it('keeps every text a person reads in the views: a tool builds no markdown and fences no platform text', () => {
    // markdown.ts (tables, fields, ages, plurals) and untrusted.ts (fencing platform text) are how text is drawn.
    const drawing = edges.filter(
      (e) => under(e.from, 'tools') && ['src/format/markdown.ts', 'src/untrusted.ts'].includes(e.to),
    );
    expect(show(drawing)).toEqual([]);
  });

  it('keeps the feeds to reading: they hand what they read to a view, and build no markdown of their own', () => {
    const drawing = edges.filter((e) => under(e.from, 'src/feeds') && e.to === 'src/format/markdown.ts');
    expect(show(drawing)).toEqual([]);
  });

  it('imports the MCP SDK in the entry points only (src/mcp/, src/cli.ts, src/index.ts), types included', () => {
    const sdk = sources.filter(
      (f) =>
        !under(f, 'src/mcp') &&
        !['src/cli.ts', 'src/index.ts'].includes(f) &&
        /from\s+'@modelcontextprotocol\/(?!ext-apps)/.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(sdk).toEqual([]);
  });

  it('keeps reads across projects out of the tools: a tool calls a feed, which reads every project (everywhere.ts)', () => {
    const reading = edges.filter((e) => under(e.from, 'tools') && e.to === 'src/feeds/everywhere.ts');
    expect(show(reading)).toEqual([]);
  });

  it("cuts the API into the toolsets' areas everywhere: tools, client areas, views and simulator routes", () => {
    const areas = ['projects', ...toolsets.map((t) => t.name)];
    const infrastructure: Record<string, string[]> = {
      tools: ['index', 'toolsets'],
      'src/api/areas': ['context'],
      'src/format/views': [],
      'src/simulator/routes': ['index', 'render', 'validate'],
    };
    const outside = Object.entries(infrastructure).flatMap(([dir, own]) =>
      files(dir)
        .map((f) => f.slice(dir.length + 1, -3))
        .filter((n) => !own.includes(n) && !areas.some((a) => n === a || n.startsWith(`${a}-`)))
        .map((n) => `${dir}/${n}.ts`),
    );
    expect(outside).toEqual([]);
  });
});
