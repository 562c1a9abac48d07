// A tool's answer as an MCP result: the next steps marked, its age said, the text capped by its encoded size,
// the structured content bounded with what to do next, and a host's app given its fuller copy.
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { capText } from '../format/markdown.js';
import { boundStructured, shareBudget } from '../format/structured.js';
import { type ClientSets, markNextSteps } from '../policy/toolsets.js';
import type { AnyTool, ToolAnswer } from '../tool/index.js';
import { cell } from '../untrusted.js';
import { APP_DATA, appOf, forApp, showsApps } from './apps.js';
import { capabilitiesOf, type ToolResult } from './consent.js';
import { RESULT_FRAME } from './info.js';

/**
 * The instruction a structured-only client needs, when the answer has none of its own (the consent outcomes
 * carry theirs, from src/format/consent.ts): for a change that ran, "done"; for a read the pages left; and the
 * text's own `Next:` lines (outside the fenced data, so platform text cannot pose as one).
 */
export function nextStepOf(tool: AnyTool, answer: ToolAnswer, fenceTag: string): string {
  const s = answer.structured;
  const steps: string[] = [];
  if (s['outcome'] === 'executed') steps.push('Done: tell the person what changed.');
  const { totalCount, pageNum, itemsPerPage, results } = s;
  if (typeof totalCount === 'number' && typeof pageNum === 'number' && typeof itemsPerPage === 'number') {
    const left = totalCount - ((pageNum - 1) * itemsPerPage + (Array.isArray(results) ? results.length : 0));
    if (left > 0 && Array.isArray(results) && results.length > 0)
      steps.push(`${left} more: call ${tool.name} again with pageNum=${pageNum + 1}.`);
  }
  steps.push(...nextLines(answer.text, fenceTag));
  return steps.join(' ') || 'Nothing more to fetch for this request: answer from this result.';
}

/** Lines starting "Next: " outside the fenced blocks, found with indexOf (no expression built per call). */
function nextLines(text: string, fenceTag: string): string[] {
  const steps: string[] = [];
  const open = `<${fenceTag}>`;
  const close = `</${fenceTag}>`;
  for (let at = 0; at < text.length; ) {
    const fence = text.indexOf(open, at);
    const end = fence < 0 ? text.length : fence;
    for (let i = text.indexOf('Next: ', at); i >= 0 && i < end; i = text.indexOf('Next: ', i + 6)) {
      if (i > 0 && text[i - 1] !== '\n' && i !== at) continue;
      const eol = text.indexOf('\n', i);
      const line = text.slice(i + 6, eol < 0 || eol > end ? end : eol);
      steps.push(`Next: ${cell(line, 400)}`);
    }
    if (fence < 0) break;
    const closed = text.indexOf(close, fence + open.length);
    if (closed < 0) break;
    at = closed + close.length;
  }
  return steps;
}

/**
 * An answer built (partly) from kept reads says how old its oldest data is: a line the model reads and
 * `dataAgeSeconds` in the structured content. Fresh answers are unchanged.
 */
export function withDataAge(answer: ToolAnswer, oldestAt: number | undefined, at = Date.now()): ToolAnswer {
  if (oldestAt === undefined) return answer;
  const seconds = Math.max(0, Math.round((at - oldestAt) / 1000));
  return {
    text: `${answer.text}\n(data from ${seconds} s ago (cached); changes made through this server show at once)`,
    structured: { ...answer.structured, dataAgeSeconds: seconds },
  };
}

/** Where the rest is when structuredContent had to be cut (the full data is one paged call away). */
function howToGetMore(tool: AnyTool): string {
  if ('itemsPerPage' in tool.input)
    return `Call ${tool.name} again with a smaller itemsPerPage and page through with pageNum.`;
  const elsewhere: Record<string, string> = {
    triage_project:
      'The full lists, page by page: list_open_alerts_for_config (alerts of one configuration), list_project_events (changes), list_maintenance_windows; get_automation_status for processes.',
    list_open_alerts: 'list_open_alerts_for_config pages through the alerts of one configuration in full.',
    get_automation_status: 'Processes behind the goal come first.',
  };
  return elsewhere[tool.name] ?? 'Narrow the request to see the rest.';
}

const NARROW = 'Narrow it with pageNum/itemsPerPage or filters.';

/** The text capped by its encoded size (escaping grows a text, and clients count it encoded), and that size. */
function cappedText(text: string, max: number, fenceTag: string): { text: string; size: number } {
  const encoded = (t: string) => JSON.stringify(t).length;
  let capped = capText(text, max, NARROW, fenceTag);
  let size = encoded(capped);
  if (size > max) {
    capped = capText(text, 2 * max - size, NARROW, fenceTag);
    size = encoded(capped);
  }
  return { text: capped, size };
}

/** What shapes one answer into a result: the call's tool and client, and the server's budget. */
interface Answering {
  tool: AnyTool;
  fenceTag: string;
  /** When the oldest kept read behind the answer was taken. */
  oldestAt: number | undefined;
  maxOutputChars: number;
  clientSets: ClientSets;
  /** The toolset of a tool this client does not see now, if any. */
  unlistedSet(name: string): string | undefined;
  /** Whether this client may call a tool through call_read_tool. */
  byName(name: string): boolean;
  server: McpServer;
  extra: ServerContext;
}

/** A tool's (non-consent) answer as the MCP result, within DBOPS_MAX_OUTPUT_CHARS. */
export function resultOf(answer: ToolAnswer, a: Answering): ToolResult {
  const { tool, fenceTag } = a;
  const marked = {
    ...answer,
    text: markNextSteps(
      answer.text,
      fenceTag,
      (name) => (name === tool.name ? undefined : a.unlistedSet(name)),
      a.clientSets,
      a.byName,
    ),
  };
  const aged = withDataAge(marked, a.oldestAt);
  const budget = shareBudget(a.maxOutputChars - RESULT_FRAME);
  const { text, size } = cappedText(aged.text, budget.encodedText, fenceTag);
  const bound = (max?: number, structured = aged.structured) =>
    boundStructured(structured, {
      ...(max ? { max } : {}),
      nextStep: nextStepOf(tool, marked, fenceTag),
      more: howToGetMore(tool),
    });
  const structuredContent = bound(budget.structured(size));
  // A host's app draws the whole bounded answer even where the model's share had to be shorter.
  // Its copy is cut in its own order: today's urgent alerts and the newest changes are kept first.
  const app = structuredContent.leftOut ? appOf(tool) : undefined;
  const full =
    app && showsApps(capabilitiesOf(a.server, a.extra))
      ? bound(undefined, forApp(app, aged.structured))
      : undefined;
  return {
    content: [{ type: 'text', text }],
    structuredContent,
    ...(full ? { _meta: { [APP_DATA]: full } } : {}),
  };
}
