import { bearerTokenOf } from './bearer-authenticator';

describe('bearerTokenOf: the Authorization header as passport-http-bearer read it', () => {
  it('takes `Bearer <token>`, the scheme in any case', () => {
    expect(bearerTokenOf('Bearer abc123')).toBe('abc123');
    expect(bearerTokenOf('bearer abc123')).toBe('abc123');
    expect(bearerTokenOf('BEARER abc123')).toBe('abc123');
  });

  it.each([[undefined], [''], ['Bearer'], ['Bearer '], ['Basic abc'], ['Bearer a b'], ['Bearer  abc'], ['Token abc']])('finds no credential in %p', (header) => {
    expect(bearerTokenOf(header)).toBeUndefined();
  });
});
