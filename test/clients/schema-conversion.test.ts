// The whole tools/list, converted the way clients convert MCP tools for their model: OpenAI's strict function
// calling (every property required, optional ones nullable, closed objects, a keyword allowlist) and Gemini's
// function-declaration Schema (an OpenAPI 3.0 subset: one type per schema, `nullable`, string enums). Each
// converter refuses any keyword it cannot map, so passing means nothing was dropped.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryListings } from '../../src/mcp/toolsets.js';
import { startTestServer, type TestServer } from '../helpers/mcp.js';

type Json = Record<string, unknown>;

const OPENAI_KEYWORDS = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);
const OPENAI_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

const acceptsNull = (s: Json): boolean =>
  s['type'] === 'null' ||
  (Array.isArray(s['type']) && s['type'].includes('null')) ||
  (Array.isArray(s['anyOf']) && (s['anyOf'] as Json[]).some(acceptsNull));

/** OpenAI strict mode: throws on anything it would have to drop or could not express. */
function toOpenAIStrict(schema: Json, path = '$'): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (!OPENAI_KEYWORDS.has(k)) throw new Error(`${path}: "${k}" is not supported in strict mode`);
    if (k === 'format' && !OPENAI_FORMATS.has(v as string)) throw new Error(`${path}: format ${v}`);
    if (k === 'additionalProperties' && v !== false) throw new Error(`${path}: open additionalProperties`);
    if (k === 'properties')
      out[k] = Object.fromEntries(
        Object.entries(v as Json).map(([p, s]) => [p, toOpenAIStrict(s as Json, `${path}.${p}`)]),
      );
    else if (k === 'items') out[k] = toOpenAIStrict(v as Json, `${path}[]`);
    else if (k === 'anyOf') out[k] = (v as Json[]).map((s, i) => toOpenAIStrict(s, `${path}|${i}`));
    else out[k] = v;
  }
  const types = Array.isArray(schema['type']) ? schema['type'] : [schema['type']];
  if (types.includes('object')) {
    const props = (schema['properties'] ?? {}) as Record<string, Json>;
    const required = new Set((schema['required'] as string[] | undefined) ?? []);
    // Every property becomes required; an optional one must say how to leave it out (null).
    for (const [p, s] of Object.entries(props))
      if (!required.has(p) && !acceptsNull(s)) throw new Error(`${path}.${p}: optional but not nullable`);
    out['required'] = Object.keys(props);
    out['additionalProperties'] = false;
  }
  if (Array.isArray(schema['enum']) && !types.includes('null') && schema['enum'].includes(null))
    throw new Error(`${path}: null in enum of a non-null type`);
  return out;
}

const GEMINI_TYPES: Record<string, string> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
};
const GEMINI_KEYWORDS = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'items',
  'enum',
  'anyOf',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
]);

/**
 * Gemini's function-declaration Schema: throws on anything it would have to drop. The top level's
 * `additionalProperties: false` (there for OpenAI's strict mode) is the one thing Gemini clients drop as they
 * convert; it restricts nothing Gemini could express.
 */
function toGemini(schema: Json, path = '$'): Json {
  if (path !== '$' && !path.includes('.') && schema['additionalProperties'] === false) {
    const { additionalProperties: _dropped, ...rest } = schema;
    schema = rest;
  }
  const out: Json = {};
  let nullable = false;
  for (const [k, v] of Object.entries(schema)) {
    if (!GEMINI_KEYWORDS.has(k)) throw new Error(`${path}: "${k}" is not in the Gemini subset`);
    if (k === 'type') {
      const types = (Array.isArray(v) ? v : [v]) as string[];
      nullable ||= types.includes('null');
      const rest = types.filter((x) => x !== 'null');
      if (rest.length !== 1 || !GEMINI_TYPES[rest[0]!]) throw new Error(`${path}: type ${JSON.stringify(v)}`);
      out['type'] = GEMINI_TYPES[rest[0]!];
    } else if (k === 'enum') {
      const values = (v as unknown[]).filter((x) => x !== null);
      if (values.length < (v as unknown[]).length) nullable = true;
      if (!values.every((x) => typeof x === 'string')) throw new Error(`${path}: non-string enum`);
      out['enum'] = values;
    } else if (k === 'anyOf') {
      const options = (v as Json[]).filter((s) => s['type'] !== 'null');
      if (options.length < (v as Json[]).length) nullable = true;
      out['anyOf'] = options.map((s, i) => toGemini(s, `${path}|${i}`));
    } else if (k === 'properties')
      out[k] = Object.fromEntries(
        Object.entries(v as Json).map(([p, s]) => [p, toGemini(s as Json, `${path}.${p}`)]),
      );
    else if (k === 'items') out[k] = toGemini(v as Json, `${path}[]`);
    else if (k === 'format' && !['date-time', 'enum'].includes(v as string))
      throw new Error(`${path}: format ${v}`);
    else out[k] = v;
  }
  if (nullable) out['nullable'] = true;
  return out;
}

let t: TestServer;
let tools: Tool[];
beforeAll(async () => {
  t = await startTestServer();
  tools = (await t.client.listTools()).tools;
});
/** Every tool a client may be handed: the catalog and dynamic mode's discovery tools. */
const everyTool = () => [...tools, ...(discoveryListings as unknown as Tool[])];
afterAll(() => t.close());

describe('the whole tools/list under strict converters', () => {
  it('declares no string format (validators without format support warn on every call)', () => {
    expect(JSON.stringify(tools)).not.toMatch(/"format":/);
  });

  it('converts every input schema to OpenAI strict functions without loss', () => {
    const failures: string[] = [];
    for (const tool of everyTool()) {
      try {
        // As sent: strict converters that pass the schema through (no repair) need both at the top, even
        // for a tool without arguments.
        const sent = tool.inputSchema as Json;
        if (typeof sent['properties'] !== 'object') throw new Error(`${tool.name}: no properties`);
        if (sent['additionalProperties'] !== false)
          throw new Error(`${tool.name}: additionalProperties not false`);
        const params = toOpenAIStrict(sent, tool.name);
        expect(params['type']).toBe('object');
      } catch (e) {
        failures.push((e as Error).message);
      }
    }
    expect(failures).toEqual([]);
  });

  it('converts every input schema to Gemini function declarations without loss', () => {
    const failures: string[] = [];
    for (const tool of everyTool()) {
      try {
        toGemini(tool.inputSchema as Json, tool.name);
      } catch (e) {
        failures.push((e as Error).message);
      }
    }
    expect(failures).toEqual([]);
  });

  it('keeps optional arguments optional: every non-required property accepts null', () => {
    for (const tool of everyTool()) {
      const schema = tool.inputSchema as Json;
      const required = new Set((schema['required'] as string[] | undefined) ?? []);
      for (const [p, s] of Object.entries((schema['properties'] ?? {}) as Record<string, Json>))
        expect(required.has(p) || acceptsNull(s), `${tool.name}.${p}`).toBe(true);
    }
  });

  it('links the tools an app draws (_meta.ui); the size of tools/list is budgeted in test/unit/toolsets.test.ts', () => {
    expect(tools.some((t) => t._meta !== undefined)).toBe(true);
  });
});
