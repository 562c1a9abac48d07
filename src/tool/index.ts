// The tool contract: a tool is a plain object — schema, kind, optional checks and preview, run, and a
// formatter. defineTool only types run/format from the input shape; the MCP adapter (src/mcp/) and the policy
// layer (src/policy/) do the rest. Tools (tools/) import this, the views and the client; nothing here imports
// a tool.
import { z } from 'zod';
import type { ApiClient, PageQuery } from '../api/client.js';
import type { FormatContext, ToolAnswer } from '../format/answers.js';
import type { Preview } from '../format/consent.js';
import type { Logger } from '../log.js';
import { ToolInputError } from './errors.js';
import type { CallNames } from './names.js';

export type { FormatContext, NameBook, ToolAnswer } from '../format/answers.js';
export type { Preview } from '../format/consent.js';

export type ToolKind = 'read' | 'write' | 'destructive';

export interface ToolContext {
  api: ApiClient;
  defaults: { projectId?: string; orgId?: string };
  /** The installation's name when the server serves several (DBOPS_PLATFORMS): previews and audit name it. */
  platform?: string;
  signal: AbortSignal;
  now: () => Date;
  logger: Logger;
  /** The options every API call of this tool call takes (its cancellation signal). */
  req: { signal: AbortSignal };
  /** Reports progress when the client sent a progress token; a no-op otherwise. */
  progress: (done: number, total?: number, message?: string) => Promise<void>;
  /** The names of the ids this call touches (the same book as its FormatContext's). */
  names: CallNames;
  /** How long a read across every project may take before it answers with what it has (DBOPS_INSTALLATION_READ_MS). */
  installationReadMs?: number;
  /** Keeps a minted secret out of the model's sight (policy/secrets.ts). */
  secrets: {
    keep(label: string, value: string, always?: boolean): Promise<{ shown: string; path?: string }>;
  };
}

type Shape = z.ZodRawShape;
export type Args<S extends Shape> = z.output<z.ZodObject<S>>;

/** The arguments once the server's defaults are in: a tool that takes projectId or orgId always has one. */
export type Resolved<A> = A &
  ('projectId' extends keyof A ? { projectId: string } : unknown) &
  ('orgId' extends keyof A ? { orgId: string } : unknown);

/** An ISO 8601 time `hours` from now (UTC, whole seconds): how an example names a time that must lie ahead. */
export type At = (hours: number) => string;

/**
 * Arguments that work on the demo world (docs/demo-world.md) at any "now": a time is written `at(hours)`.
 * Every tool is called with its example by the tests (answers, both transports, the field's bodies) and
 * shown with it in docs/tools.md, so a new tool needs no row in any table.
 */
export type Example = Record<string, unknown> | ((at: At) => Record<string, unknown>);

interface ToolDef<S extends Shape = Shape, R = unknown> {
  name: string;
  title: string;
  /** The toolset that holds it (tools/toolsets.ts; `projects` is carried by every set). */
  toolset: string;
  /** Over an endpoint the spec does not describe: its description ends with BEYOND, added here. */
  beyondSpec?: true;
  example: Example;
  /** One-line purpose; when to use; when not to. Parameter details live in the schema's descriptions. */
  description: string;
  /** A function when the kind depends on the arguments (disabling an alert config is destructive). */
  kind: ToolKind | ((args: Args<S>) => ToolKind);
  /** The most severe kind the tool can have: drives annotations and read-only filtering. */
  maxKind?: ToolKind;
  /** Repeating the call with the same arguments has no further effect (PUT, DELETE, acknowledge). */
  idempotent?: boolean;
  /** The read tool that tells whether a change happened, named when its answer was lost. */
  checkWith?: string;
  /** The remote system it changes is outside the platform (an integration's webhook or paging service). */
  openWorld?: boolean;
  input: S;
  /** Takes `projectId: "all"` (ALL_PROJECTS): the list across every project the key sees. */
  acrossProjects?: true;
  /** Whether these arguments need a project (DBOPS_PROJECT_ID fills it); every call does unless this says no. */
  needsProject?: (args: Record<string, unknown>) => boolean;
  output: Shape;
  /** Checks across fields the schema cannot express (throw ToolInputError); run once, before preview and run. */
  check?: (args: Resolved<Args<S>>, now: Date) => void;
  preview?: (ctx: ToolContext, args: Resolved<Args<S>>) => Promise<Preview>;
  /**
   * The kind once the preview is known, for a change whose risk only the platform's state shows (a window
   * that silences paging alerts asks first). Raises the need to ask, never four eyes; set maxKind with it.
   */
  kindFromPreview?: (preview: Preview, args: Resolved<Args<S>>) => ToolKind;
  /** When a change whose kind varies asks first, for its description ("when disabling"). */
  asksWhen?: string;
  run: (ctx: ToolContext, args: Resolved<Args<S>>) => Promise<R>;
  format: (result: R, args: Resolved<Args<S>>, f: FormatContext) => ToolAnswer;
}

/** Said at the end of the description of a tool whose endpoint some servers lack. */
const BEYOND = '(not on every server)';

export function defineTool<S extends Shape, R>(def: ToolDef<S, R>): ToolDef<S, R> {
  return def.beyondSpec ? { ...def, description: `${def.description} ${BEYOND}` } : def;
}

// biome-ignore lint/suspicious/noExplicitAny: the catalog holds tools of every input and result type.
export type AnyTool = ToolDef<any, any>;

/** A tool's example at `now` (the arguments the tests and docs/tools.md call it with). */
export function exampleOf(tool: AnyTool, now = new Date()): Record<string, unknown> {
  const at: At = (hours) =>
    new Date(now.getTime() + hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return typeof tool.example === 'function' ? tool.example(at) : tool.example;
}

export function maxKindOf(tool: AnyTool): ToolKind {
  return tool.maxKind ?? (typeof tool.kind === 'string' ? tool.kind : 'destructive');
}

export { ToolInputError };

/**
 * Fills projectId / orgId from the server's defaults (DBOPS_PROJECT_ID, DBOPS_ORG_ID) before anything else
 * sees the arguments, so checks, previews, runs and headlines all name the real project.
 */
export function withDefaults(
  tool: AnyTool,
  args: Record<string, unknown>,
  defaults: ToolContext['defaults'],
): CallArgs {
  const out: Record<string, unknown> = { ...args };
  const needed = 'projectId' in tool.input && (tool.needsProject?.(args) ?? true);
  if (needed && out.projectId === undefined) {
    if (!defaults.projectId)
      throw new ToolInputError(
        'projectId is required (no DBOPS_PROJECT_ID default is set). list_projects gives the ids.',
      );
    out.projectId = defaults.projectId;
  }
  if ('orgId' in tool.input && out.orgId === undefined) {
    if (!defaults.orgId)
      throw new ToolInputError(
        "orgId is required (no DBOPS_ORG_ID default is set). list_projects shows each project's orgId.",
      );
    out.orgId = defaults.orgId;
  }
  return out as CallArgs;
}

/** Arguments of a call as the guard handles them, whatever the tool: checked and with defaults in. */
export type CallArgs = Resolved<Record<string, unknown>>;

export const DEFAULT_ROWS = 20;

/** The one scope value every list tool takes for the whole installation. */
export const ALL_PROJECTS = 'all';

/** Rows of a list across every project: fewer by default, each row is wider and names its project. */
const ACROSS_ROWS = 10;

export function acrossQuery(args: { pageNum?: number; itemsPerPage?: number }): Required<PageQuery> {
  return { pageNum: args.pageNum ?? 1, itemsPerPage: args.itemsPerPage ?? ACROSS_ROWS };
}

export function pageQuery(args: { pageNum?: number; itemsPerPage?: number }): Required<PageQuery> {
  return { pageNum: args.pageNum ?? 1, itemsPerPage: args.itemsPerPage ?? DEFAULT_ROWS };
}

export const listOutput = {
  totalCount: z.number(),
  pageNum: z.number(),
  itemsPerPage: z.number(),
  results: z.array(z.looseObject({})),
};

export const recordOutput = { record: z.looseObject({}) };
