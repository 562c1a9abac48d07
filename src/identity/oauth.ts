// The server as an OAuth 2.1 resource server, as the MCP authorization spec asks: access tokens are JWTs
// verified with `jose` against the issuer's published keys (fetched from its metadata's jwks_uri, kept, and
// fetched again when a token names a key not seen yet: key rotation), for this server's audience only.
// Every refusal says why in words a person can act on; nothing of a token is ever logged.
// The approval page signs people in against the same issuer (authorization code with PKCE, S256).
import { createHash, randomBytes } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { ConfigError } from '../config/index.js';
import type { Logger } from '../log.js';

interface IssuerMetadata {
  issuer: string;
  jwks_uri: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
}

interface OAuthOptions {
  issuer: string;
  /** Audiences accepted in `aud`: the resource URL clients connect to (and the public origin by default). */
  audiences: () => string[];
  /** [read scope, write scope] (DBOPS_OAUTH_SCOPES), or none. */
  scopes: string[];
  /** The approval page's client at the issuer (authorization code + PKCE); absent: no sign-in there. */
  clientId?: string;
  clientSecret?: string;
  /** DBOPS_OAUTH_PERSON_CLAIM; unset: `email` when `email_verified` is true, else `sub`. */
  personClaim?: string;
  logger: Logger;
  fetch?: typeof fetch;
  /** Least time between two fetches of the keys (a token naming an unknown key fetches them again). */
  keysCooldownMs?: number;
}

/** A verified token: who, and what the token allows. */
interface Verified {
  /** The identity: the issuer and the token's sub. */
  person: string;
  /** How the person is shown: the person claim, a verified email, else the sub. */
  name: string;
  /** How approvers are listed: the person claim (DBOPS_OAUTH_PERSON_CLAIM) or a verified email; never the sub. */
  address?: string;
  canWrite: boolean;
  scopes: string[];
  expiresAt: number;
  clientId?: string;
}

/** A refusal with the OAuth error code and a sentence that says why. */
export class TokenRefused extends Error {
  constructor(
    readonly error: 'invalid_token' | 'insufficient_scope' | 'invalid_request',
    message: string,
  ) {
    super(message);
  }
}

/** RFC 8414 §3 and OpenID discovery: where an issuer's metadata lives. */
export function metadataUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
  return [
    `${u.origin}/.well-known/oauth-authorization-server${path}`,
    `${u.origin}${path}/.well-known/openid-configuration`,
  ];
}

/** Loaded on the first token: a server without OAuth (stdio, most starts) never pays for it. */
let jose: Promise<typeof import('jose')> | undefined;
const lib = () => {
  jose ??= import('jose');
  return jose;
};

type Jose = typeof import('jose');
type KeySet = ReturnType<Jose['createRemoteJWKSet']>;

/** One issuer as this server knows it: its options, and its metadata and keys once read. */
interface Issuer {
  opts: OAuthOptions;
  get: typeof fetch;
  meta?: Promise<IssuerMetadata>;
  jwks?: KeySet;
}

export function createOAuth(opts: OAuthOptions) {
  const issuer: Issuer = { opts, get: opts.fetch ?? fetch };
  return {
    issuer: opts.issuer,
    metadata: () => metadata(issuer),
    verify: (token: string) => verify(issuer, token),
    /** True when the approval page can sign people in here. */
    signIn: opts.clientId !== undefined,
    pkce,
    authorizeUrl: (redirectUri: string, state: string, challenge: string, resource: string) =>
      authorizeUrl(issuer, redirectUri, state, challenge, resource),
    /** Exchanges the code for an access token and verifies it like any other token. */
    redeem: (code: string, verifier: string, redirectUri: string, resource: string) =>
      redeem(issuer, code, verifier, redirectUri, resource),
  };
}

/** The issuer's metadata from the first of its well-known addresses that answers (RFC 8414, OpenID). */
async function discover({ opts, get }: Issuer): Promise<IssuerMetadata> {
  const problems: string[] = [];
  for (const url of metadataUrls(opts.issuer)) {
    try {
      const res = await get(url, {
        signal: AbortSignal.timeout(5_000),
        headers: { accept: 'application/json' },
      });
      if (!res.ok) {
        problems.push(`${url}: HTTP ${res.status}`);
        continue;
      }
      const m = (await res.json()) as IssuerMetadata;
      // RFC 8414 §3.3: the metadata must name the very issuer it was fetched for.
      if (m.issuer !== opts.issuer)
        throw new ConfigError(`${url} names issuer "${m.issuer}", not DBOPS_OAUTH_ISSUER "${opts.issuer}"`);
      if (!m.jwks_uri) throw new ConfigError(`${url} has no jwks_uri: the server cannot verify tokens`);
      return m;
    } catch (e) {
      if (e instanceof ConfigError) throw e;
      problems.push(`${url}: ${(e as Error).message}`);
    }
  }
  throw new ConfigError(`cannot read the metadata of DBOPS_OAUTH_ISSUER: ${problems.join('; ')}`);
}

/** The issuer's metadata, read once; a failure is not kept, so the next request tries again. */
function metadata(issuer: Issuer): Promise<IssuerMetadata> {
  issuer.meta ??= discover(issuer).catch((e: unknown) => {
    issuer.meta = undefined;
    throw e;
  });
  return issuer.meta;
}

/** The issuer's published keys (JWKS), from its metadata's jwks_uri. */
async function keys(issuer: Issuer): Promise<KeySet> {
  if (!issuer.jwks) {
    const m = await metadata(issuer);
    // Kept 10 minutes; a token with an unknown key id fetches the set again (at most every 30 s).
    issuer.jwks = (await lib()).createRemoteJWKSet(new URL(m.jwks_uri), {
      cacheMaxAge: 600_000,
      cooldownDuration: issuer.opts.keysCooldownMs ?? 30_000,
    });
  }
  return issuer.jwks;
}

function scopesOf(p: JWTPayload): string[] {
  if (typeof p.scope === 'string') return p.scope.split(' ').filter(Boolean);
  if (Array.isArray(p.scp)) return p.scp.filter((s): s is string => typeof s === 'string');
  return [];
}

/** Who a token names and what it allows, once its signature, issuer, audience and times hold. */
async function verify(issuer: Issuer, token: string): Promise<Verified> {
  const { opts } = issuer;
  const payload = await verifiedPayload(issuer, token);
  const who = personIn(payload, opts.personClaim);
  if (!who)
    throw new TokenRefused(
      'invalid_token',
      opts.personClaim
        ? `The access token names nobody: it has no "${opts.personClaim}" claim (DBOPS_OAUTH_PERSON_CLAIM).`
        : 'The access token names nobody (no sub).',
    );
  const scopes = scopesOf(payload);
  const [read, write] = opts.scopes;
  if (read && write && !scopes.includes(read) && !scopes.includes(write))
    throw new TokenRefused(
      'insufficient_scope',
      `The access token has neither scope "${read}" (read) nor "${write}" (changes).`,
    );
  const clientId = [payload.client_id, payload.azp].find((v): v is string => typeof v === 'string');
  return {
    ...who,
    canWrite: !write || scopes.includes(write),
    scopes,
    expiresAt: payload.exp as number,
    ...(clientId ? { clientId } : {}),
  };
}

/** The token's claims, verified against the issuer's keys for this audience; else the refusal saying why. */
async function verifiedPayload(issuer: Issuer, token: string): Promise<JWTPayload> {
  const { opts } = issuer;
  const { decodeProtectedHeader, jwtVerify, errors } = await lib();
  let alg: string | undefined;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    throw new TokenRefused(
      'invalid_token',
      'The access token is not a JWT. This server verifies JWT access tokens: have the authorization server issue JWTs for this resource.',
    );
  }
  if (!alg || alg === 'none') throw new TokenRefused('invalid_token', 'The access token is not signed.');
  try {
    const { payload } = await jwtVerify(token, await keys(issuer), {
      issuer: opts.issuer,
      audience: opts.audiences(),
      requiredClaims: ['exp'],
      clockTolerance: 30,
    });
    return payload;
  } catch (e) {
    throw refusal(e, errors, opts);
  }
}

const invalid = (message: string) => new TokenRefused('invalid_token', message);

/** Why a token failed verification, in words a person can act on (never the token itself). */
function refusal(e: unknown, errors: Jose['errors'], opts: OAuthOptions): TokenRefused {
  if (e instanceof errors.JWTExpired) {
    const exp = (e.payload as JWTPayload).exp;
    return invalid(
      `The access token expired${exp ? ` at ${new Date(exp * 1000).toISOString()}` : ''}: get a new one.`,
    );
  }
  if (e instanceof errors.JWTClaimValidationFailed) return invalid(claimRefused(e, opts));
  if (e instanceof errors.JWSSignatureVerificationFailed)
    return invalid("The access token's signature does not verify against the issuer's keys.");
  if (e instanceof errors.JWKSNoMatchingKey)
    return invalid('The access token is signed with a key the issuer does not publish.');
  if (e instanceof errors.JOSEAlgNotAllowed || e instanceof errors.JOSENotSupported)
    return invalid("The access token is signed with an algorithm the issuer's keys do not allow.");
  if (e instanceof ConfigError || e instanceof errors.JWKSTimeout) {
    opts.logger.warn('cannot verify access tokens now', { error: (e as Error).message });
    return invalid("The issuer's keys cannot be read right now; try again shortly.");
  }
  return invalid('The access token is malformed.');
}

/** Which claim is not acceptable, and what this server accepts instead. */
function claimRefused(
  e: InstanceType<Jose['errors']['JWTClaimValidationFailed']>,
  opts: OAuthOptions,
): string {
  const p = e.payload as JWTPayload;
  switch (e.claim) {
    case 'aud':
      return `The access token was issued for another audience (${JSON.stringify(p.aud ?? null)}); this server accepts ${opts.audiences().join(' or ')}.`;
    case 'iss':
      return `The access token was issued by ${JSON.stringify(p.iss ?? null)}, not by ${opts.issuer}.`;
    case 'nbf':
      return 'The access token is not valid yet (nbf).';
    case 'exp':
      return 'The access token has no expiry (exp).';
    default:
      return `The access token's "${e.claim}" claim is not acceptable.`;
  }
}

/** PKCE (S256) for the approval page's sign-in: the verifier stays with the browser's sealed cookie. */
function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Where the approval page sends a person to sign in (authorization code with PKCE, for this resource). */
async function authorizeUrl(
  issuer: Issuer,
  redirectUri: string,
  state: string,
  challenge: string,
  resource: string,
): Promise<string> {
  const { opts } = issuer;
  const m = await metadata(issuer);
  if (!m.authorization_endpoint) throw new ConfigError('the issuer publishes no authorization_endpoint');
  const u = new URL(m.authorization_endpoint);
  u.search = new URLSearchParams({
    response_type: 'code',
    client_id: opts.clientId ?? '',
    redirect_uri: redirectUri,
    scope: ['openid', 'email', 'profile', ...opts.scopes].join(' '),
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource,
  }).toString();
  return u.toString();
}

/** Exchanges the sign-in's code for an access token at the issuer and verifies it like any other token. */
async function redeem(
  issuer: Issuer,
  code: string,
  verifier: string,
  redirectUri: string,
  resource: string,
): Promise<Verified> {
  const { opts } = issuer;
  const m = await metadata(issuer);
  if (!m.token_endpoint) throw new ConfigError('the issuer publishes no token_endpoint');
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    client_id: opts.clientId ?? '',
    resource,
  });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (opts.clientSecret)
    headers.authorization = `Basic ${Buffer.from(
      `${encodeURIComponent(opts.clientId ?? '')}:${encodeURIComponent(opts.clientSecret)}`,
    ).toString('base64')}`;
  const res = await issuer.get(m.token_endpoint, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const answer = (await res.json().catch(() => ({}))) as { access_token?: string; error?: string };
  if (!res.ok || !answer.access_token)
    throw new TokenRefused(
      'invalid_request',
      `The issuer refused the sign-in (${answer.error ?? `HTTP ${res.status}`}).`,
    );
  return verify(issuer, answer.access_token);
}

export type OAuth = ReturnType<typeof createOAuth>;

/**
 * Who a token names. The person is the issuer and the subject: one person whatever else a token of theirs
 * carries. Their address is only a claim the issuer vouches for — the person claim when one is set, else an
 * email with `email_verified` true (where users may set their own address, an unverified one could name an
 * approver) — and never the sub, however much it looks like an address.
 */
function personIn(
  payload: JWTPayload,
  claim?: string,
): { person: string; name: string; address?: string } | undefined {
  const text = (v: unknown) => (typeof v === 'string' && v.trim().length > 0 ? v.trim() : undefined);
  const sub = text(payload.sub);
  const address = claim
    ? text(payload[claim])
    : payload.email_verified === true
      ? text(payload.email)
      : undefined;
  // Where a claim names people, a token without it names nobody; without sub, the claim alone is who.
  if (claim && !address) return undefined;
  const id = sub ? `sub:${sub}` : claim ? `${claim}:${address}` : undefined;
  if (!id) return undefined;
  return {
    person: `${payload.iss ?? ''}#${id}`,
    name: address ?? (sub as string),
    ...(address ? { address } : {}),
  };
}

/** Which claim names people, in words (the doctor shows it). */
export function personClaimText(claim?: string): string {
  return claim
    ? `the issuer and "sub"; shown and listed as approvers by the "${claim}" claim (DBOPS_OAUTH_PERSON_CLAIM)`
    : 'the issuer and "sub"; shown and listed as approvers by "email" when "email_verified" is true (set DBOPS_OAUTH_PERSON_CLAIM to choose)';
}
