// The installed command as a bundle: rolldown joins dist/src/cli.js (already compiled by tsc), everything of
// ours it imports, the MCP SDK and zod into dist/bin/. Resolving and reading the ~300 small modules of those
// was a third of start-up (docs/performance.md); what `serve` needs at start is one chunk, read at once. The
// lazily loaded parts (LAZY below) stay chunks of their own, loaded only when used. undici
// stays an import from node_modules: it is loaded on the first API call, not at start-up, so bundling it
// would gain nothing, and the network-facing client keeps taking its fixes from dependency updates. The same
// holds for the Redis client (@redis/client), loaded only with DBOPS_STATE_URL.
// dist/src stays as tsc wrote it for the library entry point (package.json "main"). Run by `npm run build`.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = (p) => fileURLToPath(new URL(`../${p}`, import.meta.url));
/**
 * What a configuration may not use, each left in chunks of its own and loaded by dynamic import(): the
 * simulator (demo mode), the HTTP transport, the approval page, the doctor, the commands other than serve,
 * the MCP client (call), OAuth (jose), metrics (prom-client), Redis, the MCP Apps' server helpers, and the
 * file lock (proper-lockfile: HTTP's claim on the state directory, an audit log's rotation).
 */
const LAZY =
  /\/simulator\/|\/src\/mcp\/http\/|\/src\/mcp\/cli\/(call|tools|token|doctor|serve-http)\.js$|\/src\/approval\/|\/src\/doctor|\/src\/state\/(redis|owner)\.js$|node_modules\/(@modelcontextprotocol\/(client|node|ext-apps)|hono|@hono|jose|prom-client|@opentelemetry|tdigest|bintrees|pkce-challenge|@redis|proper-lockfile|graceful-fs|retry|signal-exit)\//;
// The catalog's tools/list entries, computed here once from the build being bundled (src/mcp/schemas.ts reads
// them as PREBUILT_LISTINGS): converting the tools' zod schemas at every start was ~9 % of start-up.
const { listingOf } = await import(root('dist/src/mcp/schemas.js'));
const { catalog } = await import(root('dist/tools/index.js'));
const listings = Object.fromEntries(catalog.map((t) => [t.name, listingOf(t)]));

const out = root('dist/bin');
rmSync(out, { recursive: true, force: true });
await build({
  input: { 'dbops-mcp': root('dist/src/cli.js') },
  platform: 'node',
  transform: { define: { PREBUILT_LISTINGS: JSON.stringify(listings) } },
  external: [/^node:/, /^undici(\/|$)/, /^@redis\/client(\/|$)/],
  logLevel: 'warn',
  output: {
    dir: out,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    // What `serve` loads at start joins one chunk (each dynamic import point would otherwise cut the shared
    // code into a chunk of its own: 26 files at start instead of a handful, measured 8 % slower to tools/list).
    codeSplitting: { groups: [{ name: 'serve', test: (id) => !id.endsWith('/dist/src/cli.js') && !LAZY.test(id) }] },
  },
});

// The MCP Apps (apps/*.ts): each one self-contained HTML file in dist/apps/ with its script and the
// shared stylesheet inline, for the ui:// resources of src/mcp/apps.ts. Nothing is loaded from the network.
const apps = ['incident-timeline', 'maintenance-planner', 'consent-card'];
const appsOut = root('dist/apps');
rmSync(appsOut, { recursive: true, force: true });
mkdirSync(appsOut, { recursive: true });
const css = readFileSync(root('apps/style.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s*\n\s*/g, '');
for (const app of apps) {
  const built = await build({
    input: root(`apps/${app}.ts`),
    platform: 'browser',
    write: false,
    logLevel: 'warn',
    output: { format: 'iife', minify: true, codeSplitting: false },
  });
  // "</script" inside the code would end the element early.
  const js = built.output[0].code.replace(/<\/(script)/gi, '<\\/$1');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light dark"><title>dbops-mcp ${app.replace('-', ' ')}</title><style>${css}</style></head><body><script>${js}</script></body></html>\n`;
  writeFileSync(join(appsOut, `${app}.html`), html);
}
