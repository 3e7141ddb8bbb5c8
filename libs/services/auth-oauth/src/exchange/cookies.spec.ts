import { clearCookie, parseCookies, serializeCookie } from './cookies';

describe('cookies', () => {
  it('parses a Cookie header, keeping the first of duplicate names', () => {
    expect(parseCookies('a=1; b="two"; a=3; c=%20x; bad; d=%E0%A4%A')).toEqual({ a: '1', b: 'two', c: ' x', d: '%E0%A4%A' });
  });

  it('parses nothing from no header', () => {
    expect(parseCookies(undefined)).toEqual({});
  });

  it('makes HttpOnly, SameSite=Lax cookies, Secure on https', () => {
    expect(serializeCookie('s', 'v v', { maxAgeSeconds: 60, secure: false })).toBe('s=v%20v; Path=/; HttpOnly; SameSite=Lax; Max-Age=60');
    expect(serializeCookie('s', 'v', { secure: true })).toBe('s=v; Path=/; HttpOnly; SameSite=Lax; Secure');
    expect(clearCookie('s', false)).toBe('s=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
  });
});
