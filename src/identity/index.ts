// Who is asking. Over HTTP a person is known from an OAuth access token (DBOPS_OAUTH_ISSUER), a named token
// of DBOPS_HTTP_TOKENS_FILE, or the one DBOPS_HTTP_TOKEN; over stdio (and on loopback with none of these) it
// is the operating-system user running the server. The same answer serves /mcp, /metrics, /readyz and the
// approval page, so a person is the same person everywhere.
import { userInfo } from 'node:os';
import { type Config, ConfigError } from '../config/index.js';
import type { Logger } from '../log.js';
import { sameSecret } from '../policy/signer.js';
import { createOAuth, type OAuth, TokenRefused } from './oauth.js';
import { tokensFile } from './tokens.js';

export { TokenRefused } from './oauth.js';

export interface Person {
  /** The identity: an OAuth token's issuer and sub; a token file's name; the OS user. Four eyes compares it. */
  id: string;
  /** How they are shown: a verified address (or the sub); the token file's name; the OS user. */
  name?: string;
  /** How DBOPS_APPROVERS lists them: a verified email or the person claim; the token file's name. Never a sub. */
  address?: string;
  via: 'oauth' | 'token-file' | 'http-token' | 'os';
  /** False when an OAuth token lacks the write scope (DBOPS_OAUTH_SCOPES): the read-only catalog. */
  canWrite: boolean;
  /** When the token this person was known by expires (OAuth): a page sign-in lasts no longer. */
  expiresAtMs?: number;
}

type IdentityMode = 'oauth' | 'token-file' | 'http-token' | 'none';

/**
 * Whether the server tells people apart (each has a token of their own): only then are there caps per person.
 * One shared token, or none, is everyone at once.
 */
export const tellsPeopleApart = (mode: IdentityMode) => mode === 'oauth' || mode === 'token-file';

export interface Identity {
  mode: IdentityMode;
  /** The person an Authorization header names; throws TokenRefused with the reason. */
  verify(authorization: string | undefined): Promise<Person>;
  /** Whether a person known earlier (a sign-in cookie) is still known now: false once their token is gone. */
  stillKnown?(person: string): boolean;
  /** The WWW-Authenticate header for a refusal (with the metadata's address under OAuth). */
  challenge(refused?: TokenRefused): string;
  /** Under OAuth: the issuer (token checks, metadata, the approval page's sign-in). */
  oauth?: OAuth;
  /** The Protected Resource Metadata (RFC 9728), under OAuth. */
  resourceMetadata?(): Record<string, unknown>;
  /** The resource URL clients connect to (the metadata's `resource`): known once the server listens. */
  resource(): string;
  useResource(url: string): void;
}

/** The person who runs this process: the one person of stdio and of a loopback server without tokens. */
export function osPerson(): Person {
  let id = 'local';
  try {
    id = userInfo().username || id;
  } catch {
    // No user name (some containers): "local".
  }
  return { id, name: id, address: id, via: 'os', canWrite: true };
}

/** Who the one DBOPS_HTTP_TOKEN stands for. */
const TOKEN_HOLDER = 'DBOPS_HTTP_TOKEN holder';

/** The token of an `Authorization: Bearer …` header; the scheme is case-insensitive (RFC 7235 §2.1). */
const bearer = (header: string | undefined) => /^bearer +(.*)$/i.exec(header ?? '')?.[1]?.trim();

type IdentityConfig = Pick<
  Config,
  | 'oauthIssuer'
  | 'oauthAudience'
  | 'oauthScopes'
  | 'oauthClientId'
  | 'oauthClientSecret'
  | 'oauthPersonClaim'
  | 'httpTokensFile'
  | 'httpToken'
>;

/** Where the server is reached (the metadata's `resource`), shared by every kind of identity. */
type Where = Pick<Identity, 'resource' | 'useResource'>;

/** Who asks, by the one way to know people that is configured (the OS user when none is). */
export function createIdentity(config: IdentityConfig, logger: Logger): Identity {
  let resource = '';
  const where: Where = {
    resource: () => resource,
    useResource: (url: string) => {
      resource = url;
    },
  };
  const set = [config.oauthIssuer, config.httpTokensFile, config.httpToken].filter(Boolean).length;
  if (set > 1)
    throw new ConfigError(
      'set one way to know people: DBOPS_OAUTH_ISSUER, DBOPS_HTTP_TOKENS_FILE or DBOPS_HTTP_TOKEN, not several',
    );
  if (config.oauthIssuer) return oauthIdentity(config, config.oauthIssuer, where, logger);
  if (config.httpTokensFile) return tokensFileIdentity(config.httpTokensFile, where);
  if (config.httpToken) return oneTokenIdentity(config.httpToken, where);
  const me = osPerson();
  return { ...where, mode: 'none', verify: async () => me, challenge: plain };
}

/** DBOPS_OAUTH_ISSUER: people known from the issuer's access tokens; the metadata points clients to it. */
function oauthIdentity(config: IdentityConfig, issuer: string, where: Where, logger: Logger): Identity {
  const origin = () => new URL(where.resource()).origin;
  const oauth = createOAuth({
    issuer,
    audiences: () =>
      config.oauthAudience ? [config.oauthAudience] : [where.resource(), origin(), `${origin()}/`],
    scopes: config.oauthScopes,
    clientId: config.oauthClientId,
    clientSecret: config.oauthClientSecret,
    personClaim: config.oauthPersonClaim,
    logger,
  });
  /** RFC 9728 §3.1: the well-known path, then the resource's own path. */
  const metadataUrl = () =>
    `${origin()}/.well-known/oauth-protected-resource${new URL(where.resource()).pathname.replace(/\/$/, '')}`;
  return {
    ...where,
    mode: 'oauth',
    oauth,
    async verify(header) {
      const token = bearer(header);
      if (!token)
        throw new TokenRefused('invalid_request', 'Missing header "Authorization: Bearer <access token>".');
      const v = await oauth.verify(token);
      return {
        id: v.person,
        name: v.name,
        ...(v.address ? { address: v.address } : {}),
        via: 'oauth',
        canWrite: v.canWrite,
        expiresAtMs: v.expiresAt * 1000,
      };
    },
    challenge(refused) {
      const parts = [`resource_metadata="${metadataUrl()}"`];
      if (config.oauthScopes.length) parts.push(`scope="${config.oauthScopes.join(' ')}"`);
      if (refused && refused.error !== 'invalid_request')
        parts.push(
          `error="${refused.error}"`,
          `error_description="${refused.message.replace(/["\\]/g, "'")}"`,
        );
      return `Bearer ${parts.join(', ')}`;
    },
    resourceMetadata: () => ({
      resource: where.resource(),
      authorization_servers: [issuer],
      bearer_methods_supported: ['header'],
      resource_name: 'dbops-mcp',
      ...(config.oauthScopes.length ? { scopes_supported: config.oauthScopes } : {}),
    }),
  };
}

/** The challenge where the server does not use OAuth. */
const plain = (refused?: TokenRefused) =>
  `Bearer realm="dbops-mcp"${refused ? `, error="${refused.error}"` : ''}`;

/** DBOPS_HTTP_TOKENS_FILE: each person by a named token of the file (read only when configured). */
function tokensFileIdentity(file: string, where: Where): Identity {
  const holder = tokensFile(file);
  return {
    ...where,
    mode: 'token-file',
    stillKnown: holder.names,
    async verify(header) {
      const token = bearer(header);
      if (!token)
        throw new TokenRefused(
          'invalid_request',
          'Missing header "Authorization: Bearer <your token>" (your token of DBOPS_HTTP_TOKENS_FILE). This server does not use OAuth here: with mcp-remote, pass --header "Authorization: Bearer <token>".',
        );
      const name = holder.holder(token);
      if (!name)
        throw new TokenRefused('invalid_token', 'The bearer token is not one of DBOPS_HTTP_TOKENS_FILE.');
      return { id: name, name, address: name, via: 'token-file', canWrite: true };
    },
    challenge: plain,
  };
}

/** DBOPS_HTTP_TOKEN: one token, one holder for everyone who has it. */
function oneTokenIdentity(expected: string, where: Where): Identity {
  return {
    ...where,
    mode: 'http-token',
    async verify(header) {
      const token = bearer(header);
      if (token === undefined)
        throw new TokenRefused(
          'invalid_request',
          'Missing header "Authorization: Bearer <token>" (the DBOPS_HTTP_TOKEN of this server). This server does not use OAuth here: with mcp-remote, pass --header "Authorization: Bearer <token>".',
        );
      if (!sameSecret(token, expected))
        throw new TokenRefused(
          'invalid_token',
          'The Authorization header does not carry the right bearer token (DBOPS_HTTP_TOKEN of this server).',
        );
      return { id: TOKEN_HOLDER, name: TOKEN_HOLDER, via: 'http-token', canWrite: true };
    },
    challenge: plain,
  };
}
