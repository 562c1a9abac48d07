// What a failed exchange means to a person: connection and TLS failures, deadlines, and changes whose answer
// was lost, each as an ApiError whose message says what to check.

import { ApiError, sanitizeText } from './errors.js';

export const TLS_CODE = /^(CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_TLS_|ERR_SSL_|HOSTNAME_MISMATCH)/;

export function errorCodeOf(err: unknown): string | undefined {
  for (
    let e: unknown = err, i = 0;
    e && typeof e === 'object' && i < 4;
    e = (e as { cause?: unknown }).cause, i++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/**
 * An https:// URL whose port answers plain HTTP: the TLS handshake reads an HTTP answer ("wrong version
 * number"). The fix is http://, never a CA file.
 */
export function isPlainHttpOnTls(err: unknown): boolean {
  const code = errorCodeOf(err) ?? '';
  let text = '';
  for (
    let e: unknown = err, i = 0;
    e && typeof e === 'object' && i < 4;
    e = (e as { cause?: unknown }).cause, i++
  )
    text += ` ${(e as { message?: unknown }).message ?? ''}`;
  return code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|packet length too long/i.test(text);
}

export function networkError(err: unknown, method: string, path: string, origin: string): ApiError {
  const code = errorCodeOf(err) ?? 'NETWORK_ERROR';
  const why = sanitizeText(err instanceof Error ? err.message : String(err), 160);
  let message: string;
  if (origin.startsWith('https:') && isPlainHttpOnTls(err)) {
    const host = new URL(origin).host;
    message = `${host} answers plain HTTP, not TLS (${code}): use http://${host} in DBOPS_BASE_URL (or enable TLS on the platform).`;
  } else if (TLS_CODE.test(code)) {
    message = `TLS verification of ${origin} failed (${code}: ${why}). If the server uses a private CA, set DBOPS_CA_FILE to its certificate bundle.`;
  } else if (code === 'ECONNREFUSED') {
    message = `Could not connect to ${origin} for ${method} ${path} (ECONNREFUSED). Check that the server is running and DBOPS_BASE_URL is right.`;
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    message = `Could not resolve the host of ${origin} (${code}). Check DBOPS_BASE_URL and DNS.`;
  } else {
    message = `The connection to ${origin} failed during ${method} ${path} (${code}: ${why}). Check the network and proxy settings (HTTPS_PROXY, NO_PROXY), then try again.`;
  }
  return new ApiError({ status: 0, errorCode: code, method, path, message, cause: err });
}

export function timeoutError(method: string, path: string, origin: string, timeoutMs: number): ApiError {
  return new ApiError({
    status: 0,
    errorCode: 'TIMEOUT',
    method,
    path,
    message: `No answer from ${origin} to ${method} ${path} within ${timeoutMs} ms. The server may be overloaded or unreachable; try again, or raise DBOPS_TIMEOUT_MS.`,
  });
}

/** A change whose request may have reached the platform, then `why` (no answer, cancelled, a failed retry). */
export function uncertainError(
  cause: ApiError | Error,
  why: string,
  method: string,
  path: string,
  origin: string,
): ApiError {
  return new ApiError({
    status: 0,
    errorCode: cause instanceof ApiError ? cause.errorCode : 'ABORTED',
    method,
    path,
    uncertain: true,
    cause,
    message: `No answer from ${origin} to ${method} ${path} (${why}): the change may have been applied.`,
  });
}
