// The platform's steps: it answers with a digest challenge, it takes the key, its version header and its clock.
// Then the key's own steps (key.ts). Demo mode checks the embedded simulator with its demo key.
import { createDigestAuth, type DigestChallenge, parseDigestChallenge } from '../api/digest.js';
import { sanitizeText } from '../api/errors.js';
import { type Config, settingHint } from '../config/index.js';
import { type Check, fail, pass } from './check.js';
import { connectionProblem, header, type Probe, probe, urlCheck } from './connection.js';
import { keyChecks } from './key.js';
import { type Target, targetOf } from './target.js';

const MAX_SKEW_S = 60;

/** The platform: reachable, a digest challenge, the key, its roles, the version header and the clock. */
export async function platformChecks(config: Config): Promise<Check[]> {
  const target = await targetOf(config);
  try {
    return await checksOf(config, target);
  } finally {
    await target.close();
  }
}

/** Each step in turn; the first that fails ends them, since the next ones would only fail with it. */
async function checksOf(config: Config, target: Target): Promise<Check[]> {
  const base = new URL(target.baseUrl);
  const url = await urlCheck(config, base);
  const checks = [url.check];
  if (!url.answer) return checks;
  const challenge = challengeCheck(base, url.answer);
  checks.push(challenge.check);
  if (!challenge.challenge) return checks;
  const signed = await signedRead(config, target, base, challenge.challenge);
  if ('failed' in signed) return [...checks, signed.failed];
  checks.push(versionCheck(signed.answer, url.answer));
  const clock = clockCheck(signed.answer);
  if (clock) checks.push(clock);
  checks.push(...(await keyChecks(config, target)));
  return checks;
}

/** Unsigned, the platform answers 401 with a Digest challenge (anything else is not its API). */
function challengeCheck(base: URL, answer: Probe): { check: Check; challenge?: DigestChallenge } {
  const challenge = parseDigestChallenge(answer.headers['www-authenticate']);
  if (answer.statusCode !== 401 || !challenge)
    return {
      check: fail(
        'digest challenge',
        `GET ${base.pathname}/groups without a key answered ${answer.statusCode}, not 401 with a Digest challenge`,
        `${settingHint('baseUrl')} must point at the platform (its host root or its /api/public/v1.0 prefix), not a proxy or another service`,
      ),
    };
  return { check: pass('digest challenge', `realm "${sanitizeText(challenge.realm, 80)}"`), challenge };
}

/** One signed read, made here, so its answer's headers (version, date) are at hand; or the key's step failed. */
async function signedRead(
  config: Config,
  target: Target,
  base: URL,
  challenge: DigestChallenge,
): Promise<{ answer: Probe } | { failed: Check }> {
  if (!target.publicKey || !target.privateKey)
    return {
      failed: fail(
        'API key',
        `${settingHint('publicKey')} / ${settingHint('privateKey')} are not set`,
        'Set both (an API key of the platform)',
      ),
    };
  const uri = `${base.pathname}/groups?itemsPerPage=1`;
  const signed = createDigestAuth({ username: target.publicKey, password: target.privateKey }).signFresh(
    challenge,
    'GET',
    uri,
  );
  let answer: Probe;
  try {
    answer = await probe(config, base, signed.header);
  } catch (e) {
    const p = connectionProblem(base, e);
    return { failed: fail('API key', p.detail, p.fix) };
  }
  const refused = refusedKey(answer.statusCode);
  return refused ? { failed: refused } : { answer };
}

/** The key's step when the platform refused the signed read, by its status; undefined when it answered. */
function refusedKey(status: number): Check | undefined {
  if (status === 401)
    return fail(
      'API key',
      'the platform refused the key (401)',
      `Check ${settingHint('publicKey')} and ${settingHint('privateKey')} (the private key is shown once, when the key is made)`,
    );
  if (status === 403)
    return fail(
      'API key',
      "the platform refused this machine's address for the key (403)",
      "Add this machine's address to the key's access list",
    );
  if (status >= 300)
    return fail(
      'API key',
      `an authenticated GET /groups answered ${status}`,
      `Check ${settingHint('baseUrl')} and the platform`,
    );
  return undefined;
}

/** The version the platform names in its X-…-Service-Version header (never fails). */
function versionCheck(signed: Probe, unsigned: Probe): Check {
  const name = /^x-.*-service-version$/i;
  const version = header(signed, name) ?? header(unsigned, name);
  return pass(
    'server version',
    version ? sanitizeText(version, 160) : 'the platform sends no X-…-Service-Version header',
  );
}

/** This machine's clock against the platform's Date header; undefined when the platform sends none. */
function clockCheck(answer: Probe): Check | undefined {
  const date = Date.parse(header(answer, /^date$/i) ?? '');
  if (Number.isNaN(date)) return undefined;
  const skew = Math.round((Date.now() - date) / 1000);
  return Math.abs(skew) > MAX_SKEW_S
    ? fail(
        'clock',
        `this machine's clock is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the platform's`,
        'Synchronise the clock (NTP): acknowledgements, maintenance windows and confirmation tokens depend on it',
      )
    : pass('clock', `within ${Math.abs(skew)} s of the platform's (more than ${MAX_SKEW_S} s fails)`);
}
