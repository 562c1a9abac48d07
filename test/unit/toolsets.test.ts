// The toolsets as defined beside the catalog: every tool in exactly one set (list_projects in all), names
// checked at start with the valid ones listed, the header and the sets a client gets, and the size budgets of
// tools/list as served (with `_meta`): all ≤ 40 KB, triage ≤ 12 KB, the first list in dynamic mode ≤ 4 KB.
import { describe, expect, it } from 'vitest';
import { catalog, toolsets } from '../../src/catalog.js';
import { configSchema, splitList } from '../../src/config/index.js';
import { withApp } from '../../src/mcp/apps.js';
import { listingOf } from '../../src/mcp/server.js';
import { discoveryListings } from '../../src/mcp/toolsets.js';
import {
  callableByName,
  clientSetsOf,
  enabledTools,
  headerNames,
  markNextSteps,
  notListedSet,
  parseToolsets,
  toolsetOf,
} from '../../src/policy/toolsets.js';
import { maxKindOf } from '../../src/tool/index.js';

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
    // Dynamic on the server: any set can be enabled; the header picks the start, and whether this client is
    // dynamic at all (it chose its sets).
    const dyn = clientSetsOf(parseToolsets(['dynamic'], toolsets), ['dynamic']);
    expect(dyn).toMatchObject({ dynamic: true, enabled: new Set(), offered: 'all' });
    const chose = clientSetsOf(
      parseToolsets(['dynamic'], toolsets),
      ['dynamic'],
      parseToolsets(['triage'], toolsets),
    );
    expect(chose).toMatchObject({ dynamic: false, enabled: new Set(['triage']) });
    expect(headerNames('triage windows')).toEqual(['triage', 'windows']);
  });

  it('reaches by name the reads of the sets a dynamic client may enable, never a write', () => {
    const tool = (n: string) => catalog.find((t) => t.name === n)!;
    const server = parseToolsets(['triage', 'windows'], toolsets);
    const dyn = clientSetsOf(server, ['triage', 'windows'], parseToolsets(['dynamic'], toolsets));
    expect(callableByName(toolsets, dyn, tool('list_maintenance_windows'))).toBe(true);
    expect(callableByName(toolsets, dyn, tool('list_projects'))).toBe(true);
    expect(callableByName(toolsets, dyn, tool('create_maintenance_window'))).toBe(false);
    expect(callableByName(toolsets, dyn, tool('list_project_events'))).toBe(false);
    const fixed = clientSetsOf(server, ['triage', 'windows']);
    expect(callableByName(toolsets, fixed, tool('list_maintenance_windows'))).toBe(false);
    for (const t of catalog.filter((x) => maxKindOf(x) !== 'read'))
      expect(
        callableByName(toolsets, clientSetsOf(parseToolsets(['dynamic'], toolsets), []), t),
        t.name,
      ).toBe(false);
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

describe('one parser for every list setting: commas, spaces or both', () => {
  it('reads each list setting, and the toolsets "triage windows" start a server', () => {
    expect(splitList('triage windows')).toEqual(['triage', 'windows']);
    expect(splitList(' triage,  windows ,events')).toEqual(['triage', 'windows', 'events']);
    expect(splitList(['a b', 'c'])).toEqual(['a', 'b', 'c']);
    const c = config({
      toolsets: 'Triage windows',
      tools: 'read acknowledge_alert',
      disabledTools: 'list_hosts, get_disk_partition',
      confirmVia: 'token approval-page',
      approvers: 'alice@example.com bob@example.com',
      allowedOrigins: 'https://a.example https://b.example',
      oauthScopes: 'dbops:read dbops:write',
    });
    expect(c.toolsets).toEqual(['triage', 'windows']);
    expect(c.tools).toEqual(['read', 'acknowledge_alert']);
    expect(c.disabledTools).toEqual(['list_hosts', 'get_disk_partition']);
    expect(c.confirmVia).toEqual(['token', 'approval-page']);
    expect(c.approvers).toEqual(['alice@example.com', 'bob@example.com']);
    expect(c.allowedOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(c.oauthScopes).toEqual(['dbops:read', 'dbops:write']);
    expect(parseToolsets(c.toolsets, toolsets)).toEqual({ dynamic: false, sets: ['triage', 'windows'] });
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
