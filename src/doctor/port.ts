// The HTTP port step: the port --transport http binds is free.
import { createServer } from 'node:net';
import { settingFlagHint } from '../config/index.js';
import { type Check, fail, pass } from './check.js';

export function portCheck(host: string, port: number): Promise<Check> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', (e: NodeJS.ErrnoException) =>
      resolve(
        e.code === 'EADDRINUSE'
          ? fail('HTTP port', `${host}:${port} is taken by another process`, portFix(port))
          : fail(
              'HTTP port',
              `${host}:${port}: ${e.message}`,
              `Check ${settingFlagHint('host')} and ${settingFlagHint('port')}`,
            ),
      ),
    );
    s.listen(port, host, () => s.close(() => resolve(pass('HTTP port', `${host}:${port} is free`))));
  });
}

/** The fix for a taken HTTP port, shared with serve's own message. */
export const portFix = (port: number) =>
  `Stop what listens there, or pick a free port with ${settingFlagHint('port', port + 1)}`;
