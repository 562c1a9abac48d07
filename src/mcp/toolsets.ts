// Dynamic discovery (DBOPS_TOOLSETS=dynamic): three small tools the model starts with — list_toolsets,
// get_toolset_tools, enable_toolset — registered on the MCP server. What they answer comes from
// src/policy/toolsets.ts; enabling itself (which tools are listed, and who hears of it) is the server's.
import type { McpServer, Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  ALL,
  type ClientSets,
  firstSentence,
  type Toolsets,
  toolsetOf,
  toolsetTable,
} from '../policy/toolsets.js';
import type { AnyTool } from '../tool/index.js';

const setArg = {
  type: 'object',
  properties: { toolset: { type: 'string', description: 'A toolset name from list_toolsets' } },
  required: ['toolset'],
  additionalProperties: false,
} as const;
const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** How the three tools appear in tools/list (the server answers tools/list itself). */
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
      'Lists the tools of one toolset with what each does, without enabling it. Next: enable_toolset to use them.',
    inputSchema: setArg as unknown as Tool['inputSchema'],
    annotations: read,
  },
  {
    name: 'enable_toolset',
    title: 'Enable a toolset',
    description:
      'Adds a toolset\'s tools to your tools (tools/list changes; enabling twice is harmless). Call them next. Example: {"toolset":"windows"}.',
    inputSchema: setArg as unknown as Tool['inputSchema'],
    annotations: { ...read, readOnlyHint: false },
  },
];

interface Discovery {
  sets: Toolsets;
  /** The tools the settings allow this person (read-only and DBOPS_TOOLS apply before any toolset). */
  tools: AnyTool[];
  clientSets(): ClientSets;
  enable(set: string): Promise<void>;
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

export function registerDiscovery(server: McpServer, d: Discovery): void {
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
    const text = `No toolset named "${given.slice(0, 40).replace(/[^\w -]/g, '')}" here; valid: ${valid.join(', ')}. Nothing changed.`;
    return answer(text, { error: text, valid, nextStep: 'Call again with one of the valid names.' }, true);
  };
  const setSchema = { toolset: z.string().max(100).describe('A toolset name from list_toolsets') };

  server.registerTool(
    'list_toolsets',
    { description: discoveryListings[0]!.description, annotations: read },
    async () => {
      const t = toolsetTable(sets, d.clientSets(), (s) => toolsOf(s.name).length);
      return answer(t.text, {
        ...t.structured,
        nextStep: 'enable_toolset {"toolset": …} adds a set\'s tools; get_toolset_tools shows them first.',
      });
    },
  );

  server.registerTool(
    'get_toolset_tools',
    { description: discoveryListings[1]!.description, inputSchema: setSchema, annotations: read },
    async ({ toolset }) => {
      const name = pick(toolset);
      if (typeof name !== 'string') return name;
      const rows = toolsOf(name).map((t) => ({ name: t.name, does: firstSentence(t.description) }));
      const enabled = isEnabled(name);
      const next = enabled
        ? 'They are enabled: call them directly.'
        : `enable_toolset {"toolset":"${name}"} to use them.`;
      const text = [
        `# Toolset ${name} — ${rows.length} tools (${enabled ? 'enabled' : 'not enabled'})`,
        ...rows.map((r) => `- ${r.name}: ${r.does}`),
        `Next: ${next}`,
      ].join('\n');
      return answer(text, { toolset: name, enabled, tools: rows, nextStep: next });
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
      const name = pick(toolset);
      if (typeof name !== 'string') return name;
      const names = toolsOf(name).map((t) => t.name);
      const already = isEnabled(name);
      if (!already) await d.enable(name);
      const next = `call ${names.filter((n) => !sets.everySet.includes(n)).join(', ') || 'its tools'} as needed.`;
      const text = already
        ? `Toolset ${name} was already enabled: ${names.join(', ')}. Next: ${next}`
        : `Enabled toolset ${name}: ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} now in your tools (tools/list changed). Next: ${next}`;
      return answer(text, { toolset: name, enabled: true, already, tools: names, nextStep: `Next: ${next}` });
    },
  );
}
