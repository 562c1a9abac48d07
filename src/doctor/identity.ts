// The identity step: how the HTTP server will know who asks — the tokens file parses, the issuer's metadata and
// keys answer — and whether four eyes (DBOPS_APPROVERS) can work with it.
import { sanitizeText } from '../api/errors.js';
import { type Config, settingHint } from '../config/index.js';
import { createIdentity, type Identity } from '../identity/index.js';
import { personClaimText } from '../identity/oauth.js';
import { silentLogger } from '../log.js';
import { isLoopback } from '../net.js';
import { type Check, fail, pass } from './check.js';

const step = 'identity';

/** Four eyes needs people told apart: here nobody but the asker could approve, so those changes are refused. */
const noFourEyes = (who: string, config: Config) =>
  fail(
    step,
    `${who}, and ${settingHint('approvers')} is set: the changes of ${settingHint('fourEyes')} (${config.fourEyes.join(', ') || 'none'}) will be refused, since nobody but the person asking could approve them`,
    `Give each person a token of their own (${settingHint('httpTokensFile')} or ${settingHint('oauthIssuer')}), or unset ${settingHint('approvers')}`,
  );

/** How the HTTP server will know who asks: the tokens file parses, the issuer's metadata and keys answer. */
export async function identityCheck(config: Config): Promise<Check> {
  let identity: Identity;
  try {
    identity = createIdentity(config, silentLogger);
  } catch (e) {
    return fail(
      step,
      sanitizeText((e as Error).message, 300),
      'Correct the file or setting as the message says',
    );
  }
  const approvers = config.approvers.length > 0;
  // Both four-eyes settings, as they apply: which risks need a second person, and window-long's limit.
  const fourEyes = approvers
    ? `; four eyes: ${config.approvers.length} approver(s) for ${config.fourEyes.join(', ') || 'no risk'} (${settingHint('fourEyes')}), windows longer than ${config.longWindowHours} h (${settingHint('longWindowHours')})`
    : '';
  if (approvers && config.transport !== 'http') return noFourEyes("stdio: this machine's user alone", config);
  switch (identity.mode) {
    case 'none':
      if (approvers) return noFourEyes("this machine's user alone (loopback, no token)", config);
      return isLoopback(config.host)
        ? pass(step, "this machine's user alone (loopback, no token)")
        : fail(
            step,
            `nobody is told apart and ${config.host} is beyond loopback: the server will refuse to start`,
            `Set ${settingHint('oauthIssuer')}, ${settingHint('httpTokensFile')} or ${settingHint('httpToken')}, or bind 127.0.0.1`,
          );
    case 'http-token':
      if (approvers) return noFourEyes(`one person, the holder of ${settingHint('httpToken')}`, config);
      return pass(step, `one person, the holder of ${settingHint('httpToken')}`);
    case 'token-file':
      return pass(step, `named tokens from ${config.httpTokensFile}${fourEyes}`);
    case 'oauth':
      return oauthCheck(config, identity.oauth!, fourEyes);
  }
}

/** OAuth: the issuer's metadata answers and publishes at least one signing key. */
async function oauthCheck(
  config: Config,
  oauth: NonNullable<Identity['oauth']>,
  fourEyes: string,
): Promise<Check> {
  try {
    const meta = await oauth.metadata();
    const res = await fetch(meta.jwks_uri, { signal: AbortSignal.timeout(5_000) });
    const keys = res.ok ? ((await res.json()) as { keys?: unknown[] }).keys : undefined;
    if (!keys?.length)
      return fail(
        step,
        `the issuer's keys (${sanitizeText(meta.jwks_uri, 200)}) answered ${res.status} with no key`,
        'Check the issuer: tokens cannot be verified without its published keys',
      );
    const signIn = config.oauthClientId ? ', the approval page signs people in' : '';
    return pass(
      step,
      `OAuth: issuer ${config.oauthIssuer} and its ${keys.length} signing key(s) answer${signIn}; a person is ${personClaimText(config.oauthPersonClaim)}${fourEyes}`,
    );
  } catch (e) {
    return fail(
      step,
      sanitizeText((e as Error).message, 300),
      `Make ${settingHint('oauthIssuer')} exactly the issuer its metadata names (/.well-known/oauth-authorization-server or openid-configuration), reachable from this server`,
    );
  }
}
