// The tool contract: a tool is a plain object — schema, kind, optional checks and preview, run, and a
// formatter. defineTool only types run/format from the input shape; the MCP adapter (src/mcp/) and the policy
// layer (src/policy/) do the rest. Tools (tools/) import this, the views and the client; nothing here imports
// a tool.
import { z } from 'zod';
import type { ApiClient, PageQuery } from '../api/client.js';
import type { FormatContext, ToolAnswer } from '../format/answers.js';
import type { Preview } from '../format/consent.js';
import type { Logger } from '../log.js';

export type { FormatContext, ToolAnswer } from '../format/answers.js';
export type { Preview } from '../format/consent.js';

export type ToolKind = 'read' | 'write' | 'destructive';

export interface ToolContext {
  api: ApiClient;
  defaults: { projectId?: string; orgId?: string };
  signal: AbortSignal;
  now: () => Date;
  logger: Logger;
  /** Reports progress when the client sent a progress token; a no-op otherwise. */
  progress: (done: number, total?: number, message?: string) => Promise<void>;
  /** Keeps a minted secret out of the model's sight (policy/secrets.ts). */
  secrets: { keep(label: string, value: string): Promise<{ shown: string; path?: string }> };
}

type Shape = z.ZodRawShape;
export type Args<S extends Shape> = z.output<z.ZodObject<S>>;

export interface ToolDef<S extends Shape = Shape, R = unknown> {
  name: string;
  title: string;
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
  input: S;
  output: Shape;
  preview?: (ctx: ToolContext, args: Args<S>) => Promise<Preview>;
  run: (ctx: ToolContext, args: Args<S>) => Promise<R>;
  format: (result: R, args: Args<S>, f: FormatContext) => ToolAnswer;
}

export function defineTool<S extends Shape, R>(def: ToolDef<S, R>): ToolDef<S, R> {
  return def;
}

// biome-ignore lint/suspicious/noExplicitAny: the catalog holds tools of every input and result type.
export type AnyTool = ToolDef<any, any>;

export function maxKindOf(tool: AnyTool): ToolKind {
  return tool.maxKind ?? (typeof tool.kind === 'string' ? tool.kind : 'destructive');
}

/** An input error the model can fix; the adapter shows it as an isError result. */
export class ToolInputError extends Error {}

export function projectOf(args: { projectId?: string | undefined }, ctx: ToolContext): string {
  const id = args.projectId ?? ctx.defaults.projectId;
  if (!id)
    throw new ToolInputError(
      'projectId is required (no DBOPS_PROJECT_ID default is set). list_projects gives the ids.',
    );
  return id;
}

export function orgOf(args: { orgId?: string | undefined }, ctx: ToolContext): string {
  const id = args.orgId ?? ctx.defaults.orgId;
  if (!id)
    throw new ToolInputError(
      "orgId is required (no DBOPS_ORG_ID default is set). list_projects shows each project's orgId.",
    );
  return id;
}

export const DEFAULT_ROWS = 20;

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
