// Named tokens (DBOPS_HTTP_TOKENS_FILE) and the choice of one way to know people.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIdentity, TokenRefused } from '../../src/identity/index.js';
import { mintNamedToken } from '../../src/identity/tokens.js';
import { silentLogger } from '../../src/log.js';

const file = (text: string) => {
  const f = join(mkdtempSync(join(tmpdir(), 'dbops-tokens-')), 'tokens');
  writeFileSync(f, text);
  return f;
};

describe('named tokens', () => {
  it('names the person of each token, refuses others, and stores only hashes', async () => {
    const priya = mintNamedToken('priya@example.com');
    const lee = mintNamedToken('lee');
    const f = file(`# the on-call team\n${priya.line}\n\n${lee.line}\n`);
    expect(readFileSync(f, 'utf8')).not.toContain(priya.token);
    const id = createIdentity({ httpTokensFile: f, oauthScopes: [] }, silentLogger);
    expect((await id.verify(`Bearer ${priya.token}`)).id).toBe('priya@example.com');
    expect((await id.verify(`Bearer ${lee.token}`)).id).toBe('lee');
    await expect(id.verify(`Bearer ${priya.token}x`)).rejects.toThrow(/not one of DBOPS_HTTP_TOKENS_FILE/);
    await expect(id.verify(undefined)).rejects.toBeInstanceOf(TokenRefused);
  });

  it('reads the file again when it changes, at once: a person added works, a person removed is no longer known', async () => {
    const priya = mintNamedToken('priya');
    const f = file(`${priya.line}\n`);
    const id = createIdentity({ httpTokensFile: f, oauthScopes: [] }, silentLogger);
    const sam = mintNamedToken('sam');
    writeFileSync(f, `${priya.line}\n${sam.line}\n`);
    expect((await id.verify(`Bearer ${sam.token}`)).id).toBe('sam');
    expect(id.stillKnown?.('priya')).toBe(true);
    writeFileSync(f, `${sam.line}\n`);
    await expect(id.verify(`Bearer ${priya.token}`)).rejects.toThrow(/not one of DBOPS_HTTP_TOKENS_FILE/);
    expect(id.stillKnown?.('priya')).toBe(false);
  });

  it('refuses a malformed line at start-up, naming the line and how to make one', () => {
    const f = file('priya plaintext-token\n');
    expect(() => createIdentity({ httpTokensFile: f, oauthScopes: [] }, silentLogger)).toThrow(
      /line 1: expected "<name> sha256:<hash>" \(make one with: dbops-mcp token <name>\)/,
    );
  });

  it('refuses several ways to know people at once', () => {
    const f = file(`${mintNamedToken('a').line}\n`);
    expect(() =>
      createIdentity({ httpTokensFile: f, httpToken: 'x'.repeat(20), oauthScopes: [] }, silentLogger),
    ).toThrow(/set one way to know people/);
  });
});
