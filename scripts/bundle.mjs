// The installed command as a bundle: rolldown joins dist/src/cli.js (already compiled by tsc), everything of
// ours it imports, the MCP SDK and zod into dist/bin/. Resolving and reading the ~300 small modules of those
// was a third of start-up (docs/performance.md); one file each is read at once. The lazily loaded parts
// (simulator, HTTP transport, resources, prompts) stay chunks of their own, loaded only when used. undici
// stays an import from node_modules: it is loaded on the first API call, not at start-up, so bundling it
// would gain nothing, and the network-facing client keeps taking its fixes from dependency updates. The same
// holds for the Redis client (@redis/client), loaded only with DBOPS_STATE_URL.
// dist/src stays as tsc wrote it for the library entry point (package.json "main"). Run by `npm run build`.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = (p) => fileURLToPath(new URL(`../${p}`, import.meta.url));
const out = root('dist/bin');
rmSync(out, { recursive: true, force: true });
await build({
  input: { 'dbops-mcp': root('dist/src/cli.js') },
  platform: 'node',
  external: [/^node:/, /^undici(\/|$)/, /^@redis\/client(\/|$)/],
  logLevel: 'warn',
  output: { dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
});
