import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApiClient } from '../../src/api/client.js';
import { idsOnly } from '../../src/format/answers.js';
import { silentLogger } from '../../src/log.js';
import { inputSchemaFor } from '../../src/mcp/schemas.js';
import { createAuditLog } from '../../src/policy/audit.js';
import { argsHash, canonicalArgs } from '../../src/policy/canonical.js';
import { registerChannel } from '../../src/policy/channels/index.js';
import { needsConsent } from '../../src/policy/consent.js';
import { callTool, type GuardDeps } from '../../src/policy/guard.js';
import { CONFIRMATION_TTL_MS, createSigner } from '../../src/policy/signer.js';
import { fileInstallation } from '../../src/state/installation.js';
import { fileLedger } from '../../src/state/ledger.js';
import {
  type AnyTool,
  defineTool,
  type Preview,
  type ToolAnswer,
  type ToolContext,
} from '../../src/tool/index.js';
import { callNames } from '../../src/tool/names.js';
import { newFence } from '../../src/untrusted.js';

describe('canonical arguments', () => {
  it('ignores key order, undefined values and the consent fields', () => {
    expect(canonicalArgs({ b: 1, a: { d: 2, c: undefined }, confirmationToken: 'x', approvalId: 'y' })).toBe(
      '{"a":{"d":2},"b":1}',
    );
    expect(argsHash('t', { a: 1, b: 2 })).toBe(argsHash('t', { b: 2, a: 1 }));
    expect(argsHash('t', { a: 1 })).not.toBe(argsHash('u', { a: 1 }));
  });
  it('distinguishes any change of value (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.string(),
        fc.jsonValue(),
        (args, key, value) => {
          fc.pre(key !== 'confirmationToken' && key !== 'approvalId' && key !== '__proto__');
          fc.pre(JSON.stringify(args[key]) !== JSON.stringify(value) && value !== undefined);
          expect(argsHash('t', { ...args, [key]: value })).not.toBe(argsHash('t', args));
        },
      ),
    );
  });
});

describe('confirmation tokens', async () => {
  it('redeem once for the exact tool and arguments', async () => {
    const signer = createSigner('s'.repeat(32));
    const { token } = signer.issue('delete_maintenance_window', 'h1');
    expect(await signer.redeem(token, 'delete_maintenance_window', 'h2')).toBe('mismatch');
    expect(await signer.redeem(token, 'update_user_roles', 'h1')).toBe('mismatch');
    expect(await signer.redeem(token, 'delete_maintenance_window', 'h1')).toBe('ok');
    expect(await signer.redeem(token, 'delete_maintenance_window', 'h1')).toBe('used');
  });
  it('expire after five minutes', async () => {
    let now = 1_000_000;
    const signer = createSigner('k'.repeat(32), () => now);
    const { token, expiresAt } = signer.issue('t', 'h');
    expect(expiresAt.getTime()).toBe(now + CONFIRMATION_TTL_MS);
    now += CONFIRMATION_TTL_MS;
    expect(await signer.redeem(token, 't', 'h')).toBe('expired');
  });
  it('reject forged, tampered and foreign tokens', async () => {
    const a = createSigner('a'.repeat(32));
    const b = createSigner('b'.repeat(32));
    const { token } = a.issue('t', 'h');
    expect(await b.redeem(token, 't', 'h')).toBe('invalid');
    const [body, sig] = token.split('.');
    const forged = Buffer.from(Buffer.from(body!, 'base64url').toString().replace('t.', 'u.')).toString(
      'base64url',
    );
    expect(await a.redeem(`${forged}.${sig}`, 'u', 'h')).toBe('invalid');
    expect(await a.redeem('garbage', 't', 'h')).toBe('invalid');
    expect(await a.redeem('', 't', 'h')).toBe('invalid');
  });
  it('refuse anything but the exact format issued: trailing data, padding, whitespace', async () => {
    const signer = createSigner('p'.repeat(32));
    const { token } = signer.issue('t', 'h');
    for (const bad of [
      `${token}.junk`,
      `${token}=`,
      ` ${token}`,
      `${token}\n`,
      `${token}.`,
      token.replace('.', '..'),
    ])
      expect(await signer.redeem(bad, 't', 'h'), JSON.stringify(bad)).toBe('invalid');
    expect(await signer.redeem(token, 't', 'h')).toBe('ok');
  });
  it('stay used across processes and restarts that share the state directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbops-ledger-'));
    const secret = 'r'.repeat(32);
    const installation = await fileInstallation(dir);
    const { token } = createSigner(secret, undefined, fileLedger(dir), installation).issue('t', 'h');
    const first = createSigner(secret, undefined, fileLedger(dir), await fileInstallation(dir));
    const restarted = createSigner(secret, undefined, fileLedger(dir), await fileInstallation(dir));
    expect(await first.redeem(token, 't', 'h')).toBe('ok');
    expect(await restarted.redeem(token, 't', 'h')).toBe('used');
  });
  it('are claimed exactly once when many processes race (file ledger)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbops-ledger-'));
    const ledgers = Array.from({ length: 4 }, () => fileLedger(dir));
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => ledgers[i % 4]!.claim('k', Date.now() + 60_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });
  it('verify across replicas that share the secret and the state store (its installation id)', async () => {
    const signer = (installation: string) =>
      createSigner('shared-secret-0123456789', undefined, undefined, installation);
    const { token } = signer('a'.repeat(32)).issue('t', 'h');
    expect(await signer('b'.repeat(32)).redeem(token, 't', 'h')).toBe('invalid');
    expect(await signer('a'.repeat(32)).redeem(token, 't', 'h')).toBe('ok');
  });
});

describe('consent policy', () => {
  it('follows DBOPS_CONFIRM', () => {
    expect(needsConsent('read', 'write')).toBe(false);
    expect(needsConsent('write', 'destructive')).toBe(false);
    expect(needsConsent('destructive', 'destructive')).toBe(true);
    expect(needsConsent('write', 'write')).toBe(true);
    expect(needsConsent('destructive', 'never')).toBe(false);
  });
});

// What the guard is called with in these tests: a person's consent policy, no platform, ids for names.
const deps = (via: GuardDeps['config']['confirmVia']): GuardDeps => ({
  config: { confirm: 'destructive', confirmVia: via, approvalOpen: false, approvalWaitMs: 1000 },
  signer: createSigner('s'.repeat(32)),
  audit: createAuditLog(join(mkdtempSync(join(tmpdir(), 'dbops-policy-')), 'audit.log'), silentLogger),
});
const ctx = {
  signal: new AbortController().signal,
  progress: async () => {},
  names: callNames({} as ApiClient),
  api: {},
  defaults: {},
  now: () => new Date(),
} as unknown as ToolContext;
const f = () => ({
  fence: newFence(),
  now: new Date(),
  detailed: false,
  asksFirst: () => false,
  names: idsOnly,
});

describe('the preview shown before consent', () => {
  const key = 'sk-live-1234567890abcd';
  const rotate = (preview?: () => Promise<Preview>): AnyTool =>
    defineTool({
      name: 'rotate_key',
      title: 'Rotate a key',
      toolset: 'access',
      example: {},
      description: 'test tool',
      kind: 'destructive',
      input: { name: z.string(), apiKey: z.string() },
      output: {},
      preview,
      run: async () => ({}),
      format: () => ({ text: 'done', structured: {} }),
    });

  for (const [name, tool] of [
    ['a tool without its own preview', rotate()],
    [
      'a change of a secret field',
      rotate(async () => ({
        action: 'Rotate the key',
        target: { name: 'pager' },
        changes: [{ field: 'apiKey', from: 'old-key-1234567890', to: key }],
      })),
    ],
  ] as const) {
    it(`masks secrets for ${name}, in the token answer and the elicitation message`, async () => {
      const args = { name: 'pager', apiKey: key };
      const answer = (await callTool(
        tool,
        args,
        ctx,
        { canElicit: false },
        deps(['token']),
        f(),
      )) as ToolAnswer;
      expect(answer.structured.outcome).toBe('confirmation_required');
      expect(`${answer.text}${JSON.stringify(answer.structured)}`).not.toContain(key);
      expect(answer.text).not.toContain('old-key-1234567890');
      const question = await callTool(tool, args, ctx, { canElicit: true }, deps(['elicitation']), f());
      const asked = 'ask' in question ? question.ask.message : '';
      expect(asked).toContain('Apply this change?');
      expect(asked).not.toContain(key);
      expect(asked).not.toContain('old-key-1234567890');
    });
  }
});

describe('a consent channel plugs in', () => {
  it('registers in a few lines, asks, and resumes with the argument it declared', async () => {
    let ran = 0;
    const tool = defineTool({
      name: 'stand_in_change',
      title: 'A change',
      toolset: 'access',
      example: {},
      description: 'test tool',
      kind: 'destructive',
      input: { name: z.string() },
      output: {},
      run: async () => {
        ran += 1;
        return {};
      },
      format: () => ({ text: 'done', structured: {} }),
    });
    // The whole channel: its name, the argument it reads back, how it asks and how it checks the proof.
    const unregister = registerChannel<string>({
      name: 'stand-in',
      argument: { name: 'witness', maxLength: 20 },
      proofOf: (args) => (typeof args.witness === 'string' ? args.witness : undefined),
      available: (call) => call.deps.config.confirmVia.includes('stand-in' as never),
      ask: async () => ({ answer: { text: 'Say "yes" as witness.', structured: { outcome: 'asked' } } }),
      resume: async (_call, witness) =>
        witness === 'yes'
          ? { kind: 'approved', channel: 'stand-in' }
          : { kind: 'declined', channel: 'stand-in', how: 'declined' },
    });
    const via = deps(['stand-in' as never]);
    const asked = (await callTool(tool, { name: 'x' }, ctx, { canElicit: false }, via, f())) as ToolAnswer;
    expect(asked.text).toBe('Say "yes" as witness.');
    expect(ran).toBe(0);
    // Every change tool's input schema takes the new argument, and a consent is not bound to it.
    expect(Object.keys(z.toJSONSchema(inputSchemaFor(tool)).properties ?? {})).toContain('witness');
    expect(argsHash(tool.name, { name: 'x', witness: 'yes' })).toBe(argsHash(tool.name, { name: 'x' }));
    await callTool(tool, { name: 'x', witness: 'yes' }, ctx, { canElicit: false }, via, f());
    expect(ran).toBe(1);
    // A read passes no channel: none is asked for a proof it cannot carry (its input takes none).
    const read = defineTool({ ...tool, name: 'stand_in_read', kind: 'read' });
    const unregisterLoud = registerChannel<string>({
      name: 'loud',
      proofOf: () => {
        throw new Error('a read asked a channel for its proof');
      },
      available: () => false,
      ask: async () => ({ answer: { text: '', structured: {} } }),
      resume: async () => ({ kind: 'declined', channel: 'loud', how: 'declined' }),
    });
    await callTool(read, { name: 'x' }, ctx, { canElicit: false }, via, f());
    expect(ran).toBe(2);
    unregisterLoud();
    unregister();
    expect(Object.keys(z.toJSONSchema(inputSchemaFor(tool)).properties ?? {})).not.toContain('witness');
  });
});
