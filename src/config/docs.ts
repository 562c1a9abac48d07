// The settings' documentation rendered: the README's table and opening list, `serve --help`, and the words the
// doctor's hints take a setting's name from.
import { type SettingKey as Key, settingNames } from './schema.js';
import { firstSettings, settingsTable } from './settings.js';

const envList = (keys: readonly Key[]) => keys.map((k) => `\`${settingNames[k].env}\``).join(', ');

/** The README's settings table, as generated from settingsTable. */
export function settingsMarkdown(): string {
  return [
    '| variable | meaning | default |',
    '|---|---|---|',
    ...settingsTable.map((r) => `| ${envList(r.keys)} | ${r.meaning} | ${r.byDefault} |`),
  ].join('\n');
}

/** The README's opening list: the five settings a person sets first, each with its meaning. */
export function firstSettingsMarkdown(): string {
  return settingsTable
    .filter((r) => r.keys.some((k) => firstSettings.includes(k)))
    .map((r) => `- ${envList(r.keys.filter((k) => firstSettings.includes(k)))}: ${r.meaning}`)
    .join('\n');
}

/** `serve --help`: every setting, its flag and its default, in plain text. */
export function settingsHelp(): string {
  const plain = (s: string) =>
    s
      .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
      .replace(/`/g, '')
      .replace(/\*\*/g, '');
  return settingsTable
    .map((r) => {
      const names = r.keys.map((k) => `${settingNames[k].env} (${settingNames[k].flag})`).join(', ');
      return `  ${names}\n      ${plain(r.meaning)}; default: ${plain(r.byDefault)}`;
    })
    .join('\n');
}

const BLOCKS = {
  table: ['<!-- settings: generated from src/config/ by npm run docs:settings -->', '<!-- /settings -->'],
  first: ['<!-- first settings: generated from src/config/ -->', '<!-- /first settings -->'],
} as const;

/** The README with its generated blocks replaced (each between its two markers). */
export function withSettings(readme: string, table: string, first: string): string {
  let out = readme;
  for (const [[open, close], body] of [
    [BLOCKS.table, table],
    [BLOCKS.first, first],
  ] as const) {
    const i = out.indexOf(open);
    const j = out.indexOf(close);
    if (i < 0 || j < i) throw new Error(`README.md has no "${open}" … "${close}" block`);
    out = `${out.slice(0, i + open.length)}\n${body}\n${out.slice(j)}`;
  }
  return out;
}
