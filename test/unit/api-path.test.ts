import { describe, expect, it } from 'vitest';
import { apiPath } from '../../src/api/path.js';

describe('apiPath', () => {
  it('encodes each interpolated value as one segment', () => {
    expect(apiPath`/groups/${'5e2211c17a3e5a48f5497de3'}/alerts/${'a b'}`).toBe(
      '/groups/5e2211c17a3e5a48f5497de3/alerts/a%20b',
    );
    expect(apiPath`/groups/${'x/../../orgs'}/alerts`).toBe('/groups/x%2F..%2F..%2Forgs/alerts');
    expect(apiPath`/users/${'a?b#c&d=e'}`).toBe('/users/a%3Fb%23c%26d%3De');
    expect(apiPath`/hosts/${42}`).toBe('/hosts/42');
    expect(apiPath`/alertConfigs/matchers/fieldNames`).toBe('/alertConfigs/matchers/fieldNames');
  });

  it.each([
    ['', 'empty'],
    ['.', 'not an id'],
    ['..', 'not an id'],
    ['a'.repeat(201), 'at most 200'],
    ['abc\n', 'control characters'],
    ['a\u0000b', 'control characters'],
    ['a\u0085b', 'control characters'],
  ])('rejects %j with a clear message', (bad, why) => {
    expect(() => apiPath`/groups/${'p'}/alerts/${bad}`).toThrow(why);
    expect(() => apiPath`/groups/${'p'}/alerts/${bad}`).toThrow(
      /segment #2 in \/groups\/\{…\}\/alerts\/\{…\}/,
    );
  });

  it('accepts a 200-character id and dots inside an id', () => {
    expect(apiPath`/x/${'a'.repeat(200)}`).toHaveLength(203);
    expect(apiPath`/x/${'v1.0...'}`).toBe('/x/v1.0...');
  });

  it('rejects non-string values that slip past the types', () => {
    expect(() => apiPath`/x/${undefined as unknown as string}`).toThrow('expected a string id');
  });
});
