// npm as the package tests run it: without the user's audit, funding and update noise (the cache makes a
// second run offline), with room for a pack or a global install.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);

export const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=error'], {
    cwd,
    timeout: 150_000,
    maxBuffer: 16 << 20,
  });

/**
 * A global install of a packed tarball into an empty prefix under `dir`, as the README says: the environment
 * (PATH with the prefix's bin first, an empty HOME) in which `dbops-mcp` is the installed command.
 */
export async function installGlobally(tarball: string, dir: string): Promise<Record<string, string>> {
  const prefix = join(dir, 'prefix');
  mkdirSync(prefix);
  await npm(['install', '--global', '--prefer-offline', '--prefix', prefix, tarball], dir);
  const home = join(dir, 'home');
  mkdirSync(home);
  return { PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`, HOME: home };
}
