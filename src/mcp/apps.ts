// The views (MCP Apps, SEP-1865): which tool shows which view, in one place, and the ui:// resources that
// serve them. Each view is one self-contained HTML file built from apps/<view>.ts into dist/apps/ by
// `npm run build`; it reads only the tool result's structuredContent. A host without MCP Apps ignores the
// `_meta.ui` of a tool's listing and loses nothing: the text and structuredContent answers are unchanged.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  getUiCapability,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from '@modelcontextprotocol/ext-apps/server';
import type { ClientCapabilities, McpServer, ReadResourceResult, Tool } from '@modelcontextprotocol/server';
import type { AnyTool } from '../tool/index.js';
import { maxKindOf } from '../tool/index.js';

export { RESOURCE_MIME_TYPE };

interface View {
  title: string;
  description: string;
  /** The tools whose results this view draws. */
  tools: string[] | ((tool: AnyTool) => boolean);
}

/** The views and their tools: the only tool → view mapping. The consent card takes the rest of the changes. */
export const VIEWS = {
  'incident-timeline': {
    title: 'Incident timeline',
    description:
      'What changed, then what broke, on one time axis; alerts by cause and host; maintenance windows.',
    tools: ['triage_project'],
  },
  'maintenance-planner': {
    title: 'Maintenance planner',
    description: 'Maintenance windows on a time axis with what they mute; a proposed window and its overlap.',
    tools: [
      'list_maintenance_windows',
      'get_maintenance_window',
      'create_maintenance_window',
      'update_maintenance_window',
    ],
  },
  'consent-card': {
    title: 'Consent card',
    description: 'The preview of a change that asks the person first, with the link to the approval page.',
    // Every other change: whether it asks first is the live policy's (DBOPS_CONFIRM), and tools/list stays
    // the same under every policy; a change that ran unasked shows as done.
    tools: (tool) => maxKindOf(tool) !== 'read',
  },
} satisfies Record<string, View>;

export type ViewName = keyof typeof VIEWS;

/**
 * Where a result carries its view's fuller data when structuredContent was shortened for the model (one output
 * budget for text and structured content), sent only to hosts that show views: some client libraries hand
 * the model the whole result, _meta included. apps/shared.ts reads the same key.
 */
export const VIEW_DATA = 'dbops-mcp/view-data';

/** Whether the client is a host that shows views (it declares the MCP Apps extension with our MIME type). */
export function showsViews(caps: ClientCapabilities | undefined): boolean {
  return getUiCapability(caps)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true;
}
export const viewUri = (view: ViewName) => `ui://dbops-mcp/${view}`;

/** The view of a tool, or undefined. */
export function viewOf(tool: AnyTool): ViewName | undefined {
  const named = (Object.keys(VIEWS) as ViewName[]).find((v) => {
    const t = VIEWS[v].tools;
    return Array.isArray(t) && t.includes(tool.name);
  });
  if (named) return named;
  return (Object.keys(VIEWS) as ViewName[]).find((v) => {
    const t = VIEWS[v].tools;
    return typeof t === 'function' && t(tool);
  });
}

/**
 * A tool's listing with its view: `_meta.ui.resourceUri`, and the older `ui/resourceUri` key that hosts of
 * the first drafts read (ext-apps' registerAppTool sets both the same way).
 */
export function withView(listing: Tool, tool: AnyTool): Tool {
  const view = viewOf(tool);
  if (!view) return listing;
  const uri = viewUri(view);
  return { ...listing, _meta: { ...listing._meta, ui: { resourceUri: uri }, [RESOURCE_URI_META_KEY]: uri } };
}

/** The views declare no domain: no network at all (the spec's default CSP, said explicitly). */
const UI_META = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

/** dist/apps/ seen from dist/src/mcp (tsc), dist/bin (the bundle) or src/mcp (tests on the sources). */
function viewFile(view: ViewName): string {
  const candidates = ['../apps/', '../../apps/', '../../dist/apps/'].map((d) =>
    fileURLToPath(new URL(`${d}${view}.html`, import.meta.url)),
  );
  const found = candidates.find((p) => existsSync(p));
  if (!found)
    throw new Error(`view ${view} is not built: run npm run build (looked in ${candidates.join(', ')})`);
  return found;
}

const html = new Map<ViewName, string>();
function viewHtml(view: ViewName): string {
  let h = html.get(view);
  if (h === undefined) {
    h = readFileSync(viewFile(view), 'utf8');
    html.set(view, h);
  }
  return h;
}

export function isViewUri(uri: string): boolean {
  return uri.startsWith('ui://dbops-mcp/');
}

/** resources/read of a view (resources.ts routes ui:// URIs here). */
export function readView(uri: string): ReadResourceResult | undefined {
  const view = (Object.keys(VIEWS) as ViewName[]).find((v) => viewUri(v) === uri);
  if (!view) return undefined;
  return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: viewHtml(view), _meta: UI_META }] };
}

/** Registers the views used by the enabled tools as resources (listed in resources/list). */
export function registerApps(server: McpServer, tools: AnyTool[]): void {
  const used = new Set(tools.map((t) => viewOf(t)).filter((v) => v !== undefined));
  for (const view of used) {
    const v = VIEWS[view];
    server.registerResource(
      `view-${view}`,
      viewUri(view),
      { title: v.title, description: v.description, mimeType: RESOURCE_MIME_TYPE, _meta: UI_META },
      (uri) => readView(uri.href) ?? { contents: [] },
    );
  }
}
