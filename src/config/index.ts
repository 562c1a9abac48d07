// Every setting in one zod schema (schema.ts), documented beside it (settings.ts, rendered by docs.ts).
// Precedence: flags > environment (DBOPS_*) > config file > defaults. A bad value fails start-up with a message
// naming the setting, never a stack trace.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  bool,
  type Config,
  ConfigError,
  configSchema,
  flagName,
  type SettingKey,
  settingKeys,
  settingNames,
} from './schema.js';

export {
  firstSettingsMarkdown,
  settingFlagHint,
  settingHint,
  settingsHelp,
  settingsMarkdown,
  withGenerated,
} from './docs.js';
export { loadPlatforms, type PlatformSpec } from './platforms.js';
export {
  type Channel,
  type Config,
  ConfigError,
  channels,
  configSchema,
  listSetting,
  type RiskCategory,
  riskCategories,
  type SettingKey,
  settingNames,
  splitList,
} from './schema.js';
export { firstSettings, settingsTable } from './settings.js';

type Key = SettingKey;
const keys = settingKeys;
const byFlag = new Map(keys.map((k) => [flagName(k), k]));
// Boolean settings may be given as a bare flag (--read-only).
const boolKeys = new Set(
  keys.filter((k) => {
    const s: z.ZodType = configSchema.shape[k];
    return s instanceof z.ZodDefault && s.unwrap() === bool;
  }),
);

/**
 * Reads flags (`--base-url X`, `--read-only`, `--no-read-only`), the environment and the optional JSON config
 * file (`--config FILE` or DBOPS_CONFIG). Unknown flags are errors: a typo must not silently fall back.
 */
export function loadConfig(argv: string[] = [], env: NodeJS.ProcessEnv = process.env): Config {
  const fromFlags: Record<string, unknown> = {};
  let configFile = env.DBOPS_CONFIG;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument "${arg}"`);
    const [rawName, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (rawName === 'config') {
      configFile = inline ?? argv[++i];
      continue;
    }
    const negated = rawName.startsWith('no-') && byFlag.has(rawName.slice(3));
    const key = byFlag.get(negated ? rawName.slice(3) : rawName);
    if (!key) throw new ConfigError(`unknown option --${rawName} (see --help)`);
    const isBool = boolKeys.has(key);
    if (negated) fromFlags[key] = false;
    else if (inline !== undefined) fromFlags[key] = inline;
    else if (isBool && (argv[i + 1] === undefined || argv[i + 1]?.startsWith('--'))) fromFlags[key] = true;
    else {
      const value = argv[++i];
      if (value === undefined) throw new ConfigError(`option --${rawName} needs a value`);
      fromFlags[key] = value;
    }
  }
  let fromFile: Record<string, unknown> = {};
  if (configFile) {
    try {
      fromFile = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
    } catch (e) {
      throw new ConfigError(`cannot read config file ${configFile}: ${(e as Error).message}`);
    }
    const unknown = Object.keys(fromFile).filter((k) => !(k in configSchema.shape));
    if (unknown.length) throw new ConfigError(`unknown setting(s) in ${configFile}: ${unknown.join(', ')}`);
  }
  const fromEnv: Record<string, unknown> = {};
  for (const key of keys) {
    const value = env[settingNames[key].env];
    if (value !== undefined && value !== '') fromEnv[key] = value;
  }
  const merged = { ...fromFile, ...fromEnv, ...fromFlags };
  const strict =
    ['1', 'true', 'yes'].includes(String(merged.strictSettings ?? '').toLowerCase()) ||
    merged.strictSettings === true;
  const unknown = unknownSettings(env);
  if (strict && unknown.length > 0)
    throw new ConfigError(`${unknown.join('; ')} (DBOPS_STRICT_SETTINGS is set)`);
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue?.path[0] ?? '');
    const names = settingNames[key as Key];
    const where = names ? `${names.env} / ${names.flag}` : key;
    throw new ConfigError(`invalid setting ${where}: ${issue?.message ?? 'invalid value'}`);
  }
  return parsed.data;
}

/** The valid names closest to `name` (by edit distance), for "did you mean" hints. */
export function nearest(name: string, valid: string[]): string[] {
  const scored = valid.map((v) => [v, editDistance(name, v)] as const).sort((a, b) => a[1] - b[1]);
  const best = scored[0]?.[1] ?? 0;
  return scored
    .filter(([, d]) => d === best)
    .slice(0, 3)
    .map(([v]) => v);
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (cur[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * DBOPS_* variables that are no setting (a misspelt name would otherwise be ignored in silence, e.g.
 * DBOPS_READONLY leaving the server writable), each as a message naming the nearest known settings.
 */
export function unknownSettings(env: NodeJS.ProcessEnv = process.env): string[] {
  const known = [...Object.values(settingNames).map((n) => n.env), 'DBOPS_CONFIG'];
  return Object.keys(env)
    .filter((k) => k.startsWith('DBOPS_') && !known.includes(k))
    .map((k) => `${k} is not a setting and is ignored; did you mean ${nearest(k, known).join(' or ')}?`);
}
