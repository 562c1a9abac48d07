// npm as the package tests run it: without the user's audit, funding and update noise (the cache makes a
// second run offline), with room for a pack or a global install.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export const run = promisify(execFile);

export const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=error'], {
    cwd,
    timeout: 150_000,
    maxBuffer: 16 << 20,
  });
