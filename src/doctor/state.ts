// The state steps: the state directory is writable, this user's and not held by another HTTP server; the
// shared state store (Redis) answers.
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sanitizeText } from '../api/errors.js';
import { type Config, settingHint } from '../config/index.js';
import { liveOwner } from '../state/owner.js';
import { type Check, fail, pass } from './check.js';

/** Why the state directory cannot be used (another user's, not writable), or undefined when it can. */
function unusableStateDir(dir: string): Check | undefined {
  try {
    mkdirSync(dir, { recursive: true });
    const owner = statSync(dir).uid;
    if (typeof process.getuid === 'function' && owner !== process.getuid())
      return fail(
        'state directory',
        `${dir} belongs to another user (uid ${owner}), not to this one (uid ${process.getuid()})`,
        `Give the server a ${settingHint('stateDir')} of its own user (it keeps used tokens and approvals there)`,
      );
    accessSync(dir, constants.W_OK);
    const probe = join(dir, `.doctor-${randomBytes(4).toString('hex')}`);
    writeFileSync(probe, '');
    rmSync(probe);
    return undefined;
  } catch (e) {
    return fail(
      'state directory',
      `${dir} is not writable: ${(e as Error).message}`,
      `Point ${settingHint('stateDir')} at a directory this user can create and write`,
    );
  }
}

export function stateDirCheck(config: Config, withOwner = true): Check {
  const dir = config.stateDir;
  const unusable = unusableStateDir(dir);
  if (unusable) return unusable;
  const other = withOwner ? liveOwner(dir) : undefined;
  if (other && !config.stateUrl) {
    const who = `pid ${other.pid} on ${other.host}${other.serves ? `, serving ${other.serves}` : ''}`;
    if (config.transport === 'http')
      return fail(
        'state directory',
        `${dir} is held by a running dbops-mcp HTTP server (${who}); a second one would not see its approvals, so it refuses to start`,
        `Give this server its own ${settingHint('stateDir')}, or share approvals through ${settingHint('stateUrl')} (Redis) on every server; stop the other first if it is this one`,
      );
    return pass('state directory', `${dir} is writable and ours (also used by the HTTP server, ${who})`);
  }
  return pass('state directory', `${dir} is writable and ours`);
}

export async function redisCheck(url: string): Promise<Check> {
  const { createClient } = await import('@redis/client');
  const host = new URL(url).host;
  const client = createClient({ url, socket: { connectTimeout: 3_000, reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return pass('state store', `${host} answers PING`);
  } catch (e) {
    return fail(
      'state store',
      `Redis at ${host} (${settingHint('stateUrl')}) does not answer: ${sanitizeText((e as Error).message, 200)}`,
      `Start Redis there, or correct ${settingHint('stateUrl')}`,
    );
  } finally {
    await client.close().catch(() => {});
  }
}
