#!/usr/bin/env node
// What tools/list spends, part by part: the bytes (UTF-8, as served, `_meta` included) of the names and
// titles, descriptions, input schemas, output schemas, annotations and `_meta`, for the whole catalog, each
// toolset and the first list of dynamic mode; then the largest tools and the argument descriptions said most
// often (what a shared field's prose costs). Run after a build: `npm run build && node scripts/measure-catalog.mjs`
// (`--json` prints the figures only). docs/performance.md quotes it.
const dist = (p) => new URL(`../dist/${p}`, import.meta.url).href;

const { catalog, toolsets } = await import(dist('tools/index.js'));
const { listingOf } = await import(dist('src/mcp/server.js'));
const { withApp } = await import(dist('src/mcp/apps.js'));
const { discoveryListings } = await import(dist('src/mcp/toolsets.js'));
const { configSchema } = await import(dist('src/config/index.js'));
const { clientSetsOf, enabledTools, parseToolsets } = await import(dist('src/policy/toolsets.js'));
const { toolsets: sets } = await import(dist('src/catalog.js'));

const size = (v) => (v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v)));

/** The entries tools/list serves for DBOPS_TOOLSETS=names, as the server builds them. */
function served(names) {
  const c = configSchema.parse({ demo: true, toolsets: names });
  const clientSets = clientSetsOf(parseToolsets(c.toolsets, sets), c.toolsets);
  const listed = enabledTools(c, catalog, sets, clientSets).map((t) => withApp(listingOf(t), t));
  return clientSets.dynamic ? [...discoveryListings, ...listed] : listed;
}

const PARTS = {
  'name+title': (l) => size(l.name) + size(l.title),
  descriptions: (l) => size(l.description),
  inputs: (l) => size(l.inputSchema),
  outputs: (l) => size(l.outputSchema),
  annotations: (l) => size(l.annotations),
  _meta: (l) => size(l._meta),
};

function measure(list) {
  const total = size({ tools: list });
  const row = { tools: list.length, total };
  let parts = 0;
  for (const [k, f] of Object.entries(PARTS)) {
    row[k] = list.reduce((n, l) => n + f(l), 0);
    parts += row[k];
  }
  row.keys = total - parts; // property names, braces and commas
  return row;
}

const rows = { all: measure(served('all')) };
for (const s of toolsets) rows[s.name] = measure(served(s.name));
rows.dynamic = measure(served('dynamic'));

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(rows, null, 2));
  process.exit(0);
}

const cols = ['tools', 'total', ...Object.keys(PARTS), 'keys'];
console.log(`| set | ${cols.join(' | ')} |`);
console.log(`|---|${cols.map(() => '---:').join('|')}|`);
for (const [name, r] of Object.entries(rows)) console.log(`| ${name} | ${cols.map((c) => r[c]).join(' | ')} |`);

const all = served('all');
console.log('\nLargest tools (bytes: total = description + input + output):');
for (const l of [...all].sort((a, b) => size(b) - size(a)).slice(0, 10))
  console.log(
    `  ${l.name.padEnd(36)} ${size(l)} = ${size(l.description)} + ${size(l.inputSchema)} + ${size(l.outputSchema)}`,
  );

/** Every argument description, with how often it is said and what it costs in all. */
const said = new Map();
const walk = (schema, path) => {
  if (!schema || typeof schema !== 'object') return;
  for (const [k, v] of Object.entries(schema.properties ?? {})) {
    if (typeof v.description === 'string') {
      const key = `${k}: ${v.description}`;
      said.set(key, (said.get(key) ?? 0) + 1);
    }
    walk(v, `${path}.${k}`);
    walk(v.items, `${path}.${k}[]`);
  }
};
for (const l of all) walk(l.inputSchema, l.name);
console.log('\nArgument descriptions said most (count × bytes):');
for (const [k, n] of [...said].sort((a, b) => b[1] * b[0].length - a[1] * a[0].length).slice(0, 12))
  console.log(`  ${String(n).padStart(2)} × ${k.slice(0, 110)}`);
