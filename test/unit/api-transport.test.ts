import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createShapeChecker, unwrapEnvelope } from '../../src/api/schemas.js';
import {
  BACKOFF_CAP_MS,
  backoffDelay,
  canRetryAfterError,
  errorCodeOf,
  normaliseBaseUrl,
  parseRetryAfter,
} from '../../src/api/transport.js';
import { createLogger } from '../../src/log.js';

describe('normaliseBaseUrl', () => {
  it.each([
    ['https://ops.example.com', 'https://ops.example.com/api/public/v1.0'],
    ['https://ops.example.com/', 'https://ops.example.com/api/public/v1.0'],
    ['https://ops.example.com:8443/api/public/v1.0', 'https://ops.example.com:8443/api/public/v1.0'],
    ['https://ops.example.com:8443/api/public/v1.0/', 'https://ops.example.com:8443/api/public/v1.0'],
    ['http://127.0.0.1:8080//', 'http://127.0.0.1:8080/api/public/v1.0'],
    ['  https://h/mms/api/public/  ', 'https://h/mms/api/public/v1.0'],
    ['https://h/mms', 'https://h/mms/api/public/v1.0'],
  ])('%s → %s', (raw, want) => {
    expect(normaliseBaseUrl(raw)).toBe(want);
  });
  it('rejects what cannot be right, without echoing it', () => {
    expect(() => normaliseBaseUrl('not a url')).toThrow('not a valid URL');
    expect(() => normaliseBaseUrl('ftp://h')).toThrow('http or https');
    expect(() => normaliseBaseUrl('https://user:s3cret@h')).toThrow('must not contain credentials');
    expect(() => normaliseBaseUrl('https://user:s3cret@h')).not.toThrow('s3cret');
    expect(() => normaliseBaseUrl('https://h/?x=1')).toThrow('query');
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-05-01T12:00:00Z');
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter(['3', '9'], now)).toBe(3000);
  });
  it('reads an HTTP date, never negative', () => {
    expect(parseRetryAfter('Fri, 01 May 2026 12:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Fri, 01 May 2026 11:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('is full jitter under a cap that grows exponentially from 100 ms to 5 s', () => {
    expect(backoffDelay(0, () => 0)).toBe(0);
    expect(backoffDelay(0, () => 0.999999)).toBe(99);
    expect(backoffDelay(3, () => 0.5)).toBe(400);
    expect(backoffDelay(10, () => 0.999999)).toBe(BACKOFF_CAP_MS - 1);
    expect(backoffDelay(60, () => 0.999999)).toBe(BACKOFF_CAP_MS - 1);
    for (let attempt = 0; attempt < 12; attempt++) {
      for (let i = 0; i < 50; i++) {
        const d = backoffDelay(attempt);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(Math.min(BACKOFF_CAP_MS, 100 * 2 ** attempt));
      }
    }
  });
});

describe('which failures may be sent again', () => {
  it('idempotent methods retry connection failures, not TLS or argument errors', () => {
    for (const m of ['GET', 'PUT', 'DELETE'] as const) {
      expect(canRetryAfterError(m, 'UND_ERR_SOCKET')).toBe(true);
      expect(canRetryAfterError(m, 'ECONNRESET')).toBe(true);
      expect(canRetryAfterError(m, 'ECONNREFUSED')).toBe(true);
      expect(canRetryAfterError(m, 'CERT_HAS_EXPIRED')).toBe(false);
      expect(canRetryAfterError(m, 'UND_ERR_INVALID_ARG')).toBe(false);
      expect(canRetryAfterError(m, undefined)).toBe(false);
    }
  });
  it('POST and PATCH only when the request cannot have been written', () => {
    for (const m of ['POST', 'PATCH'] as const) {
      expect(canRetryAfterError(m, 'ECONNREFUSED')).toBe(true);
      expect(canRetryAfterError(m, 'ENOTFOUND')).toBe(true);
      expect(canRetryAfterError(m, 'UND_ERR_CONNECT_TIMEOUT')).toBe(true);
      expect(canRetryAfterError(m, 'UND_ERR_SOCKET')).toBe(false);
      expect(canRetryAfterError(m, 'ECONNRESET')).toBe(false);
      expect(canRetryAfterError(m, 'UND_ERR_HEADERS_TIMEOUT')).toBe(false);
    }
  });
  it('finds the code on the error or its cause', () => {
    expect(errorCodeOf(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe('ECONNRESET');
    expect(
      errorCodeOf(new Error('x', { cause: Object.assign(new Error('y'), { code: 'ECONNREFUSED' }) })),
    ).toBe('ECONNREFUSED');
    expect(errorCodeOf(new Error('x'))).toBeUndefined();
  });
});

describe('envelope', () => {
  it('unwraps exactly {status: number, content}', () => {
    expect(unwrapEnvelope({ status: 200, content: { id: 'a' } })).toEqual({ id: 'a' });
    expect(unwrapEnvelope({ status: 204, content: null })).toBeNull();
  });
  it('leaves lists with a status key, records with a status field, and other values alone', () => {
    const list = { status: 200, results: [], totalCount: 0, links: [] };
    expect(unwrapEnvelope(list)).toBe(list);
    const alert = { id: 'a', status: 'OPEN' };
    expect(unwrapEnvelope(alert)).toBe(alert);
    const odd = { status: 'OPEN', content: 'x' };
    expect(unwrapEnvelope(odd)).toBe(odd);
    expect(unwrapEnvelope(['x'])).toEqual(['x']);
    expect(unwrapEnvelope(null)).toBeNull();
  });
});

describe('lenient shape checks', () => {
  it('keeps unknown fields, returns surprising data as sent and warns once per schema', () => {
    const lines: string[] = [];
    const check = createShapeChecker(createLogger('warn', (l) => lines.push(l)));
    const S = z.looseObject({ id: z.string(), enabled: z.boolean().optional() });
    expect(check(S, 'Thing', { id: 'a', extra: 1 })).toEqual({ id: 'a', extra: 1 });
    const odd = { id: 5, privateKey: 'do-not-log-me' };
    expect(check(S, 'Thing', odd)).toBe(odd);
    expect(check(S, 'Thing', { id: 6 })).toEqual({ id: 6 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"schema":"Thing"');
    expect(lines[0]).toContain('id: invalid_type');
    expect(lines[0]).not.toContain('do-not-log-me');
  });
});
