// One JSON line per guarded call and outcome, appended (O_APPEND) so concurrent writers never interleave
// within a line. A failing audit write is reported on stderr and never blocks or fails the answer.
// Rotation by size (DBOPS_AUDIT_MAX_BYTES, DBOPS_AUDIT_KEEP files): the writer that sees the file past the
// limit takes an inter-process lock, checks again and shifts audit.log → audit.log.1 → … A writer of another
// process racing the rename appends to the file it opened, which is then audit.log.1: no line is lost.
import { appendFile, mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { redact } from '../format/redact.js';
import type { Logger } from '../log.js';

type AuditOutcome =
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
  /** The person who asked for the change, and the MCP client they asked through. */
  requester?: string;
  client?: string;
  /** Who consented: the approver on the approval page, else the requester through their channel. */
  approver?: string;
  /** The installation changed, when the server serves several (DBOPS_PLATFORMS). */
  platform?: string;
}

interface AuditRotation {
  /** Rotate once the file reaches this size; 0 never rotates. */
  maxBytes: number;
  /** Rotated files kept (audit.log.1 … audit.log.N); older ones are removed. */
  keep: number;
}

const ignoreMissing = (e: NodeJS.ErrnoException) => {
  if (e.code !== 'ENOENT') throw e;
};

async function rotate(file: string, keep: number, maxBytes: number): Promise<void> {
  // Loaded when a log first fills up, not at every start.
  const { lock } = await import('proper-lockfile');
  const release = await lock(file, {
    realpath: false,
    lockfilePath: join(dirname(file), `.${basename(file)}.lock`),
    stale: 10_000,
    retries: { retries: 20, minTimeout: 5, maxTimeout: 100 },
  });
  try {
    // Another writer may have rotated while this one waited for the lock.
    const size = (await stat(file).catch(() => undefined))?.size ?? 0;
    if (size < maxBytes) return;
    // Beyond `keep` (also files left from a larger setting) goes, then each shifts up by one.
    const base = basename(file);
    for (const name of await readdir(dirname(file))) {
      const n = name.startsWith(`${base}.`) ? Number(name.slice(base.length + 1)) : Number.NaN;
      if (Number.isInteger(n) && n >= keep) await unlink(join(dirname(file), name)).catch(ignoreMissing);
    }
    for (let k = keep - 1; k >= 1; k--) await rename(`${file}.${k}`, `${file}.${k + 1}`).catch(ignoreMissing);
    await rename(file, `${file}.1`);
  } finally {
    await release();
  }
}

export function createAuditLog(
  file: string,
  logger: Logger,
  rotation: AuditRotation = { maxBytes: 10 * 1024 * 1024, keep: 5 },
) {
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
        return;
      }
      if (rotation.maxBytes <= 0) return;
      try {
        if ((await stat(file)).size >= rotation.maxBytes)
          await rotate(file, rotation.keep, rotation.maxBytes);
      } catch (e) {
        // The line is written; a rotation that could not happen now happens at a later write.
        logger.warn('audit log rotation failed', { file, error: (e as Error).message });
      }
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
