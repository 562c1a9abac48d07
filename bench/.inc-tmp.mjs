const mods = ['zod', '@modelcontextprotocol/server', '@modelcontextprotocol/server/stdio', '../dist/src/config/index.js', '../dist/src/log.js', '../dist/src/api/client.js',
 '../dist/src/metrics.js', '../dist/src/identity/index.js', '../dist/src/approval/index.js', '../dist/src/state/ledger.js', '../dist/src/state/owner.js', '../dist/src/policy/audit.js',
 '../dist/src/policy/guard.js', '../dist/src/mcp/apps.js', '../dist/src/mcp/catalog.js', '../dist/src/mcp/server.js', '../dist/src/mcp/runtime.js', '../dist/src/mcp/listen.js', '../dist/src/mcp/resources.js', '../dist/src/mcp/prompts.js', '../dist/src/mcp/cli.js'];
const out = [];
for (const m of mods) { const t = performance.now(); await import(m); out.push([m.replace('../dist/src/', ''), Math.round(performance.now() - t)]); }
console.log(out.map(([m, t]) => `${t}\t${m}`).join('\n'));
