// `npm run bundle`: builds dist/dbops-mcp.mcpb, the MCP Bundle Claude Desktop installs in one click. The
// compiled server, its production dependencies and bundle/manifest.json (version from package.json) are
// staged in a temporary folder, validated and packed with the official @anthropic-ai/mcpb CLI.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const manifest = JSON.parse(readFileSync(join(root, 'bundle', 'manifest.json'), 'utf8'));
const { $schema: _editorOnly, ...shipped } = manifest;
shipped.version = pkg.version;

const stage = mkdtempSync(join(tmpdir(), 'dbops-mcpb-'));
try {
  // dist/bin holds the entry point the manifest names (the bundled command); dist/src etc. what it loads lazily; dist/apps the views (MCP Apps).
  for (const path of ['dist/bin', 'dist/src', 'dist/tools', 'dist/prompts', 'dist/apps', 'package.json', 'package-lock.json', 'LICENSE', 'README.md'])
    cpSync(join(root, path), join(stage, path), { recursive: true });
  writeFileSync(join(stage, 'manifest.json'), `${JSON.stringify(shipped, null, 2)}\n`);
  const run = (cmd, args) => execFileSync(cmd, args, { cwd: stage, stdio: 'inherit' });
  // Scripts are skipped: `prepare` would compile again, and the staged dist/ is already built.
  run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund']);
  const mcpb = join(root, 'node_modules', '.bin', 'mcpb');
  run(mcpb, ['validate', 'manifest.json']);
  const out = join(root, 'dist', `${pkg.name}.mcpb`);
  run(mcpb, ['pack', stage, out]);
  console.log(`bundle: ${out}`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
