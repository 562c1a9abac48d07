// What the commands share: how a settings error ends a command, a closed stdout, and the registrations
// beyond tools that every server of a command carries.
import { ConfigError } from '../../config/index.js';
import type { ServerDeps } from '../server.js';

/** A settings error: one line naming it and the doctor, exit 2. Anything else is thrown on. */
export function fail(e: unknown): number {
  if (e instanceof ConfigError) {
    process.stderr.write(
      `dbops-mcp: ${e.message}\n(dbops-mcp doctor checks the whole set-up, each step with its fix)\n`,
    );
    return 2;
  }
  throw e;
}

/** `dbops-mcp tools | head -1`: a reader that stops reading is no error worth a stack trace. */
export function quietOnClosedPipe(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(0);
  });
}

/** Registrations beyond tools (resources, prompts) live in their own modules, loaded when present. */
export async function loadExtensions(): Promise<NonNullable<ServerDeps['extensions']>> {
  const { registerResources } = await import('../resources.js');
  const { registerPrompts } = await import('../prompts.js');
  return [registerResources, registerPrompts];
}
