// Named bearer tokens for teams without an identity provider (DBOPS_HTTP_TOKENS_FILE): one line a person,
// `<name> sha256:<base64url of SHA-256(token)>`, `#` for comments. Only hashes are stored, so the file can be
// read by the server without holding anyone's token; `dbops-mcp token <name>` mints a token and its line.
// The file is read again when it changes (looked at on every use), so people are added or removed at once,
// without a restart.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { ConfigError } from '../config/index.js';
import { sameSecret } from '../policy/signer.js';

const LINE = /^([A-Za-z0-9._@+-]{1,100})\s+sha256:([A-Za-z0-9_-]{43})$/;

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A fresh token for `name` and the line that names it in the tokens file. */
export function mintNamedToken(name: string): { token: string; line: string } {
  if (!/^[A-Za-z0-9._@+-]{1,100}$/.test(name))
    throw new ConfigError(`"${name}" cannot name a person: use letters, digits and . _ @ + - (100 at most)`);
  const token = randomBytes(32).toString('base64url');
  return { token, line: `${name} sha256:${tokenHash(token)}` };
}

function parse(file: string): Map<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read DBOPS_HTTP_TOKENS_FILE ${file}: ${(e as Error).message}`);
  }
  const byHash = new Map<string, string>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const m = LINE.exec(line);
    if (!m)
      throw new ConfigError(
        `DBOPS_HTTP_TOKENS_FILE ${file}, line ${i + 1}: expected "<name> sha256:<hash>" (make one with: dbops-mcp token <name>)`,
      );
    byHash.set(m[2] as string, m[1] as string);
  });
  if (byHash.size === 0) throw new ConfigError(`DBOPS_HTTP_TOKENS_FILE ${file} names no token`);
  return byHash;
}

/**
 * Who holds a token per the file (`holder`), and whether a name is still in it (`names`: a person removed
 * from the file is no longer known, whatever cookie they hold). Throws ConfigError at start when the file is
 * unusable.
 */
export function tokensFile(file: string): {
  holder(token: string): string | undefined;
  names(name: string): boolean;
} {
  const version = () => {
    const st = statSync(file);
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  };
  let byHash = parse(file);
  let seen = version();
  // Looked at on every use (one stat): a removed line stops its holder at once, not a moment later.
  const current = () => {
    try {
      const v = version();
      if (v !== seen) {
        byHash = parse(file);
        seen = v;
      }
    } catch {
      // A file being rewritten (or briefly missing, or briefly invalid) keeps the last good list.
    }
    return byHash;
  };
  return {
    holder(token) {
      const h = tokenHash(token);
      for (const [hash, name] of current()) if (sameSecret(h, hash)) return name;
      return undefined;
    },
    names: (name) => [...current().values()].includes(name),
  };
}
