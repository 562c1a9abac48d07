// The prompt contract: a prompt is a plain object — its arguments (all strings, as MCP prompt arguments are)
// and the conversation starter it renders. The MCP adapter (src/mcp/prompts.ts) turns arguments into schemas
// with completion; the prompt files (prompts/) import this.

/** What the adapter completes an argument from. */
export type Completion = 'projectId' | 'alertTypeNames' | 'sinceHours';

export interface PromptArg {
  description: string;
  required: boolean;
  /** A check with a message that says what to write instead. */
  pattern?: { regex: RegExp; message: string };
  complete?: Completion;
}

export interface PromptDef {
  name: string;
  title: string;
  description: string;
  args: Record<string, PromptArg>;
  /**
   * The user message that starts the conversation; `now` anchors relative times; `asksFirst` says whether
   * the server itself asks the person before a tool's change (the live policy), so the text stays true.
   */
  render(
    args: Record<string, string | undefined>,
    now: Date,
    asksFirst: (toolName: string) => boolean,
  ): string;
}
