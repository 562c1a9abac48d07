// The connection step (URL and TLS): one unsigned GET of the platform, and why it failed in the words of the
// fix — a plain-HTTP port, an untrusted certificate, nothing listening, a name that does not resolve.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { sanitizeText } from '../api/errors.js';
import { errorCodeOf, isPlainHttpOnTls } from '../api/transport.js';
import { type Config, settingHint } from '../config/index.js';
import { type Check, fail, pass } from './check.js';

export type Probe = { statusCode: number; headers: Record<string, string | string[] | undefined> };

/** Why a connection failed, in the words of the fix (never "set DBOPS_CA_FILE" for a plain-http port). */
export function connectionProblem(url: URL, e: unknown): { detail: string; fix: string } {
  const code = errorCodeOf(e) ?? '';
  const err = e as { cause?: { message?: string }; message?: string };
  const text = `${err.cause?.message ?? ''} ${err.message ?? ''}`.trim();
  if (url.protocol === 'https:' && isPlainHttpOnTls(e))
    return {
      detail: `${url.host} answers plain HTTP, not TLS`,
      fix: `Use http://${url.host} in ${settingHint('baseUrl')} (or enable TLS on the platform)`,
    };
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|HOSTNAME_MISMATCH|DEPTH_ZERO/i.test(code))
    return {
      detail: `the TLS certificate of ${url.host} is not trusted (${code})`,
      fix: `Point ${settingHint('caFile')} at the CA bundle that signed it (${settingHint('tlsInsecure', true)} only to test)`,
    };
  if (code === 'ECONNREFUSED')
    return {
      detail: `nothing listens on ${url.host}`,
      fix: `Check the host and port in ${settingHint('baseUrl')}`,
    };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return {
      detail: `${url.hostname} does not resolve`,
      fix: `Check the host name in ${settingHint('baseUrl')}`,
    };
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return {
      detail: `${url.host} did not answer in time (${code})`,
      fix: `Check ${settingHint('baseUrl')}, the network path and proxies (HTTPS_PROXY, NO_PROXY)`,
    };
  return {
    detail: `${code || 'connection failed'}: ${sanitizeText(text, 200)}`,
    fix: `Check ${settingHint('baseUrl')} and the network`,
  };
}

/** One GET of {prefix}/groups, signed or not, answered or failed as the network made it. */
export async function probe(
  config: Config,
  base: URL,
  authorization?: string,
  timeoutMs = 10_000,
): Promise<Probe> {
  const dispatcher = new Agent({
    connect: {
      ...(config.caFile ? { ca: readFileSync(config.caFile) } : {}),
      rejectUnauthorized: !config.tlsInsecure,
      timeout: timeoutMs,
    },
  });
  try {
    const answer = await request(new URL(`${base.pathname}/groups?itemsPerPage=1`, base), {
      dispatcher,
      headers: authorization ? { authorization } : {},
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    await answer.body.dump();
    return { statusCode: answer.statusCode, headers: answer.headers };
  } finally {
    await dispatcher.close().catch(() => {});
  }
}

/** The connection step alone: the URL answers, over trusted TLS when https. */
export async function urlCheck(
  config: Config,
  base: URL,
  timeoutMs?: number,
): Promise<{ check: Check; answer?: Probe }> {
  try {
    const answer = await probe(config, base, undefined, timeoutMs);
    return {
      check: pass(
        'URL and TLS',
        `${base.origin} answers${base.protocol === 'https:' ? ' over trusted TLS' : ''}`,
      ),
      answer,
    };
  } catch (e) {
    if (config.caFile && (e as NodeJS.ErrnoException).path === config.caFile)
      return {
        check: fail(
          'URL and TLS',
          `cannot read ${config.caFile}: ${(e as Error).message}`,
          `Point ${settingHint('caFile')} at a readable PEM file`,
        ),
      };
    const p = connectionProblem(base, e);
    return { check: fail('URL and TLS', p.detail, p.fix) };
  }
}

/** A header of an answer, by a pattern of its name. */
export const header = (p: Probe, name: RegExp) =>
  Object.entries(p.headers)
    .find(([k]) => name.test(k))?.[1]
    ?.toString();
