import { basicCredentials } from './client-credentials';

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('basicCredentials', () => {
  it('reads id and secret', () => {
    expect(basicCredentials(basic('abc:def'))).toEqual({ clientId: 'abc', clientSecret: 'def' });
  });

  it('keeps colons after the first in the secret and form-decodes both parts', () => {
    expect(basicCredentials(basic('a%20b:c:d+e'))).toEqual({ clientId: 'a b', clientSecret: 'c:d e' });
  });

  it.each([
    ['no header', undefined],
    ['a bearer token', 'Bearer abc'],
    ['no colon', basic('abcdef')],
    ['an empty value', 'Basic '],
  ])('answers undefined for %s', (_label, header) => {
    expect(basicCredentials(header)).toBeUndefined();
  });
});
