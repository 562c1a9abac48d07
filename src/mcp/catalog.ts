// The one place that assembles what the server offers from the leaves above it: the tools of tools/ and the
// prompts of prompts/. Nothing else under src/ imports those folders (test/unit/layers.test.ts).

export { prompts } from '../../prompts/index.js';
export { catalog } from '../../tools/index.js';
