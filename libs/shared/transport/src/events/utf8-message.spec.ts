import fc from 'fast-check';
import { utf8Message } from './utf8-message';

describe('utf8Message', () => {
  it('is the UTF-8 of the pieces joined, whatever they hold (astral characters, lone surrogates, nothing)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 5 }), fc.array(fc.string({ unit: 'binary' }), { maxLength: 2 }), (graphemes, binary) => {
        const parts = [...graphemes, ...binary];
        expect(Buffer.from(utf8Message(parts)).equals(Buffer.from(parts.join(''), 'utf8'))).toBe(true);
      }),
    );
  });

  it('writes the three pieces of an event envelope into one buffer of their size', () => {
    const parts = ['{"id":"e1","payload":', '{"content":"Aufgabe ✓ 😀"}', '}'];
    const bytes = utf8Message(parts);
    expect(bytes.byteLength).toBe(Buffer.byteLength(parts.join('')));
    expect(JSON.parse(Buffer.from(bytes).toString('utf8'))).toEqual({ id: 'e1', payload: { content: 'Aufgabe ✓ 😀' } });
  });
});
