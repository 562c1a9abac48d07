// Dynamic discovery (DBOPS_TOOLSETS=dynamic): four small tools the model starts with — list_toolsets,
// get_toolset_tools, enable_toolset and call_read_tool — registered on the MCP server. enable_toolset lists a
// set's tools, but only clients that re-list see them (many keep the tools they listed first), so
// call_read_tool reaches every read tool of the sets a client may enable by name, through that tool's own
// pipeline. Changes are never reachable by name: they keep their own tools, the client's prompts and allow
// lists. Where a request has no connection of its own (the 2026-07-28 era over HTTP) nothing is enabled:
// enable_toolset says how instead. What they answer comes from src/policy/toolsets.ts.
import type { McpServer, ServerContext, Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  ALL,
  CALL_BY_NAME,
  type ClientSets,
  callableByName,
  firstSentence,
  hiddenBy,
  howToEnable,
  type ToolFilters,
  type Toolsets,
  toolsetOf,
  toolsetTable,
} from '../policy/toolsets.js';
import { type AnyTool, maxKindOf } from '../tool/index.js';
import type { ToolResult } from './consent.js';
import { listingOf, wireSchemas } from './schemas.js';

const setArg = {
  type: 'object',
  properties: { toolset: { type: 'string', description: 'A toolset name from list_toolsets' } },
  required: ['toolset'],
  additionalProperties: false,
} as const;
// `arguments` is JSON text: an open object cannot be described to strict function calling (it closes it).
const callArg = {
  type: 'object',
  properties: {
    tool: { type: 'string', description: 'A read tool from get_toolset_tools' },
    arguments: { type: ['string', 'null'], description: 'Its arguments as a JSON object' },
  },
  required: ['tool', 'arguments'],
  additionalProperties: false,
} as const;
const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** How the discovery tools appear in tools/list (the server answers tools/list itself). */
export const discoveryListings: Tool[] = [
  {
    name: 'list_toolsets',
    title: 'List toolsets',
    description:
      'Lists the toolsets (groups of tools by area: triage, alerts, windows, …), each with its tool count and whether it is enabled. Use first when the tool you need is not listed; then enable_toolset.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: read,
  },
  {
    name: 'get_toolset_tools',
    title: "Show a toolset's tools",
    description:
      "Lists one toolset's tools with what each does and the read tools' arguments, without enabling it.",
    inputSchema: setArg as unknown as Tool['inputSchema'],
    annotations: read,
  },
  {
    name: 'enable_toolset',
    title: 'Enable a toolset',
    description:
      'Adds a toolset\'s tools to your tools (enabling twice is harmless); its answer says how to call them. Example: {"toolset":"windows"}.',
    inputSchema: setArg as unknown as Tool['inputSchema'],
    annotations: { ...read, readOnlyHint: false },
  },
  {
    name: CALL_BY_NAME,
    title: 'Call a read tool by name',
    description:
      'Calls a read tool of any toolset by name, listed or not. Example: {"tool":"list_maintenance_windows","arguments":"{}"}.',
    inputSchema: callArg as unknown as Tool['inputSchema'],
    annotations: read,
  },
];

interface Discovery {
  sets: Toolsets;
  /** The tools the settings allow this person (read-only, DBOPS_TOOLS and the token apply before any toolset). */
  tools: AnyTool[];
  /** The whole catalog and the settings' filters: what a name that is not allowed is hidden by. */
  catalog: AnyTool[];
  filters: ToolFilters;
  clientSets(): ClientSets;
  enable(set: string): Promise<void>;
  /** Runs a tool through its own pipeline, as its registration would, with validated arguments. */
  call(tool: AnyTool, args: Record<string, unknown>, extra: ServerContext): Promise<ToolResult>;
}

type Text = {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};
const answer = (text: string, structured: Record<string, unknown>, isError = false): Text => ({
  content: [{ type: 'text', text }],
  structuredContent: structured,
  ...(isError ? { isError } : {}),
});
const refuse = (text: string): Text => answer(text, { error: text }, true);
/** A caller's name, quoted without anything that could break out of the sentence. */
const quoted = (given: string) => `"${given.slice(0, 60).replace(/[^\w -]/g, '')}"`;

type Json = Record<string, unknown>;
/** A read tool's arguments as a model needs them: each with its type, whether required, and what it is. */
function argumentsOf(tool: AnyTool): { lines: string[]; schema: Json } {
  const schema = listingOf(tool).inputSchema as Json;
  const props = (schema['properties'] ?? {}) as Record<string, Json>;
  const required = new Set((schema['required'] as string[] | undefined) ?? []);
  const lines = Object.entries(props).map(([name, p]) => {
    const type = [p['type']].flat().filter((t) => t !== 'null' && t !== undefined);
    const values = Array.isArray(p['enum']) ? ` (${p['enum'].filter((v) => v !== null).join('|')})` : '';
    const what = typeof p['description'] === 'string' ? `: ${p['description']}` : '';
    return `${name}${required.has(name) ? '' : '?'} ${type.join('|') || 'any'}${values}${what}`;
  });
  return { lines, schema };
}

/** An example call of a read tool by name, with its required arguments as placeholders. */
const exampleCall = (tool: AnyTool) => {
  const required = ((listingOf(tool).inputSchema as Json)['required'] as string[] | undefined) ?? [];
  const args = JSON.stringify(Object.fromEntries(required.map((r) => [r, '…'])));
  return `${CALL_BY_NAME} {"tool":"${tool.name}","arguments":${JSON.stringify(args)}}`;
};

/** A set's tools as get_toolset_tools and enable_toolset show them. */
interface Described {
  lines: string[];
  structured: Json[];
  /** How to call its first read tool by name ('' when it has none beyond list_projects). */
  byName: string;
  /** Its change tools, which are never reachable by name. */
  changes: string[];
}

/** What the discovery tools share: the sets this client may name, and how a set's tools are shown. */
function setsFor(d: Discovery) {
  const { sets } = d;
  const offered = (name: string) => {
    const o = d.clientSets().offered;
    return o === ALL || o.includes(name);
  };
  const isEnabled = (name: string) => {
    const e = d.clientSets().enabled;
    return e === ALL || e.has(name);
  };
  const toolsOf = (name: string) =>
    d.tools.filter((t) => toolsetOf(sets, t.name) === name || sets.everySet.includes(t.name));
  /** The set named, or the answer refusing the name (naming the valid ones). */
  const pick = (given: string): string | Text => {
    const name = given.trim().toLowerCase();
    if (sets.sets.some((s) => s.name === name) && offered(name)) return name;
    const valid = sets.sets.filter((s) => offered(s.name)).map((s) => s.name);
    const text = `No toolset named ${quoted(given)} here; valid: ${valid.join(', ')}. Nothing changed.`;
    return answer(text, { error: text, valid, nextStep: 'Call again with one of the valid names.' }, true);
  };
  /** A set's tools: what each does, and for its reads (callable by name) the arguments. */
  const describe = (name: string): Described => {
    const rows = toolsOf(name).map((t) => {
      const kind = maxKindOf(t);
      // list_projects is in every set and always listed: its arguments are in tools/list already.
      const args = kind === 'read' && !sets.everySet.includes(t.name) ? argumentsOf(t) : undefined;
      return { tool: t, row: { name: t.name, kind, does: firstSentence(t.description) }, args };
    });
    const lines = rows.flatMap(({ row, args }) => [
      `- ${row.name} (${row.kind}): ${row.does}`,
      ...(args?.lines.map((l) => `  - ${l}`) ?? []),
    ]);
    const structured = rows.map(({ row, args }) => ({
      ...row,
      ...(args ? { inputSchema: args.schema } : {}),
    }));
    const reads = rows.filter((r) => r.row.kind === 'read' && !sets.everySet.includes(r.row.name));
    const changes = rows.filter((r) => r.row.kind !== 'read').map((r) => r.row.name);
    const byName = reads[0] ? exampleCall(reads[0].tool) : '';
    return { lines, structured, byName, changes };
  };
  return { isEnabled, toolsOf, pick, describe };
}

const setSchema = { toolset: z.string().max(100).describe('A toolset name from list_toolsets') };

export function registerDiscovery(server: McpServer, d: Discovery): void {
  const s = setsFor(d);
  server.registerTool(
    'list_toolsets',
    { description: discoveryListings[0]!.description, annotations: read },
    async () => {
      const t = toolsetTable(d.sets, d.clientSets(), (set) => s.toolsOf(set.name).length);
      return answer(t.text, {
        ...t.structured,
        nextStep: `get_toolset_tools shows a set's tools; ${CALL_BY_NAME} calls a read tool by name; enable_toolset {"toolset": …} adds a set's tools.`,
      });
    },
  );
  server.registerTool(
    'get_toolset_tools',
    { description: discoveryListings[1]!.description, inputSchema: setSchema, annotations: read },
    async ({ toolset }) => {
      const name = s.pick(toolset);
      return typeof name === 'string' ? showSet(d, name, s.describe(name), s.isEnabled(name)) : name;
    },
  );
  server.registerTool(
    'enable_toolset',
    {
      description: discoveryListings[2]!.description,
      inputSchema: setSchema,
      annotations: discoveryListings[2]!.annotations!,
    },
    async ({ toolset }) => {
      const name = s.pick(toolset);
      if (typeof name !== 'string') return name;
      return d.clientSets().sessionless && !s.isEnabled(name)
        ? cannotEnable(d, name, s.describe(name))
        : enableNow(d, name, s.describe(name));
    },
  );
  registerCallByName(server, d);
}

/** get_toolset_tools: the set's tools, and how to call them from here. */
function showSet(d: Discovery, name: string, set: Described, enabled: boolean): Text {
  const next = enabled
    ? 'They are in your tools: call them directly.'
    : [
        set.byName && `${set.byName} for a read tool`,
        d.clientSets().sessionless
          ? ''
          : `enable_toolset {"toolset":"${name}"} to add them all to your tools`,
      ]
        .filter(Boolean)
        .join('; ');
  const text = [
    `# Toolset ${name} — ${set.structured.length} tools (${enabled ? 'enabled' : 'not enabled'})`,
    ...set.lines,
    `Next: ${next}.`,
  ].join('\n');
  return answer(text, { toolset: name, enabled, tools: set.structured, nextStep: `${next}.` });
}

/** call_read_tool: a read tool this client may reach, with arguments valid for it, through its own pipeline. */
function registerCallByName(server: McpServer, d: Discovery): void {
  server.registerTool(
    CALL_BY_NAME,
    {
      description: discoveryListings[3]!.description,
      inputSchema: {
        tool: z.string().max(100),
        arguments: z.union([z.string().max(100_000), z.record(z.string(), z.unknown())]).nullish(),
      },
      annotations: read,
    },
    async ({ tool, arguments: given }, extra) => {
      const found = reachByName(d, tool);
      if (!('tool' in found)) return found;
      const args = argumentsFrom(given);
      if (typeof args === 'string') return refuse(`${tool}: ${args}; nothing was called.`);
      const parsed = wireSchemas(found.tool).input.safeParse(args);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`);
        return refuse(
          `Input validation error: Invalid arguments for tool ${tool}: ${issues.join('; ')}. Its arguments: ${argumentsOf(found.tool).lines.join('; ') || 'none'}.`,
        );
      }
      return d.call(found.tool, parsed.data as Record<string, unknown>, extra);
    },
  );
}

/** enable_toolset on a connection of its own: listed now; for a client that keeps its first tools, by name. */
async function enableNow(d: Discovery, name: string, set: Described): Promise<Text> {
  const e = d.clientSets().enabled;
  const already = e === ALL || e.has(name);
  if (!already) await d.enable(name);
  const names = set.structured.map((t) => t['name'] as string);
  const listed = already
    ? `Toolset ${name} was already enabled: ${names.join(', ')}.`
    : `Enabled toolset ${name}: ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} now in tools/list (tools/list_changed sent).`;
  const unchanged = [
    set.byName && `${set.byName} for a read tool (arguments below)`,
    set.changes.length > 0 &&
      `its changes (${set.changes.join(', ')}) appear once your client lists tools again`,
  ]
    .filter(Boolean)
    .join('; ');
  const next = `call them as needed; if your tools did not change, ${unchanged || 'list tools again'}.`;
  const text = [`${listed} Next: ${next}`, ...set.lines].join('\n');
  return answer(text, {
    toolset: name,
    enabled: true,
    already,
    tools: set.structured,
    nextStep: `Next: ${next}`,
  });
}

/** How a change tool of a set reaches this client: listed already, enable_toolset, or configuration. */
function changeWay(d: Discovery, set: string): string {
  const cs = d.clientSets();
  if (cs.enabled === ALL || cs.enabled.has(set))
    return 'call it directly: it is in tools/list (if your tools did not change, your client must list them again)';
  return howToEnable(cs, set);
}

/** enable_toolset where nothing is kept between requests: the reads by name; changes only by configuration. */
function cannotEnable(d: Discovery, name: string, set: Described): Text {
  const how = changeWay(d, name);
  const changes = set.changes.length
    ? ` Its changes (${set.changes.join(', ')}) come only through DBOPS_TOOLSETS or the X-MCP-Toolsets header: ${how}.`
    : '';
  const next = set.byName ? `${set.byName} for a read tool.` : 'list_toolsets for the other sets.';
  const text = [
    `Toolset ${name} is not added to your tools: here each request gets the tools of DBOPS_TOOLSETS and its X-MCP-Toolsets header, and nothing is kept between requests.${changes} Next: ${next}`,
    ...set.lines,
  ].join('\n');
  return answer(text, {
    toolset: name,
    enabled: false,
    tools: set.structured,
    ...(set.changes.length ? { changesNeed: how } : {}),
    nextStep: `Next: ${next}`,
  });
}

/** The tool call_read_tool may run for this name, or the refusal naming the rule that applied. */
function reachByName(d: Discovery, given: string): { tool: AnyTool } | Text {
  const name = given.trim();
  const tool = d.tools.find((t) => t.name === name);
  if (tool && callableByName(d.sets, d.clientSets(), tool)) return { tool };
  if (!tool) {
    const hidden = d.catalog.find((t) => t.name === name);
    return refuse(
      hidden
        ? `${name} is disabled on this server by ${hiddenBy(d.filters, hidden)}; nothing was called.`
        : `No tool named ${quoted(given)}; ${CALL_BY_NAME} calls the read tools get_toolset_tools shows. Nothing was called.`,
    );
  }
  if (maxKindOf(tool) !== 'read')
    return refuse(
      `${name} changes something, and ${CALL_BY_NAME} calls read tools only; nothing was called. To use it: ${changeWay(d, toolsetOf(d.sets, name) ?? '')}.`,
    );
  const set = toolsetOf(d.sets, name) ?? '';
  return refuse(
    `${name} is in the toolset "${set}": ${howToEnable(d.clientSets(), set)}; nothing was called.`,
  );
}

/** The arguments as an object: JSON text, an object, or none; otherwise why not. */
function argumentsFrom(given: string | Record<string, unknown> | null | undefined): Json | string {
  if (given === null || given === undefined || given === '') return {};
  if (typeof given !== 'string') return given;
  try {
    const v = JSON.parse(given) as unknown;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Json;
  } catch {}
  return 'arguments must be a JSON object, such as "{}" or "{\\"projectId\\":\\"…\\"}"';
}
