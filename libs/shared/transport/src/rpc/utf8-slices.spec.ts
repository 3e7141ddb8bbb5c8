import { utf8Slices } from './utf8-slices';

describe('utf8Slices', () => {
  const text = `a${'é'.repeat(7)}€🚀x${'🚀'.repeat(5)}"\\n`;
  const bytes = Buffer.from(text);

  it.each([4, 5, 6, 7, 13, 64])('cuts into slices of at most %i bytes that decode on their own and join to the text', (maxBytes) => {
    const slices = utf8Slices(bytes, maxBytes);
    expect(slices.every((slice) => slice.length > 0 && slice.length <= maxBytes)).toBe(true);
    // No slice starts on a continuation byte, so none decodes to a replacement character.
    expect(slices.every((slice) => (slice[0] & 0xc0) !== 0x80)).toBe(true);
    expect(slices.map((slice) => slice.toString('utf8')).join('')).toBe(text);
    expect(Buffer.concat(slices).equals(bytes)).toBe(true);
  });

  it('gives no slices for no bytes, one for bytes that fit, and refuses a bound below one character', () => {
    expect(utf8Slices(Buffer.alloc(0), 10)).toEqual([]);
    expect(utf8Slices(bytes, bytes.length)).toHaveLength(1);
    expect(() => utf8Slices(bytes, 3)).toThrow(RangeError);
  });
});
