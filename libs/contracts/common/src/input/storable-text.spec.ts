import fc from 'fast-check';
import { findUnstorableText, isStorableText } from './storable-text';

describe('storable text', () => {
  it.each(['a\u0000b', '\ud800', 'x\udc00y', '\udfff\ud800'])('refuses %j', (text) => {
    expect(isStorableText(text)).toBe(false);
  });

  it.each(['', 'plain', 'café ☃', '\ud83d\ude00 paired', '\t\r\n'])('accepts %j', (text) => {
    expect(isStorableText(text)).toBe(true);
  });

  it('accepts exactly what survives a UTF-8 round trip without a NUL (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\ud800', '\udc00'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) }), (text) => {
        const roundTrips = Buffer.from(text, 'utf8').toString('utf8') === text;
        expect(isStorableText(text)).toBe(roundTrips && !text.includes('\u0000'));
      }),
    );
  });

  it('names where unstorable text is, in keys and nested values too', () => {
    expect(findUnstorableText({ email: 'a@b.c', password: 'x\u0000' })?.path).toBe('password');
    expect(findUnstorableText({ redirect_uris: ['https://ok.example', 'https://\ud800.example'] })?.path).toBe('redirect_uris.1');
    expect(findUnstorableText({ meta: { '\u0000': 1 } })?.path).toBe('meta.\u0000');
    expect(findUnstorableText({ email: 'a@b.c', n: 3, none: null })).toBeUndefined();
  });
});
