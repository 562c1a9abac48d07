#!/usr/bin/env node
// Writes the README's settings table and its opening list of the five settings a person sets first from
// src/config/ (settingsTable), between their markers. `--check` writes nothing and exits 1 when the README
// differs (stale docs). Run after a build: `npm run docs:settings` builds first.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const readme = fileURLToPath(new URL('../README.md', import.meta.url));
const { settingsMarkdown, firstSettingsMarkdown, withSettings } = await import(
  new URL('../dist/src/config/index.js', import.meta.url).href
);

const before = readFileSync(readme, 'utf8');
const after = withSettings(before, settingsMarkdown(), firstSettingsMarkdown());
if (process.argv.includes('--check')) {
  if (after !== before) {
    process.stderr.write('README.md: the settings are stale; run npm run docs:settings\n');
    process.exit(1);
  }
} else writeFileSync(readme, after);
