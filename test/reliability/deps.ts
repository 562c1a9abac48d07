// What the reliability tests share: server dependencies built like the product builds them (with the
// retries a faulty platform needs), and the check that platform text reaches the model only fenced.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient } from '../../src/api/client.js';
import { type Config, configSchema } from '../../src/config/index.js';
import { type Logger, silentLogger } from '../../src/log.js';
import type { ServerDeps } from '../../src/mcp/server.js';
import { createAuditLog } from '../../src/policy/audit.js';
import { createSecretKeeper } from '../../src/policy/secrets.js';
import { createSigner } from '../../src/policy/signer.js';
import type { Simulator } from '../../src/simulator/index.js';

export function buildDeps(
  sim: Simulator,
  options: { maxRetries?: number; config?: Partial<Record<keyof Config, unknown>>; logger?: Logger } = {},
): ServerDeps & { close(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'dbops-reliability-'));
  const config = configSchema.parse({
    baseUrl: sim.baseUrl,
    ...sim.keys,
    projectId: sim.projectIds[0],
    orgId: sim.orgId,
    auditLog: join(dir, 'audit.log'),
    secretsDir: join(dir, 'secrets'),
    ...options.config,
  });
  const logger = options.logger ?? silentLogger;
  const api = createApiClient({
    ...sim.keys,
    baseUrl: sim.baseUrl,
    maxRetries: options.maxRetries ?? 1,
    logger,
  });
  return {
    config,
    api,
    logger,
    signer: createSigner(),
    audit: createAuditLog(config.auditLog, logger),
    secrets: createSecretKeeper(config.secretsDir, false),
    async close() {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Bidi overrides and isolates, zero-width characters, a BOM and a Unicode tag character: none may reach the
// model, fenced or not.
export const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/;

/**
 * Problems with how `text` shows platform data that contains `marker`: the marker outside every fenced
 * block, an invisible or bidi character anywhere, or a fence that a fake closing tag cut short.
 */
export function fencingProblems(text: string, marker: string): string[] {
  const problems: string[] = [];
  if (INVISIBLE.test(text)) problems.push('an invisible or bidi control character reached the text');
  const lines = text.split('\n');
  // A fence opens and closes on lines of their own (the notice line mentions the tag inline).
  const tags = new Set(lines.flatMap((l) => /^<(data-[0-9a-f]{8})>$/.exec(l)?.[1] ?? []));
  const outside: string[] = [];
  let open: string | undefined;
  for (const line of lines) {
    if (open === undefined) {
      const tag = /^<(data-[0-9a-f]{8})>$/.exec(line)?.[1];
      if (tag) open = tag;
      else outside.push(line);
    } else if (line === `</${open}>`) open = undefined;
    else if (/^<\/?data-[0-9a-f]{8}>$/.test(line) && tags.has(line.replace(/[</>]/g, '')))
      problems.push(`fence tag ${line} inside the ${open} block`);
  }
  if (open !== undefined)
    problems.push(`fence ${open} is never closed (the rest of the answer reads as data)`);
  // Names are the one platform text allowed outside a block: one line, bounded, code-quoted (named()).
  const rest = outside.join('\n').replace(/`[^`\n]{1,60}`/g, '`name`');
  if (rest.includes(marker)) problems.push(`platform text outside a fence: …${excerpt(rest, marker)}…`);
  return problems;
}

function excerpt(text: string, marker: string): string {
  const i = text.indexOf(marker);
  return text.slice(Math.max(0, i - 60), i + 60);
}
