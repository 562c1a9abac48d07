// The settings step: every DBOPS_* variable is a setting, and every value is one the schema takes.
import {
  type Config,
  ConfigError,
  loadConfig,
  settingHint,
  settingNames,
  unknownSettings,
} from '../config/index.js';
import { type Check, fail, pass } from './check.js';

export function settingsCheck(args: string[], env: NodeJS.ProcessEnv): { checks: Check[]; config?: Config } {
  const checks: Check[] = [];
  const raw = env[settingNames.baseUrl.env]?.trim();
  if (raw && !/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    checks.push(
      fail(
        'URL',
        `${settingHint('baseUrl')} "${raw}" has no scheme`,
        `Write it with its scheme: https://${raw} (or http://${raw})`,
      ),
    );
    return { checks };
  }
  for (const warning of unknownSettings(env))
    checks.push(
      fail('settings', warning, 'Rename the variable (or remove it); an unknown one changes nothing'),
    );
  try {
    const config = loadConfig(args, env);
    if (!checks.length)
      checks.push(pass('settings', 'every DBOPS_* variable is a known setting with a valid value'));
    return { checks, config };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    checks.push(fail('settings', e.message, 'Correct the value as the message says'));
    return { checks };
  }
}
