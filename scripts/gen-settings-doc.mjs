#!/usr/bin/env node
// Writes the settings table of docs/settings.md and the README's opening list of the five settings a person
// sets first from src/config/ (settingsTable), each between its markers. `--check` writes nothing and exits 1
// when either differs (stale docs). Run after a build: `npm run docs:settings` builds first.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const { settingsMarkdown, firstSettingsMarkdown, withGenerated } = await import(
  new URL('../dist/src/config/index.js', import.meta.url).href
);

const docs = [
  ['docs/settings.md', 'table', settingsMarkdown()],
  ['README.md', 'first', firstSettingsMarkdown()],
];
let stale = false;
for (const [name, block, body] of docs) {
  const file = fileURLToPath(new URL(`../${name}`, import.meta.url));
  const before = readFileSync(file, 'utf8');
  const after = withGenerated(before, block, body);
  if (after === before) continue;
  if (process.argv.includes('--check')) {
    process.stderr.write(`${name}: the settings are stale; run npm run docs:settings\n`);
    stale = true;
  } else writeFileSync(file, after);
}
if (stale) process.exit(1);
