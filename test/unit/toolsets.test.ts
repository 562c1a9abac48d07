// The toolsets as defined beside the catalog: every tool in exactly one set (list_projects in all), names
// checked at start with the valid ones listed, the header and the sets a client gets, and the size budgets of
// tools/list as served (with `_meta`): all ≤ 40 KB, triage ≤ 12 KB, the first list in dynamic mode ≤ 4 KB.
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/index.js';
import { withApp } from '../../src/mcp/apps.js';
import { catalog, toolsets } from '../../src/mcp/catalog.js';
import { listingOf } from '../../src/mcp/server.js';
import { discoveryListings } from '../../src/mcp/toolsets.js';
import {
  clientSetsOf,
  enabledTools,
  headerNames,
  markNextSteps,
  notListedSet,
  parseToolsets,
  toolsetOf,
} from '../../src/policy/toolsets.js';

const config = (over: Record<string, unknown> = {}) => configSchema.parse({ demo: true, ...over });
const listed = (names: string) => {
  const c = config({ toolsets: names });
  const clientSets = clientSetsOf(parseToolsets(c.toolsets, toolsets), c.toolsets);
  return enabledTools(c, catalog, toolsets, clientSets);
};
/** tools/list as the server answers it, in UTF-8 bytes (listings with their `_meta`). */
const bytes = (tools: Array<Record<string, unknown>>) => Buffer.byteLength(JSON.stringify({ tools }));
const served = (names: string) => listed(names).map((t) => withApp(listingOf(t), t));

describe('the toolsets', () => {
  it('places every tool in exactly one set, list_projects in every set', () => {
    const placed = toolsets.sets.flatMap((s) => s.tools);
    expect(new Set(placed).size).toBe(placed.length);
    const names = catalog.map((t) => t.name);
    expect([...placed, ...toolsets.everySet].sort()).toEqual([...names].sort());
    expect(toolsets.everySet).toEqual(['list_projects']);
    expect(toolsets.sets.map((s) => s.name)).toEqual([
      'triage',
      'alerts',
      'windows',
      'events',
      'deployment',
      'access',
      'integrations',
    ]);
  });

  it('lists each set alone (with list_projects), and all by default: the tools that name it as their toolset', () => {
    const of = (set: string) =>
      catalog
        .filter((t) => t.toolset === set || toolsets.everySet.includes(t.name))
        .map((t) => t.name)
        .sort();
    for (const { name } of toolsets.sets) {
      expect(of(name).length, name).toBeGreaterThan(toolsets.everySet.length);
      expect(
        listed(name)
          .map((t) => t.name)
          .sort(),
        name,
      ).toEqual(of(name));
    }
    expect(listed('triage,windows').length).toBe(of('triage').length + of('windows').length - 1);
    expect(listed('all').length).toBe(catalog.length);
    expect(listed('').length).toBe(catalog.length);
  });

  it('narrows further by read-only and DBOPS_TOOLS', () => {
    const c = config({ toolsets: 'windows', readOnly: true });
    const clientSets = clientSetsOf(parseToolsets(c.toolsets, toolsets), c.toolsets);
    expect(enabledTools(c, catalog, toolsets, clientSets).map((t) => t.name)).toEqual([
      'list_projects',
      'list_maintenance_windows',
      'get_maintenance_window',
    ]);
    const d = config({ toolsets: 'windows', tools: 'list_projects,triage_project' });
    const only = enabledTools(
      d,
      catalog,
      toolsets,
      clientSetsOf(parseToolsets(d.toolsets, toolsets), d.toolsets),
    );
    expect(only.map((t) => t.name)).toEqual(['list_projects']);
  });

  it('refuses unknown names with the valid ones listed', () => {
    expect(() => parseToolsets(['triage', 'widnows'], toolsets)).toThrow(
      /DBOPS_TOOLSETS.*unknown toolset "widnows" \(did you mean windows\?\); valid: triage, alerts, windows, events, deployment, access, integrations, all, dynamic/,
    );
    expect(parseToolsets(['dynamic'], toolsets)).toEqual({ dynamic: true, sets: [] });
    expect(parseToolsets(['dynamic', 'triage'], toolsets)).toEqual({ dynamic: true, sets: ['triage'] });
    expect(parseToolsets([], toolsets)).toEqual({ dynamic: false, sets: 'all' });
  });

  it('narrows by the X-MCP-Toolsets header within what the server offers', () => {
    expect(headerNames(' Triage , windows,')).toEqual(['triage', 'windows']);
    expect(headerNames('')).toBeUndefined();
    const server = parseToolsets(['triage', 'alerts'], toolsets);
    const v = clientSetsOf(server, ['triage', 'alerts'], parseToolsets(['triage', 'windows'], toolsets));
    expect(v.enabled).toEqual(new Set(['triage']));
    expect(notListedSet(toolsets, v, 'list_alert_configs')).toBe('alerts');
    expect(notListedSet(toolsets, v, 'list_projects')).toBeUndefined();
    // Dynamic on the server: the header picks the start, any set can be enabled; enabled sets add to it.
    const dyn = clientSetsOf(parseToolsets(['dynamic'], toolsets), ['dynamic'], undefined, ['events']);
    expect(dyn.dynamic).toBe(true);
    expect(dyn.enabled).toEqual(new Set(['events']));
    expect(dyn.offered).toBe('all');
  });

  it('marks Next: lines that name a tool outside the enabled sets, never inside fenced data', () => {
    const clientSets = clientSetsOf(parseToolsets(['dynamic', 'triage'], toolsets), ['dynamic', 'triage']);
    const hidden = (n: string) => notListedSet(toolsets, clientSets, n);
    const text =
      'Head\nNext: create_maintenance_window to mute it; triage_project again.\n<data-x>\nNext: delete_maintenance_window\n</data-x>';
    const out = markNextSteps(text, 'data-x', hidden, clientSets);
    expect(out).toContain(
      'Next: create_maintenance_window to mute it; triage_project again. (create_maintenance_window is in toolset windows, not enabled: enable_toolset {"toolset":"windows"} first)',
    );
    expect(out).toContain('<data-x>\nNext: delete_maintenance_window\n</data-x>');
    expect(toolsetOf(toolsets, 'list_projects')).toBeUndefined();
  });
});

describe('the size of tools/list as served (with _meta)', () => {
  it('keeps the whole catalog ≤ 40 KB, triage ≤ 12 KB and the first dynamic list ≤ 4 KB', () => {
    const sizes: Record<string, number> = { all: bytes(served('all')) };
    for (const s of toolsets.sets) sizes[s.name] = bytes(served(s.name));
    sizes.dynamic = bytes([...discoveryListings, ...served('dynamic')] as never);
    console.log('tools/list bytes', sizes);
    expect(sizes.all).toBeLessThanOrEqual(40_000);
    expect(sizes.triage).toBeLessThanOrEqual(12_000);
    expect(sizes.dynamic).toBeLessThanOrEqual(4_000);
  });
});
