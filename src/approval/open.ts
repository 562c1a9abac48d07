// Opens an approval page in the person's default browser (desktop use under stdio). A failure is logged,
// never fatal: the link is in the tool's answer too.
import { spawn } from 'node:child_process';
import type { Logger } from '../log.js';

export function browserCommand(
  url: string,
  platform: NodeJS.Platform = process.platform,
): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  // `start` is a cmd built-in; the empty string is the window title it would otherwise take from the URL.
  if (platform === 'win32') return ['cmd', ['/c', 'start', '', url]];
  return ['xdg-open', [url]];
}

export function openInBrowser(
  url: string,
  logger: Logger,
  platform: NodeJS.Platform = process.platform,
): void {
  // Only our own http(s) URLs (base64url ids) ever reach the shell command.
  if (!/^https?:\/\/[A-Za-z0-9.:[\]-]+\/approvals\/[A-Za-z0-9_-]+$/.test(url)) {
    logger.warn('not opening an unexpected approval URL', { url });
    return;
  }
  const [cmd, args] = browserCommand(url, platform);
  try {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore', windowsHide: true });
    child.once('error', (e) =>
      logger.warn('could not open the approval page in a browser', { cmd, error: e.message, url }),
    );
    child.unref();
  } catch (e) {
    logger.warn('could not open the approval page in a browser', { cmd, error: (e as Error).message, url });
  }
}
