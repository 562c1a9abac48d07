// Which tools a client sees: the settings that hide tools (DBOPS_READ_ONLY, DBOPS_TOOLS, DBOPS_DISABLED_TOOLS,
// a token without the write scope) and the toolsets (DBOPS_TOOLSETS, the X-MCP-Toolsets header, and the sets
// a client enabled in dynamic mode). The sets themselves are defined beside the catalog (tools/toolsets.ts);
// every function here takes them, so the policy stays below the catalog. The MCP adapter only applies this.
import { ConfigError, nearest, splitList } from '../config/index.js';
import type { AnyTool } from '../tool/index.js';
import { maxKindOf } from '../tool/index.js';
import { cell } from '../untrusted.js';

export interface ToolsetDef {
  name: string;
  /** One line: what a person does with it. */
  summary: string;
  /** Its own tools (each tool in exactly one set); `everySet` tools come on top. */
  tools: string[];
}

/** The sets and the tools every set carries. */
export interface Toolsets {
  sets: ToolsetDef[];
  everySet: string[];
}

export const ALL = 'all';
export const DYNAMIC = 'dynamic';
/** The tool that calls a read tool by name: the way to a set's reads for a client that never re-lists. */
export const CALL_BY_NAME = 'call_read_tool';

/** What a list of toolset names asks for: the sets to list ('all' for every one), and dynamic discovery. */
interface ToolsetChoice {
  dynamic: boolean;
  sets: string[] | typeof ALL;
}

/** The valid names of a DBOPS_TOOLSETS / X-MCP-Toolsets list. */
const validToolsetNames = (ts: Toolsets) => [...ts.sets.map((s) => s.name), ALL, DYNAMIC];

/** The reason a list of toolset names is refused, or undefined when every name is valid. */
export function unknownToolsets(names: string[], ts: Toolsets): string | undefined {
  const valid = validToolsetNames(ts);
  const unknown = names.filter((n) => !valid.includes(n));
  if (unknown.length === 0) return undefined;
  // A header is whatever a client sends: a few of its names are echoed, never all of them.
  const hints = unknown.slice(0, 5).map((n) => {
    const near = nearest(n, valid);
    return `"${cell(n, 40)}"${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}`;
  });
  const more = unknown.length > 5 ? ` and ${unknown.length - 5} more` : '';
  return `unknown toolset ${hints.join(', ')}${more}; valid: ${valid.join(', ')}`;
}

/** Parses a list of toolset names (empty: all); throws ConfigError naming the valid ones. */
export function parseToolsets(
  names: string[],
  ts: Toolsets,
  where = 'DBOPS_TOOLSETS / --toolsets',
): ToolsetChoice {
  const refused = unknownToolsets(names, ts);
  if (refused) throw new ConfigError(`invalid setting ${where}: ${refused}`);
  const dynamic = names.includes(DYNAMIC);
  const named = names.filter((n) => n !== DYNAMIC);
  if (named.includes(ALL) || (!dynamic && named.length === 0)) return { dynamic, sets: ALL };
  return { dynamic, sets: [...new Set(named)] };
}

/** The X-MCP-Toolsets header's names (commas or spaces, as every list setting; absent or blank: none). */
export function headerNames(value: string | string[] | undefined | null): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const names = splitList(value).map((s) => s.toLowerCase());
  return names.length ? names : undefined;
}

/** What one client sees now: the sets listed, whether it may enable more, and which it may enable. */
export interface ClientSets {
  dynamic: boolean;
  /** Sets listed now. */
  enabled: Set<string> | typeof ALL;
  /** Sets this server offers this client (what dynamic mode may enable). */
  offered: string[] | typeof ALL;
  /** The client narrowed its own sets (X-MCP-Toolsets), so the way to widen it is the header. */
  byHeader: boolean;
  /** A server for one request (2026-07-28 over HTTP): nothing enabled outlives it. */
  sessionless?: boolean;
  /** The server's DBOPS_TOOLSETS, as set (for messages). */
  setting: string;
}

/**
 * What a client sees: the server's DBOPS_TOOLSETS, or, when the client sends X-MCP-Toolsets, the sets it names
 * within what the server offers, dynamic only when it names `dynamic` too (the client chose). Nothing else:
 * what a client enables later lives in its own connection or session, never in shared state.
 */
export function clientSetsOf(
  server: ToolsetChoice,
  setting: string[],
  header?: ToolsetChoice,
  sessionless = false,
): ClientSets {
  const offered = server.dynamic ? ALL : server.sets;
  const within = (sets: string[] | typeof ALL): string[] | typeof ALL =>
    offered === ALL ? sets : sets === ALL ? offered : sets.filter((s) => offered.includes(s));
  const start = header ? within(header.sets) : server.sets;
  return {
    dynamic: header ? header.dynamic : server.dynamic,
    enabled: start === ALL ? ALL : new Set(start),
    offered,
    byHeader: header !== undefined,
    ...(sessionless ? { sessionless } : {}),
    setting: setting.length ? setting.join(',') : ALL,
  };
}

/** The set holding a tool (undefined for a tool in every set, or one in none). */
export function toolsetOf(ts: Toolsets, tool: string): string | undefined {
  if (ts.everySet.includes(tool)) return undefined;
  return ts.sets.find((s) => s.tools.includes(tool))?.name;
}

/** The set a tool is in when that set is not listed for this client; undefined when the tool is listed. */
export function notListedSet(
  ts: Toolsets,
  clientSets: ClientSets | undefined,
  tool: string,
): string | undefined {
  if (!clientSets || clientSets.enabled === ALL) return undefined;
  const set = toolsetOf(ts, tool);
  return set !== undefined && !clientSets.enabled.has(set) ? set : undefined;
}

const offers = (clientSets: ClientSets, set: string) =>
  clientSets.offered === ALL || clientSets.offered.includes(set);

/**
 * Whether this client may call a tool by name (call_read_tool): in dynamic mode, a read tool of a set it could
 * enable. `tool` is one the settings and the token allow (enabledTools); writes are never reachable this way.
 */
export function callableByName(ts: Toolsets, clientSets: ClientSets | undefined, tool: AnyTool): boolean {
  if (!clientSets?.dynamic || maxKindOf(tool) !== 'read') return false;
  const set = toolsetOf(ts, tool.name);
  return set === undefined ? ts.everySet.includes(tool.name) : offers(clientSets, set);
}

/** Whether a client reaches a tool the settings allow: listed for it, or callable by name. */
export const reachable = (ts: Toolsets, clientSets: ClientSets | undefined, tool: AnyTool) =>
  notListedSet(ts, clientSets, tool.name) === undefined || callableByName(ts, clientSets, tool);

/** The X-MCP-Toolsets value that adds a set to what this client has now. */
const headerWith = (cs: ClientSets, set: string) =>
  [...(cs.dynamic ? [DYNAMIC] : []), ...(cs.enabled === ALL ? [] : cs.enabled), set].join(',');

/**
 * How this client gets a set listed: enable it (dynamic, on a connection of its own), send the header, or ask
 * the operator. Sessionless, nothing enabled would outlive the request: the header or the setting.
 */
export function howToEnable(clientSets: ClientSets, set: string): string {
  if (!offers(clientSets, set))
    return `this server does not offer it (DBOPS_TOOLSETS=${clientSets.setting}); ask the operator if it is needed`;
  if (clientSets.sessionless)
    return `this client sends X-MCP-Toolsets: ${headerWith(clientSets, set)}, or the operator adds ${set} to DBOPS_TOOLSETS (now ${clientSets.setting})`;
  if (clientSets.dynamic) return `call enable_toolset {"toolset":"${set}"} first`;
  if (clientSets.byHeader) return `add ${set} to the X-MCP-Toolsets header of this client`;
  return `the operator adds ${set} to DBOPS_TOOLSETS (now ${clientSets.setting})`;
}

/** How to call a read tool by name now (call_read_tool), for a client that may. */
const byNameNote = (tool: string) => `${CALL_BY_NAME} {"tool":"${tool}","arguments":"{…}"}`;

/**
 * The answer to a call of a tool whose set is not listed for this client: never a silent "unknown tool".
 * `byName`: the tool is a read this client may call through call_read_tool now.
 */
export function notListedText(tool: string, set: string, clientSets: ClientSets, byName = false): string {
  const now = byName ? `call it through ${byNameNote(tool)} now, or ` : '';
  return `${tool} is in the toolset "${set}", which is not enabled here; nothing was called. To use it: ${now}${howToEnable(clientSets, set)}.`;
}

/** The same note, short, for a `Next:` line that names such a tool. */
const nextStepNote = (tool: string, set: string, clientSets: ClientSets, byName = false) =>
  ` (${tool} is in toolset ${set}, not enabled: ${byName ? `call it through ${CALL_BY_NAME}, or ` : ''}${clientSets.dynamic && !clientSets.sessionless && offers(clientSets, set) ? `enable_toolset {"toolset":"${set}"} first` : howToEnable(clientSets, set)})`;

/**
 * Marks the `Next:` lines (outside the fenced platform data) that name a tool this client does not see: each
 * gets a note saying which toolset holds it and how to enable it.
 */
export function markNextSteps(
  text: string,
  fenceTag: string,
  setOfHidden: (tool: string) => string | undefined,
  clientSets: ClientSets | undefined,
  byName: (tool: string) => boolean = () => false,
): string {
  if (!clientSets || clientSets.enabled === ALL || !text.includes('Next: ')) return text;
  const open = `<${fenceTag}>`;
  const close = `</${fenceTag}>`;
  let out = '';
  let at = 0;
  while (at < text.length) {
    const fence = text.indexOf(open, at);
    const end = fence < 0 ? text.length : fence;
    out += markPart(text.slice(at, end), setOfHidden, clientSets, byName);
    if (fence < 0) break;
    const closed = text.indexOf(close, fence + open.length);
    const stop = closed < 0 ? text.length : closed + close.length;
    out += text.slice(fence, stop);
    at = stop;
  }
  return out;
}

function markPart(
  part: string,
  setOfHidden: (tool: string) => string | undefined,
  clientSets: ClientSets,
  byName: (tool: string) => boolean,
): string {
  return part
    .split('\n')
    .map((line) => {
      if (!line.startsWith('Next: ')) return line;
      const notes: string[] = [];
      for (const m of line.matchAll(/\b[a-z]+(?:_[a-z]+)+\b/g)) {
        const set = setOfHidden(m[0]);
        if (set !== undefined && !notes.some((n) => n.includes(` ${m[0]} `)))
          notes.push(nextStepNote(m[0], set, clientSets, byName(m[0])));
      }
      return line + notes.join('');
    })
    .join('\n');
}

/** The settings that hide tools whatever the toolsets (names or kinds), and who is read-only. */
export interface ToolFilters {
  readOnly: boolean;
  tools: string[];
  disabledTools: string[];
  /** Read-only for this person alone: their access token lacks the write scope. */
  readOnlyFor?: string;
}

const matches = (t: AnyTool, list: string[]) => list.includes(t.name) || list.includes(maxKindOf(t));

/** Which setting hides a tool, or undefined when the settings leave it enabled (toolsets aside). */
export function hiddenBy(config: ToolFilters, t: AnyTool): string | undefined {
  if (config.readOnlyFor && maxKindOf(t) !== 'read') return config.readOnlyFor;
  if (config.readOnly && maxKindOf(t) !== 'read') return 'DBOPS_READ_ONLY=true';
  if (config.tools.length > 0 && !matches(t, config.tools)) return 'DBOPS_TOOLS';
  if (matches(t, config.disabledTools)) return 'DBOPS_DISABLED_TOOLS';
  return undefined;
}

/**
 * The tools a client sees: DBOPS_READ_ONLY, DBOPS_TOOLS and DBOPS_DISABLED_TOOLS (names or kinds), then the
 * toolsets listed in `clientSets` (all when absent).
 */
export function enabledTools(
  config: ToolFilters,
  catalog: AnyTool[],
  toolsets?: Toolsets,
  clientSets?: ClientSets,
): AnyTool[] {
  return catalog.filter(
    (t) =>
      hiddenBy(config, t) === undefined &&
      (toolsets === undefined || notListedSet(toolsets, clientSets, t.name) === undefined),
  );
}

/**
 * Refuses names in DBOPS_TOOLS / DBOPS_DISABLED_TOOLS that are neither a tool nor a kind (a typo must not
 * leave a tool enabled, or a server empty), naming the nearest valid names; and unknown DBOPS_TOOLSETS.
 */
export function checkToolFilters(
  config: ToolFilters & { toolsets?: string[] },
  catalog: AnyTool[],
  toolsets?: Toolsets,
): void {
  const valid = [...catalog.map((t) => t.name), 'read', 'write', 'destructive'];
  for (const [key, list] of [
    ['DBOPS_TOOLS / --tools', config.tools],
    ['DBOPS_DISABLED_TOOLS / --disabled-tools', config.disabledTools],
  ] as const) {
    const unknown = list.filter((n) => !valid.includes(n));
    if (unknown.length === 0) continue;
    const hints = unknown.map((n) => `"${n}" (did you mean ${nearest(n, valid).join(' or ')}?)`);
    throw new ConfigError(`invalid setting ${key}: unknown tool or kind ${hints.join(', ')}`);
  }
  if (toolsets && config.toolsets) parseToolsets(config.toolsets, toolsets);
}

/** The first sentence of a description: what get_toolset_tools shows per tool. */
export const firstSentence = (s: string) => {
  const end = s.search(/\.(\s|$)/);
  return end < 0 ? s : s.slice(0, end + 1);
};

/** list_toolsets: each set with its line, its tool count (as this client would see it) and whether listed. */
export function toolsetTable(
  ts: Toolsets,
  clientSets: ClientSets,
  countOf: (set: ToolsetDef) => number,
): { text: string; structured: Record<string, unknown> } {
  const rows = ts.sets
    .filter((s) => offers(clientSets, s.name))
    .map((s) => ({
      name: s.name,
      summary: s.summary,
      tools: countOf(s),
      enabled: clientSets.enabled === ALL || clientSets.enabled.has(s.name),
    }));
  const text = [
    `# Toolsets — ${rows.length} (${rows.filter((r) => r.enabled).length} enabled)`,
    '| toolset | tools | enabled | what for |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.tools} | ${r.enabled ? 'yes' : 'no'} | ${r.summary} |`),
    `Every set includes ${ts.everySet.join(', ')}.`,
    `Next: get_toolset_tools to see a set's tools and their arguments; ${CALL_BY_NAME} for any read tool; enable_toolset {"toolset": …} to add a set to your tools.`,
  ].join('\n');
  return { text, structured: { toolsets: rows } };
}
