// The settings' documentation rendered: the table of docs/settings.md, the README's opening list, `serve --help`,
// and the words the doctor's hints take a setting's name from. Meanings link as from docs/.
import { configSchema, type SettingKey as Key, settingNames } from './schema.js';
import { firstSettings, type SettingRow, settingsTable } from './settings.js';

const code = (s: string) => `\`${s}\``;
const envList = (keys: readonly Key[]) => keys.map((k) => code(settingNames[k].env)).join(', ');
/** The variables a row names: its settings, then the ones that are no setting of ours (the proxies). */
const variables = (r: SettingRow) => [...r.keys.map((k) => settingNames[k].env), ...(r.others ?? [])];

/** A setting's default as the schema gives it, when that is a plain value (a number, a boolean, a word). */
export function plainDefault(key: Key): string | undefined {
  const v: unknown = configSchema.shape[key].safeParse(undefined).data;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return typeof v === 'string' && !v.includes('/') ? v : undefined;
}

/** A row's default as the table writes it: its words where it has them, else its settings' schema defaults. */
export const defaultText = (r: SettingRow): string => r.byDefault ?? r.keys.map(plainDefault).join(', ');

/** A row's examples in the order of its settings, as its default is written: "—" for one with none. */
function exampleCell(r: SettingRow): string {
  if (!r.example) return '';
  return r.keys.map((k) => (r.example?.[k] === undefined ? '\u2014' : code(r.example[k]))).join(', ');
}

/** The settings table of docs/settings.md, as generated from settingsTable. */
export function settingsMarkdown(): string {
  return [
    '| variable | meaning | default | example |',
    '|---|---|---|---|',
    ...settingsTable.map(
      (r) =>
        `| ${variables(r).map(code).join(', ')} | ${r.meaning} | ${defaultText(r)} | ${exampleCell(r)} |`,
    ),
  ].join('\n');
}

/** A meaning's relative links (written from docs/) as the README at the root reaches them. */
const fromRoot = (s: string) => s.replace(/\]\((?![a-z]+:|#|\/)([^)]+)\)/g, '](docs/$1)');

/** The README's opening list: the five settings a person sets first, each with its meaning. */
export function firstSettingsMarkdown(): string {
  return settingsTable
    .filter((r) => r.keys.some((k) => firstSettings.includes(k)))
    .map((r) => `- ${envList(r.keys.filter((k) => firstSettings.includes(k)))}: ${fromRoot(r.meaning)}`)
    .join('\n');
}

/** Markdown as plain text: links become their words, code and bold marks go. */
const plain = (s: string) =>
  s
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\*\*/g, '');

/** A row's examples as one would set them: `DBOPS_HOST=0.0.0.0 DBOPS_PORT=8080`. */
const exampleLine = (r: SettingRow) =>
  r.keys
    .flatMap((k) => (r.example?.[k] === undefined ? [] : [`${settingNames[k].env}=${r.example[k]}`]))
    .join(' ');

/** `serve --help`: every setting, its flag, its default and an example, in plain text. */
export function settingsHelp(): string {
  return settingsTable
    .map((r) => {
      const names = [
        ...r.keys.map((k) => `${settingNames[k].env} (${settingNames[k].flag})`),
        ...(r.others ?? []),
      ].join(', ');
      const example = exampleLine(r);
      return `  ${names}\n      ${plain(r.meaning)}; default: ${plain(defaultText(r))}${example ? `\n      example: ${example}` : ''}`;
    })
    .join('\n');
}

/** The generated blocks: the table in docs/settings.md, the five first settings in the README. */
const SETTINGS_BLOCKS = {
  table: ['<!-- settings: generated from src/config/ by npm run docs:settings -->', '<!-- /settings -->'],
  first: ['<!-- first settings: generated from src/config/ -->', '<!-- /first settings -->'],
} as const;

/** A document with one generated block replaced (between its two markers). */
export function withGenerated(doc: string, block: keyof typeof SETTINGS_BLOCKS, body: string): string {
  const [open, close] = SETTINGS_BLOCKS[block];
  const i = doc.indexOf(open);
  const j = doc.indexOf(close);
  if (i < 0 || j < i) throw new Error(`no "${open}" … "${close}" block`);
  return `${doc.slice(0, i + open.length)}\n${body}\n${doc.slice(j)}`;
}

/**
 * A setting as a hint names it, from the table's names: `DBOPS_CA_FILE`, or with a value `DBOPS_READ_ONLY=true`.
 * The doctor's hints name settings only through this (a test forbids a DBOPS_* name written out there).
 */
export function settingHint(key: Key, value?: string | number | boolean): string {
  const { env } = settingNames[key];
  return value === undefined ? env : `${env}=${value}`;
}

/** A setting as flag and variable: `--port (DBOPS_PORT)`, or with a value `--port 3001 (or DBOPS_PORT=3001)`. */
export function settingFlagHint(key: Key, value?: string | number): string {
  const { flag } = settingNames[key];
  return value === undefined
    ? `${flag} (${settingHint(key)})`
    : `${flag} ${value} (or ${settingHint(key, value)})`;
}
