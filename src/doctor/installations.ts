// The platform's steps for every installation: the one of DBOPS_BASE_URL (or the demo), or each of
// DBOPS_PLATFORMS on its own, its steps named after it.
import { sanitizeText } from '../api/errors.js';
import { type Config, loadPlatforms, type PlatformSpec } from '../config/index.js';
import { type Check, fail } from './check.js';
import { platformChecks } from './platform.js';

/** One installation's steps; an unexpected error is one failed step, not a crash. */
const checked = (c: Config) =>
  platformChecks(c).catch((e: unknown) => [
    fail('platform', sanitizeText((e as Error).message, 300), 'See the message'),
  ]);

/** The settings of one installation of DBOPS_PLATFORMS: its own where it has them, the server's elsewhere. */
const installationConfig = (config: Config, p: PlatformSpec): Config => ({
  ...config,
  ...p,
  demo: false,
  caFile: p.caFile ?? config.caFile,
  tlsInsecure: p.tlsInsecure ?? config.tlsInsecure,
  dialect: p.dialect ?? config.dialect,
  readOnly: p.readOnly || config.readOnly,
});

/**
 * Every installation's steps. `fileRefused`: the DBOPS_PLATFORMS file could not be read, which ends the doctor
 * there, as it ends start-up.
 */
export async function installationChecks(config: Config): Promise<{ checks: Check[]; fileRefused: boolean }> {
  if (!config.platforms) return { checks: await checked(config), fileRefused: false };
  let several: ReturnType<typeof loadPlatforms>;
  try {
    several = loadPlatforms(config.platforms);
  } catch (e) {
    const refused = fail('platforms', (e as Error).message, 'Correct the file as the message says');
    return { checks: [refused], fileRefused: true };
  }
  const checks: Check[] = [];
  for (const p of several.platforms)
    for (const c of await checked(installationConfig(config, p)))
      checks.push({ ...c, step: `${p.name}: ${c.step}` });
  return { checks, fileRefused: false };
}
