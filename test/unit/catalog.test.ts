// Conventions every tool of the catalog keeps, checked in one place so a new tool cannot drift from them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appOf } from '../../src/mcp/apps.js';
import {
  annotationsFor,
  inputSchemaFor,
  instructionsFor,
  listingOf,
  SERVER_VERSION,
} from '../../src/mcp/server.js';
import { kindOf, needsConsent } from '../../src/policy/consent.js';
import { enabledTools } from '../../src/policy/toolsets.js';
import { type AnyTool, exampleOf, maxKindOf } from '../../src/tool/index.js';
import { catalog } from '../../tools/index.js';
import { EVERY_SET, SETS } from '../../tools/toolsets.js';

/** The spec's endpoints, as the tools the design names: the witness a tool's `beyondSpec` is checked against. */
const SPEC_TOOLS = [
  'create_org_api_key',
  'create_project_api_key',
  'set_alert_config_enabled',
  'create_first_user',
  'list_alert_configs',
  'get_alert_config',
  'list_open_alerts_for_config',
  'get_automation_status',
  'acknowledge_alert',
  'update_user_roles',
  'acknowledge_global_alert',
  'get_user_access_list',
  'create_user',
  'list_open_global_alerts_for_config',
  'put_integration',
  'list_agents',
  'get_agent_links',
  'get_maintenance_window',
  'update_maintenance_window',
  'delete_maintenance_window',
  'get_disk_partition',
  'list_matcher_field_names',
  'list_project_events',
  'get_project_event',
  'list_global_events',
];

const names = catalog.map((t) => t.name);

/** Every `properties` entry anywhere in a JSON schema, with its path. */
function properties(schema: unknown, path = ''): Array<[string, Record<string, unknown>]> {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  const own = Object.entries((s.properties ?? {}) as Record<string, Record<string, unknown>>).map(
    ([k, v]) => [`${path}.${k}`, v] as [string, Record<string, unknown>],
  );
  const nested = [
    ...own.flatMap(([p, v]) => properties(v, p)),
    ...(s.items ? properties(s.items, `${path}[]`) : []),
    ...['anyOf', 'oneOf', 'allOf'].flatMap((k) =>
      Array.isArray(s[k]) ? (s[k] as unknown[]).flatMap((x) => properties(x, path)) : [],
    ),
  ];
  return [...own, ...nested];
}

describe('the tool catalog', () => {
  it('offers every endpoint of the spec as the tool the design names', () => {
    for (const n of SPEC_TOOLS) expect(names, n).toContain(n);
  });

  it('has unique snake_case names and a title on every tool', () => {
    expect(new Set(names).size).toBe(names.length);
    for (const t of catalog) {
      expect(t.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(t.title.length, t.name).toBeGreaterThan(3);
    }
  });

  it('keeps descriptions short and saying when to use the tool', () => {
    for (const t of catalog) {
      expect(t.description.length, t.name).toBeLessThanOrEqual(300);
      expect(t.description, t.name).toMatch(/\b(use|rarely|instead)\b/i);
    }
  });

  it('marks the tools over endpoints the spec does not describe, and never a tool of the spec', () => {
    for (const t of catalog) {
      if (SPEC_TOOLS.includes(t.name)) expect(t.beyondSpec, t.name).toBeUndefined();
      expect(t.description.endsWith('(not on every server)'), t.name).toBe(t.beyondSpec === true);
    }
  });

  it("keeps each tool in its file's toolset, with an example its schema takes", async () => {
    for (const set of [EVERY_SET, ...SETS.map((s) => s.name)]) {
      const url = new URL(`../../tools/${set}.ts`, import.meta.url).href;
      const file = (await import(/* @vite-ignore */ url)) as Record<string, unknown> & { tools: AnyTool[] };
      for (const t of file.tools) expect(t.toolset, t.name).toBe(set);
      // A tool defined but left out of its file's `tools` would be in no catalog, silently.
      const defined = Object.values(file).filter(
        (v): v is AnyTool => typeof v === 'object' && v !== null && 'run' in v && 'toolset' in v,
      );
      expect(
        defined.filter((t) => !file.tools.includes(t)).map((t) => t.name),
        set,
      ).toEqual([]);
    }
    for (const t of catalog) {
      const parsed = inputSchemaFor(t).safeParse(exampleOf(t));
      expect(parsed.error?.message, t.name).toBeUndefined();
    }
  });

  it('describes every input field, nested ones included, but those the server instructions say once', () => {
    const instructions = instructionsFor('destructive');
    // The arguments the instructions explain once (a field whose name is only a word there, like a `paging`
    // filter beside "paging alerts", is still described on its tool).
    const explained = ['pageNum', 'itemsPerPage', 'responseFormat', 'confirmationToken', 'approvalId'];
    for (const name of explained) expect(instructions).toContain(name);
    for (const t of catalog) {
      const schema = z.toJSONSchema(inputSchemaFor(t), { io: 'input' });
      for (const [path, p] of properties(schema)) {
        const said = explained.includes(path.slice(1));
        if (said) expect(p.description, `${t.name}${path}: said once, not per tool`).toBeUndefined();
        else
          expect(typeof p.description === 'string' && p.description.length > 5, `${t.name}${path}`).toBe(
            true,
          );
      }
    }
  });

  it('previews every change and never a read', () => {
    for (const t of catalog) {
      if (maxKindOf(t) === 'read') expect(t.preview, t.name).toBeUndefined();
      else expect(typeof t.preview, t.name).toBe('function');
    }
  });

  it('sets all four annotation hints consistently with the kind', () => {
    for (const t of catalog) {
      const a = annotationsFor(t);
      const kind = maxKindOf(t);
      for (const h of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
        expect(typeof a[h], `${t.name} ${h}`).toBe('boolean');
      expect(a.readOnlyHint, t.name).toBe(kind === 'read');
      expect(a.destructiveHint, t.name).toBe(kind === 'destructive');
      expect(a.readOnlyHint && a.destructiveHint, t.name).toBe(false);
      if (kind === 'read') expect(a.idempotentHint, t.name).toBe(true);
    }
  });

  it('marks PUT- and DELETE-like changes idempotent and minting a credential not', () => {
    const idempotent = (n: string) => annotationsFor(catalog.find((t) => t.name === n)!).idempotentHint;
    for (const n of [
      'put_integration',
      'delete_maintenance_window',
      'update_maintenance_window',
      'update_user_roles',
    ])
      expect(idempotent(n), n).toBe(true);
    for (const n of [
      'create_org_api_key',
      'create_project_api_key',
      'create_user',
      'create_maintenance_window',
    ])
      expect(idempotent(n), n).toBe(false);
  });

  it('gives the credential, role and live-key tools the destructive kind', () => {
    for (const n of [
      'create_org_api_key',
      'create_project_api_key',
      'update_user_roles',
      'put_integration',
      'delete_maintenance_window',
    ])
      expect(maxKindOf(catalog.find((t) => t.name === n)!), n).toBe('destructive');
  });

  it('asks for consent by risk, not by verb: every grant of access under the default policy', () => {
    // Per tool and per DBOPS_CONFIRM value: does a call need the person's consent? Tools whose kind depends
    // on the arguments are listed once per case.
    const cases: Array<[string, Record<string, unknown>, { destructive: boolean; write: boolean }]> = [
      ['create_org_api_key', {}, { destructive: true, write: true }],
      ['create_project_api_key', {}, { destructive: true, write: true }],
      ['create_first_user', {}, { destructive: true, write: true }],
      ['create_user', { roles: [] }, { destructive: true, write: true }],
      ['create_user', { roles: [{ roleName: 'GLOBAL_OWNER' }] }, { destructive: true, write: true }],
      ['update_user_roles', {}, { destructive: true, write: true }],
      ['put_integration', {}, { destructive: true, write: true }],
      ['delete_maintenance_window', {}, { destructive: true, write: true }],
      ['set_alert_config_enabled', { enabled: false }, { destructive: true, write: true }],
      ['set_alert_config_enabled', { enabled: true }, { destructive: false, write: true }],
      ['acknowledge_alert', {}, { destructive: false, write: true }],
      ['acknowledge_global_alert', {}, { destructive: false, write: true }],
      ['create_maintenance_window', {}, { destructive: false, write: true }],
      ['update_maintenance_window', {}, { destructive: false, write: true }],
    ];
    const changes = catalog.filter((t) => maxKindOf(t) !== 'read').map((t) => t.name);
    expect(new Set(cases.map(([n]) => n))).toEqual(new Set(changes));
    for (const [name, args, expected] of cases) {
      const kind = kindOf(catalog.find((t) => t.name === name)!, args);
      expect({ name, args, destructive: needsConsent(kind, 'destructive') }).toEqual({
        name,
        args,
        destructive: expected.destructive,
      });
      expect({ name, args, write: needsConsent(kind, 'write') }).toEqual({
        name,
        args,
        write: expected.write,
      });
      expect(needsConsent(kind, 'never'), name).toBe(false);
    }
    for (const t of catalog.filter((t) => maxKindOf(t) === 'read'))
      for (const c of ['destructive', 'write', 'never'] as const)
        expect(needsConsent('read', c), t.name).toBe(false);
  });

  it('advertises what each answer carries, the fields of a tool an app draws, openWorld, the package version', () => {
    for (const t of catalog) {
      const out = listingOf(t).outputSchema as {
        properties: Record<string, { properties?: object }>;
        required: string[];
      };
      const read = maxKindOf(t) === 'read';
      expect(out.required, t.name).toEqual(read ? ['nextStep'] : ['outcome', 'nextStep']);
      const own = read ? out.properties : out.properties['result']?.properties;
      // What an app reads of the result is declared; no other tool's fields are, the answer shows them.
      const declared = appOf(t) ? Object.keys(t.output) : [];
      expect(
        Object.keys(own ?? {}).filter((k) => k !== 'nextStep'),
        t.name,
      ).toEqual(declared);
      expect(annotationsFor(t).openWorldHint, t.name).toBe(t.openWorld === true);
    }
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(SERVER_VERSION).toBe(pkg.version);
  });

  it('promises no consent in a description: tools/list is the same under every DBOPS_CONFIRM', () => {
    for (const t of catalog) expect(t.description, t.name).not.toMatch(/consent|asks? (the person|first)/i);
  });

  it('rejects unknown arguments (strict inputs) and adds consent fields to changes only', () => {
    for (const t of catalog) {
      const schema = inputSchemaFor(t);
      expect(schema.safeParse({ notAField: 1 }).success, t.name).toBe(false);
      const fields = Object.keys(schema.shape);
      expect(fields.includes('confirmationToken'), t.name).toBe(maxKindOf(t) !== 'read');
      expect(Object.keys(t.input), t.name).not.toContain('confirmationToken');
    }
  });

  it('leaves only read tools in read-only mode and filters by name and kind', () => {
    const readOnly = enabledTools({ readOnly: true, tools: [], disabledTools: [] }, catalog);
    expect(readOnly.length).toBeGreaterThan(15);
    expect(readOnly.every((t) => maxKindOf(t) === 'read')).toBe(true);
    const noDestructive = enabledTools(
      { readOnly: false, tools: [], disabledTools: ['destructive'] },
      catalog,
    );
    expect(noDestructive.map((t) => t.name)).not.toContain('create_org_api_key');
    expect(noDestructive.map((t) => t.name)).toContain('acknowledge_alert');
    const only = enabledTools(
      { readOnly: false, tools: ['list_hosts', 'get_disk_partition'], disabledTools: [] },
      catalog,
    );
    expect(only.map((t) => t.name)).toEqual(['list_hosts', 'get_disk_partition']);
  });
});

describe('checks enforced in code rather than spelled out in tools/list', () => {
  const parse = (name: string, args: Record<string, unknown>) =>
    inputSchemaFor(catalog.find((t) => t.name === name)!).safeParse(args);
  const id = 'a'.repeat(24);

  it('still rejects out-of-range values with a message naming the field', () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['list_alert_configs', { pageNum: 0 }],
      ['list_alert_configs', { itemsPerPage: 501 }],
      ['acknowledge_alert', { alertId: id, forHours: 1, acknowledgementComment: 'x'.repeat(201) }],
      ['acknowledge_alert', { alertId: id, acknowledgedUntil: 'tomorrow' }],
      ['create_org_api_key', { orgId: id, desc: '', roles: ['ORG_MEMBER'] }],
      ['create_org_api_key', { orgId: id, desc: 'x'.repeat(251), roles: ['ORG_MEMBER'] }],
      [
        'create_first_user',
        { username: 'a', password: 'longenough1', firstName: 'A', lastName: 'B', accessList: ['not-an-ip'] },
      ],
      ['get_alert_config', { alertConfigId: 'x'.repeat(201) }],
      [
        'set_alert_config_enabled',
        { alertConfigId: id, enabled: false, confirmationToken: 'x'.repeat(1001) },
      ],
    ];
    for (const [name, args] of cases)
      expect(parse(name, args).success, `${name} ${JSON.stringify(args).slice(0, 80)}`).toBe(false);
  });

  it('accepts the same fields within range', () => {
    expect(parse('list_alert_configs', { pageNum: 1, itemsPerPage: 500 }).success).toBe(true);
    expect(
      parse('acknowledge_alert', { alertId: id, acknowledgedUntil: '2026-11-21T14:00:00Z' }).success,
    ).toBe(true);
    expect(
      parse('create_first_user', {
        username: 'a',
        password: 'longenough1',
        firstName: 'A',
        lastName: 'B',
        accessList: ['203.0.113.7', '::1'],
      }).success,
    ).toBe(true);
  });
});
