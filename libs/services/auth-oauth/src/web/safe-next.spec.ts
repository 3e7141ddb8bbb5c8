import fc from 'fast-check';
import { safeNext } from './safe-next';

const HOME = '/auth/settings';
/** Where the pages are served: a browser resolves the Location header against it. */
const ORIGIN = 'https://doable.example';

describe('safeNext', () => {
  it.each([
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\t//evil.example',
    ' //evil.example',
    '\u0000//evil.example',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '\\/evil.example',
    '/\t\\evil.example',
    'https://evil.example/',
    'HTTPS:evil.example',
    'javascript:alert(1)',
    'data:text/html,x',
    'http://doable.invalid//evil.example',
    '/./\t/evil.example',
  ])('sends %j home instead of elsewhere', (next) => {
    expect(safeNext(next, HOME)).toBe(HOME);
  });

  it.each([
    ['/auth/apps', '/auth/apps'],
    ['/oauth/authorize?client_id=abc&scope=data:read,task:add&state=s1', '/oauth/authorize?client_id=abc&scope=data:read,task:add&state=s1'],
    ['/%2F/evil.example', '/%2F/evil.example'],
    ['/a\r\nSet-Cookie: x=1', '/aSet-Cookie:%20x=1'],
    ['/caf\u00e9/\u2603', '/caf%C3%A9/%E2%98%83'],
  ])('keeps a path on this site: %j -> %j (as an ASCII header value)', (next, expected) => {
    expect(safeNext(next, HOME)).toBe(expected);
  });

  it('falls back for a next longer than any path Doable makes', () => {
    expect(safeNext(`/${'a'.repeat(4000)}`, HOME)).toBe(HOME);
  });

  it.each([undefined, ''])('falls back for %j', (next) => {
    expect(safeNext(next, HOME)).toBe(HOME);
  });

  /** Pieces that browsers treat specially, mixed with anything at all. */
  const tricky = fc.constantFrom('/', '\\', '\t', '\n', '\r', ' ', '\u0000', '\u001f', '%2F', '%5C', '%09', 'evil.example', ':', '@', '.', '?', '#', 'http:', 'javascript:', '\u2028', '\u00e9', '\ud800');
  const nexts = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.array(fc.oneof(tricky, fc.string({ maxLength: 4 })), { maxLength: 12 }).map((parts) => parts.join('')));

  it('answers only same-origin paths that are valid header values, whatever it is given (property)', () => {
    fc.assert(
      fc.property(nexts, (next) => {
        const result = safeNext(next, HOME);
        expect(result).toMatch(/^\/(?![/\\])[\x21-\x7e]*$/);
        expect(new URL(result, `${ORIGIN}/auth/login`).origin).toBe(ORIGIN);
        expect(safeNext(result, HOME)).toBe(result);
      }),
      { numRuns: 5_000 },
    );
  });

  it('keeps a path a browser would keep on this site (property)', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const path = `/${segments.join('/')}`;
        const expected = new URL(path, ORIGIN).pathname;
        expect(safeNext(path, HOME)).toBe(expected);
      }),
    );
  });
});
