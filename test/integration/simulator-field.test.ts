// The simulator against the field: for every route the vendor's bodies cover (test/fixtures/field), the
// simulator's field-dialect answer must have the field's shape — no field the field does not send (but for the
// ones listed below, each with its reason), the same JSON type for every field both send, and enumerations
// written as the field writes them. The simulator is our reading of the spec; this is where it meets the field.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/field.js';
import { digestFetch, type Simulator, startTestSimulator } from '../helpers/sim.js';

type Shape = { type: string; keys?: Map<string, Shape>; items?: Shape; strings?: Set<string> };

const ENUM = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^[A-Z]{3,}$/;
const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;

/** The shape of a body: objects by their keys, arrays by the merged shape of their items. */
function shapeOf(value: unknown, into?: Shape): Shape {
  const type = typeOf(value);
  const shape: Shape = into ?? { type };
  if (into && into.type !== type && type !== 'null')
    shape.type = into.type === 'null' ? type : `${into.type}|${type}`;
  if (type === 'object') {
    shape.keys ??= new Map();
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      shape.keys.set(k, shapeOf(v, shape.keys.get(k)));
    }
  } else if (type === 'array') {
    for (const item of value as unknown[]) shape.items = shapeOf(item, shape.items);
  } else if (type === 'string') {
    shape.strings ??= new Set();
    shape.strings.add(value as string);
  }
  return shape;
}

/**
 * What the simulator's shape says that the field's does not: unknown keys, other types, enumerations not in
 * the field's case. Keys the field sends and the simulator leaves out are not differences (records vary).
 */
function differences(
  sim: Shape,
  field: Shape,
  path = '',
  known: (path: string) => boolean = () => false,
): string[] {
  const out: string[] = [];
  const simTypes = sim.type.split('|').filter((t) => t !== 'null');
  const fieldTypes = new Set(field.type.split('|'));
  // A field that is null in every body the vendor shows says nothing about its type.
  if (!fieldTypes.has('null') || fieldTypes.size > 1) {
    for (const t of simTypes)
      if (!fieldTypes.has(t)) out.push(`${path || '(body)'}: ${t}, the field sends ${field.type}`);
  }
  // Where every value the field shows is an enumeration (HOST_DOWN, MONITORING), ours must be one too.
  if (sim.strings && field.strings && [...field.strings].every((v) => ENUM.test(v))) {
    for (const v of sim.strings)
      if (!ENUM.test(v)) out.push(`${path}: "${v}" is not written as the field's enumerations`);
  }
  if (sim.keys && field.keys) {
    for (const [k, s] of sim.keys) {
      const where = path ? `${path}.${k}` : k;
      const f = field.keys.get(k);
      if (f) out.push(...differences(s, f, where, known));
      else if (!known(where)) out.push(`${where}: not in the field's body`);
    }
  }
  if (sim.items && field.items) out.push(...differences(sim.items, field.items, `${path}[]`, known));
  return out;
}

let sim: Simulator;
beforeAll(async () => {
  sim = await startTestSimulator({ dialect: 'field' });
});
afterAll(() => sim?.close());

const get = async (path: string) => {
  const r = await digestFetch(sim, 'GET', path);
  expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(200);
  return r.json as Record<string, any>;
};

/**
 * A field the vendor's bodies do not show is still the field's when the spec or the facts about real
 * deployments name it (both sit in ../shared beside the repository, as for every developer and CI); any other
 * is ours alone, and fails.
 */
const shared = new URL('../../../shared/', import.meta.url);
const documents = ['seed/000_45c0bb109752424a.txt', 'reference/api-facts.md'].map((f) => new URL(f, shared));
const haveDocuments = documents.every((d) => existsSync(d));
const documented = new Set(
  haveDocuments ? documents.flatMap((d) => readFileSync(d, 'utf8').match(/\b[a-z][A-Za-z]+\b/g) ?? []) : [],
);
const namedElsewhere = (path: string) => documented.has(path.replace(/\[\]/g, '').split('.').pop()!);

describe('the simulator answers in the field’s shapes', () => {
  const cases: Array<[fixture: string, path: () => Promise<string>]> = [
    ['projects', async () => '/groups'],
    ['org', async () => `/orgs/${sim.orgId}`],
    ['alert-configs', async () => `/groups/${sim.projectIds[0]}/alertConfigs`],
    [
      'alert-config',
      async () => `/groups/${sim.projectIds[0]}/alertConfigs/${await firstId('alertConfigs')}`,
    ],
    ['matcher-field-names', async () => '/alertConfigs/matchers/fieldNames'],
    ['automation-status', async () => `/groups/${sim.projectIds[0]}/automationStatus/full`],
    ['project-events', async () => `/groups/${sim.projectIds[0]}/events`],
    ['project-event', async () => `/groups/${sim.projectIds[0]}/events/${await firstId('events')}`],
    ['hosts', async () => `/groups/${sim.projectIds[0]}/hosts`],
    ['maintenance-windows', async () => `/groups/${sim.projectIds[0]}/maintenanceWindows`],
    [
      'maintenance-window',
      async () => `/groups/${sim.projectIds[0]}/maintenanceWindows/${await firstId('maintenanceWindows')}`,
    ],
    ['agent-links', async () => `/groups/${sim.projectIds[0]}/agents`],
    ['agents-by-type', async () => `/groups/${sim.projectIds[0]}/agents/MONITORING`],
    ['integrations', async () => `/groups/${sim.projectIds[0]}/integrations`],
    ['user', async () => `/users/${sim.store.data.users[0]!.id}`],
    ['user-by-name', async () => `/users/byName/${encodeURIComponent(sim.store.data.users[0]!.username)}`],
  ];

  async function firstId(list: string): Promise<string> {
    const body = await get(`/groups/${sim.projectIds[0]}/${list}`);
    return (body['results'] as Array<{ id: string }>)[0]!.id;
  }

  it.skipIf(!haveDocuments).each(cases)('%s', async (name, path) => {
    const body = await get(await path());
    const diff = differences(shapeOf(body), shapeOf(fixture(name)), '', namedElsewhere);
    expect(diff).toEqual([]);
  });
});

describe('the comparison itself', () => {
  const field = shapeOf({ results: [{ id: 'a', typeName: 'HOST_DOWN', count: 1, created: null }] });
  it('passes a body of the same shape', () => {
    expect(differences(shapeOf({ results: [{ id: 'b', typeName: 'AGENT_DOWN', count: 2 }] }), field)).toEqual(
      [],
    );
  });
  it('names an invented field, a changed type and an enumeration in another case', () => {
    const sim = shapeOf({ results: [{ id: 'b', typeName: 'hostDown', count: '2', extra: true }] });
    expect(differences(sim, field)).toEqual([
      'results[].typeName: "hostDown" is not written as the field\'s enumerations',
      'results[].count: string, the field sends number',
      "results[].extra: not in the field's body",
    ]);
  });
});
