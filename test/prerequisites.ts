// What `npm test` needs beyond npm: Debian's redis-server (replica and Redis tests) and chromium (browser
// tests). Where one is missing those tests skip, and the run ends with a line naming them and the command that
// installs them; under CI (CI=true) a missing prerequisite fails the run instead of skipping in silence.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const INSTALL = 'sudo apt-get install -y redis-server chromium';

function missing(): string[] {
  const out: string[] = [];
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
  } catch {
    out.push('redis-server (the Redis and replica tests)');
  }
  if (!existsSync('/usr/bin/chromium')) out.push('chromium (the approval page browser tests)');
  return out;
}

export default function setup() {
  const absent = missing();
  if (absent.length > 0 && process.env.CI)
    throw new Error(`CI needs ${absent.join(' and ')}; install them with: ${INSTALL}`);
  return () => {
    if (absent.length > 0)
      process.stdout.write(
        `\nSkipped for missing prerequisites: ${absent.join('; ')}. Install them with: ${INSTALL}\n`,
      );
  };
}
