// The catalog: every tool the server can offer, in the order tools/list shows them (set by set, each set's
// tools in its file's order). Everything else that lists tools is derived from the tools themselves: the sets'
// members from each tool's `toolset`, the tests' arguments from its `example`, docs/tools.md from both.
import type { ToolsetDef } from '../src/policy/toolsets.js';
import type { AnyTool } from '../src/tool/index.js';
import * as access from './access.js';
import * as alerts from './alerts.js';
import * as deployment from './deployment.js';
import * as events from './events.js';
import * as integrations from './integrations.js';
import * as projects from './projects.js';
import { EVERY_SET, SETS } from './toolsets.js';
import * as triage from './triage.js';
import * as windows from './windows.js';

export const catalog: AnyTool[] = [
  ...triage.tools,
  ...projects.tools,
  ...alerts.tools,
  ...windows.tools,
  ...events.tools,
  ...deployment.tools,
  ...access.tools,
  ...integrations.tools,
];

const named = (set: string) => catalog.filter((t) => t.toolset === set).map((t) => t.name);

for (const t of catalog)
  if (t.toolset !== EVERY_SET && !SETS.some((s) => s.name === t.toolset))
    throw new Error(`${t.name}: unknown toolset "${t.toolset}" (tools/toolsets.ts names them)`);

/** The tools every set carries (toolset `projects`). */
export const everySet: string[] = named(EVERY_SET);

/** The sets with their tools, as the policy takes them. */
export const toolsets: ToolsetDef[] = SETS.map((s) => ({ ...s, tools: named(s.name) }));
