// The one place that assembles what the server offers from the leaves above it: the tools of tools/, their
// toolsets and the prompts of prompts/. Nothing else under src/ imports those folders (test/unit/layers.test.ts).

import { everySet, toolsets as sets } from '../tools/index.js';
import type { Toolsets } from './policy/toolsets.js';

export { prompts } from '../prompts/index.js';
export { catalog } from '../tools/index.js';

/** The toolsets (tools/toolsets.ts) as the policy takes them. */
export const toolsets: Toolsets = { sets, everySet };
