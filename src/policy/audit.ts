// One JSON line per guarded call and outcome, appended (O_APPEND) so concurrent writers never interleave
// within a line. A failing audit write is reported on stderr and never blocks or fails the answer.
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { redact } from '../format/redact.js';
import type { Logger } from '../log.js';

export type AuditOutcome =
  | 'previewed'
  | 'confirmation_required'
  | 'approval_pending'
  | 'confirmed'
  | 'declined'
  | 'expired'
  | 'rejected'
  | 'executed'
  /** The change was sent and no answer came back: it may or may not have been applied. */
  | 'unknown'
  | 'failed';

export interface AuditEntry {
  tool: string;
  outcome: AuditOutcome;
  args: Record<string, unknown>;
  channel?: string;
  status?: number;
  error?: string;
  approvalId?: string;
}

export function createAuditLog(file: string, logger: Logger) {
  let dirReady: Promise<unknown> | undefined;
  return {
    file,
    async write(entry: AuditEntry): Promise<void> {
      const { confirmationToken: _t, ...args } = entry.args;
      const line = `${JSON.stringify({ time: new Date().toISOString(), ...entry, args: redact(args) })}\n`;
      try {
        // Made once; a failure is not remembered, so the log recovers when the path is fixed.
        dirReady ??= mkdir(dirname(file), { recursive: true, mode: 0o700 }).catch((e: unknown) => {
          dirReady = undefined;
          throw e;
        });
        await dirReady;
        await appendFile(file, line, { flag: 'a', mode: 0o600 });
      } catch (e) {
        logger.error('audit log write failed', {
          file,
          error: (e as Error).message,
          tool: entry.tool,
          outcome: entry.outcome,
        });
      }
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
