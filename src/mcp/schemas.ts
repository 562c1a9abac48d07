// The schemas a tool has on the wire. Inputs are validated strictly (unknown keys are refused and named) but
// leniently where models are sloppy: `null` or `""` for an optional argument means "not given". The JSON
// Schema that tools/list publishes uses only what OpenAI's strict function rules and Gemini's
// function-declaration subset both accept: optional properties accept null, no open maps (a map is sent as
// [{name, value}] pairs), no length keywords (lengths are checked in code), no exclusive bounds.
import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { proofArguments } from '../policy/channels/index.js';
import { type ConsentSettings, describedAs } from '../policy/consent.js';
import type { AnyTool, ToolKind } from '../tool/index.js';
import { maxKindOf } from '../tool/index.js';
import { appOf } from './apps.js';

const bounded = (what: string, max: number) =>
  z.string().refine((s) => s.length <= max, { message: `${what} must be at most ${max} characters` });

// The arguments the consent channels read back (src/policy/channels/): undescribed, like paging — the answer
// that asks first names them, and the server instructions say them once.
const consentInput = () =>
  Object.fromEntries(proofArguments().map((a) => [a.name, bounded(a.name, a.maxLength).optional()]));

export function inputSchemaFor(tool: AnyTool) {
  return z.strictObject(maxKindOf(tool) === 'read' ? tool.input : { ...tool.input, ...consentInput() });
}

const pair = z.strictObject({ name: z.string(), value: z.unknown() });
const isMap = (s: Json) => s['type'] === 'object' && typeof s['additionalProperties'] === 'object';

/**
 * Args as the strict schema expects them, guided by its JSON Schema at every depth: null and "" for an
 * optional property are dropped, a map sent as [{name, value}] pairs is folded back. Anything else is left
 * for the schema to judge (unknown keys stay refused).
 */
function normalize(value: unknown, schema: Json): unknown {
  if (Array.isArray(value)) {
    if (isMap(schema)) {
      const pairs = z.array(pair).safeParse(value);
      return pairs.success ? Object.fromEntries(pairs.data.map((p) => [p.name, p.value])) : value;
    }
    const items = schema['items'];
    return items && typeof items === 'object' ? value.map((v) => normalize(v, items as Json)) : value;
  }
  const props = schema['properties'] as Record<string, Json> | undefined;
  if (value === null || typeof value !== 'object' || !props) return value;
  const required = new Set((schema['required'] as string[] | undefined) ?? []);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!required.has(k) && props[k] && (v === null || v === '')) continue;
    out[k] = props[k] ? normalize(v, props[k]) : v;
  }
  return out;
}

/**
 * What the SDK validates a call with: the strict schema, after normalize(). The JSON Schema normalize() is
 * guided by is made on the first call, not at start-up: most tools of a session are never called.
 */
function argsSchemaFor(tool: AnyTool) {
  const strict = inputSchemaFor(tool);
  let shape: Json | undefined;
  const guide = () => {
    shape ??= jsonSchema(strict, 'input');
    return shape;
  };
  return z.preprocess((raw) => normalize(raw, guide()), strict);
}

// Undescribed: tools/list repeats it per tool, so the server instructions say what it and `leftOut` are.
const nextStep = z.string();

export function outputSchemaFor(tool: AnyTool) {
  if (maxKindOf(tool) === 'read') return z.looseObject({ ...tool.output, nextStep });
  // Guarded tools answer with an outcome; `result` (the tool's own output) is present once executed.
  return z.looseObject({
    outcome: z.enum(['executed', 'confirmation_required', 'approval_pending', 'declined']),
    // Also `preview` (what will change) and `confirmation` (token, or approvalId and url) until executed;
    // once executed, `result` is the tool's own answer under its declared shape.
    result: z.looseObject(tool.output).optional(),
    nextStep,
  });
}

type Json = Record<string, unknown>;

/** JSON Schema without the `$schema` line the SDK adds to every schema: tools/list stays small. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io,
    unrepresentable: 'any',
  });
  return compact(rest) as Json;
}

/** Drops keywords that restate JSON Schema defaults (`properties: {}`, `additionalProperties: {}`, string keys). */
function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    const empty = v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
    if ((k === 'properties' || k === 'additionalProperties') && empty) continue;
    if (k === 'propertyNames' && JSON.stringify(v) === '{"type":"string"}') continue;
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, compact(s)]))
        : compact(v);
  }
  return out;
}

/** A property that also accepts null (how strict converters express "optional"). */
function nullable(s: Json): Json {
  if (typeof s['type'] === 'string')
    return {
      ...s,
      type: [s['type'], 'null'],
      ...(Array.isArray(s['enum']) ? { enum: [...s['enum'], null] } : {}),
    };
  if (Array.isArray(s['type']))
    return s['type'].includes('null') ? s : { ...s, type: [...s['type'], 'null'] };
  return { anyOf: [s, { type: 'null' }] };
}

/** Rewrites keywords the strict converters refuse into ones they take, everywhere in a schema. */
function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (node === null || typeof node !== 'object') return node;
  const s = node as Json;
  // An open map: [{name, value}] pairs, value typed as the map's values.
  if (s['type'] === 'object' && s['additionalProperties'] && typeof s['additionalProperties'] === 'object') {
    const { additionalProperties: value, type: _t, ...rest } = s;
    const v = value as Json;
    const valueSchema = Array.isArray(v['type'])
      ? { anyOf: (v['type'] as string[]).map((type) => ({ type })) }
      : v;
    return portable({
      ...rest,
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, value: valueSchema },
        required: ['name', 'value'],
      },
    });
  }
  const out: Json = {};
  const required = new Set((s['required'] as string[] | undefined) ?? []);
  for (const [k, v] of Object.entries(s)) {
    // Lengths are checked in code; unknown keys are refused by the server, naming them (Gemini's subset has
    // no additionalProperties, and OpenAI's strict converters add `false` themselves).
    if (k === 'minLength' || k === 'maxLength' || (k === 'additionalProperties' && v === false)) continue;
    if (k === 'exclusiveMinimum' && typeof v === 'number') {
      // Integers: the next whole number; numbers: the bound itself (the server still refuses it).
      out['minimum'] = s['type'] === 'integer' ? v + 1 : v;
      continue;
    }
    out[k] =
      k === 'properties'
        ? Object.fromEntries(
            Object.entries(v as Json).map(([p, x]) => {
              const y = portable(x) as Json;
              return [p, required.has(p) ? y : nullable(y)];
            }),
          )
        : portable(v);
  }
  return out;
}

/**
 * The published input schema: portable, optional properties nullable; at the top, `properties` and
 * `additionalProperties: false` even for a tool without arguments (OpenAI's strict mode refuses a bare
 * `{"type":"object"}` in clients that pass schemas through).
 */
function publishedInput(tool: AnyTool): Json {
  const schema = portable(jsonSchema(inputSchemaFor(tool), 'input')) as Json;
  return { ...schema, properties: schema['properties'] ?? {}, additionalProperties: false };
}

/** What the adapter guarantees on every answer: `nextStep`, and `outcome` for guarded tools. */
const GUARANTEED = ['outcome', 'nextStep'];

/**
 * The published output schema: what every answer carries, required; for a tool an MCP App draws, also each
 * field the app may read, by type. The rest of a tool's fields no client reads from the schema (the answer
 * shows them), and every byte of tools/list is read at the start of every conversation; the SDK still checks
 * each answer against the whole declared shape (outputSchemaFor).
 */
function publishedOutput(tool: AnyTool): Json {
  const schema = jsonSchema(outputSchemaFor(tool), 'output');
  const drawn = appOf(tool) !== undefined;
  const properties = Object.fromEntries(
    Object.entries(schema['properties'] as Record<string, Json>)
      .filter(([k]) => drawn || GUARANTEED.includes(k))
      .map(([k, v]) => [k, typeOnly(v)]),
  );
  // A guarded tool's own answer (`result`, once executed) is published field by field, without `required`.
  const result = (schema['properties'] as Record<string, Json>)['result'];
  if (result && drawn) {
    const fields = (result['properties'] ?? {}) as Record<string, Json>;
    properties['result'] = {
      type: 'object',
      properties: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, typeOnly(v)])),
    };
  }
  return {
    ...schema,
    properties,
    required: ((schema['required'] as string[]) ?? []).filter((k) => GUARANTEED.includes(k)),
  };
}

/**
 * A field of the published output as its type alone: what lies deeper (and an enum's values) the answer itself
 * shows, and every byte of tools/list is read at the start of every conversation.
 */
function typeOnly(s: Json): Json {
  const alternatives = s['anyOf'] as Json[] | undefined;
  if (alternatives?.every((a) => typeof a['type'] === 'string'))
    return { type: alternatives.map((a) => a['type'] as string) };
  if (alternatives) return { anyOf: alternatives.map(typeOnly) };
  return s['type'] !== undefined ? { type: s['type'] } : {};
}

export function annotationsFor(tool: AnyTool) {
  const kind: ToolKind = maxKindOf(tool);
  return {
    readOnlyHint: kind === 'read',
    destructiveHint: kind === 'destructive',
    idempotentHint: kind === 'read' || tool.idempotent === true,
    openWorldHint: tool.openWorld === true,
  };
}

/**
 * The catalog's tools/list entries as the installed command's build computed them: scripts/bundle.mjs defines
 * this from the same build it bundles (turning 35 tools' zod schemas into JSON Schema was ~9 % of every start).
 * Undefined in the unbundled build and the sources, which compute them; test/e2e/bundle.test.ts checks both
 * list the same tools/list.
 */
declare const PREBUILT_LISTINGS: Record<string, Tool> | undefined;
const prebuilt: Record<string, Tool> | undefined =
  typeof PREBUILT_LISTINGS === 'undefined' ? undefined : PREBUILT_LISTINGS;

const listings = new WeakMap<AnyTool, Tool>();
/**
 * The tools/list entry of a tool, computed once per process (every HTTP session lists the same catalog); its
 * description ends with when it asks first under these consent settings (the default policy when not given).
 */
export function listingOf(tool: AnyTool, consent: ConsentSettings = { confirm: 'destructive' }): Tool {
  return { ...listingCached(tool), description: describedAs(tool, consent) };
}

function listingCached(tool: AnyTool): Tool {
  let entry = listings.get(tool);
  if (!entry) {
    entry = prebuilt?.[tool.name] ?? {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: publishedInput(tool) as Tool['inputSchema'],
      outputSchema: publishedOutput(tool) as Tool['outputSchema'],
      annotations: annotationsFor(tool),
    };
    listings.set(tool, entry);
  }
  return entry;
}

// Built once per tool for the process: every HTTP session registers the same catalog, and building them
// per session cost time and memory per session.
const wire = new WeakMap<
  AnyTool,
  { input: ReturnType<typeof argsSchemaFor>; output: ReturnType<typeof outputSchemaFor> }
>();
/** The schemas the SDK checks a tool's arguments and structured content with. */
export function wireSchemas(tool: AnyTool) {
  let w = wire.get(tool);
  if (!w) {
    w = { input: argsSchemaFor(tool), output: outputSchemaFor(tool) };
    wire.set(tool, w);
  }
  return w;
}
