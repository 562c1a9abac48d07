// `dbops-mcp doctor`: checks a configuration end to end before any client connects, one step at a time, each
// failure with the fix for its real cause (a URL without a scheme, https against a plain-http port, a wrong key,
// a misspelt setting, a taken port, a state directory another server holds). Demo mode checks the embedded
// simulator. Exit 0 when all pass, 1 otherwise. `serve` runs the cheap ones (startupChecks) at start-up and
// prints a one-line summary when one fails. One file per area of steps beside this one; every setting a hint
// names comes from src/config/ (settingHint).
import { normaliseBaseUrl } from '../api/transport.js';
import type { Config } from '../config/index.js';
import type { Check } from './check.js';
import { urlCheck } from './connection.js';
import { identityCheck } from './identity.js';
import { installationChecks } from './installations.js';
import { portCheck } from './port.js';
import { settingsCheck } from './settings.js';
import { redisCheck, stateDirCheck } from './state.js';
import { toolsetsCheck } from './toolsets.js';

export type { Check } from './check.js';
export { portFix } from './port.js';

export async function runDoctor(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Check[]> {
  const { checks, config } = settingsCheck(args, env);
  if (!config) return checks;
  const installations = await installationChecks(config);
  checks.push(...installations.checks);
  if (installations.fileRefused) return checks;
  checks.push(toolsetsCheck(config));
  checks.push(stateDirCheck(config));
  if (config.stateUrl) checks.push(await redisCheck(config.stateUrl));
  if (config.transport === 'http') {
    checks.push(await identityCheck(config));
    checks.push(await portCheck(config.host, config.port));
  } else if (config.approvers.length > 0) checks.push(await identityCheck(config));
  return checks;
}

/**
 * The cheap checks `serve` runs at start-up, in the background: the platform URL answers (one unsigned GET,
 * a few seconds at most) and the state directory is writable. Settings were checked by the start-up itself,
 * the port by binding it.
 */
export async function startupChecks(config: Config, timeoutMs = 5_000): Promise<Check[]> {
  const checks: Check[] = [];
  if (config.baseUrl && !config.demo) {
    const base = new URL(normaliseBaseUrl(config.baseUrl));
    checks.push((await urlCheck(config, base, timeoutMs)).check);
  }
  // Its owner is this server (serve claimed it before these run).
  checks.push(stateDirCheck(config, false));
  return checks;
}

/** One line for a start-up log: the first failed check and its fix, or undefined when all passed. */
export function summaryLine(checks: Check[]): string | undefined {
  const failed = checks.filter((c) => !c.ok);
  const first = failed[0];
  if (!first) return undefined;
  return `${failed.length} of ${checks.length} start-up checks failed: ${first.step}: ${first.detail}. Fix: ${first.fix}. Run "dbops-mcp doctor" (same settings) for every check.`;
}

export function formatChecks(checks: Check[]): string {
  const lines = checks.map(
    (c) => `${c.ok ? '✓' : '✗'} ${c.step}: ${c.detail}${c.fix ? `\n    fix: ${c.fix}` : ''}`,
  );
  const failed = checks.filter((c) => !c.ok).length;
  lines.push(failed ? `${failed} of ${checks.length} checks failed.` : `All ${checks.length} checks passed.`);
  return lines.join('\n');
}
