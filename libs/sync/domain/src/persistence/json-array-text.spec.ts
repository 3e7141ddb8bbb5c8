import fc from 'fast-check';
import { jsonArrayText } from './json-array-text';

describe('JsonArrayText', () => {
  it('writes the bytes of its text, in place or whole, for any elements', () => {
    const element = fc.jsonValue().map((value) => JSON.stringify(value));
    fc.assert(
      fc.property(fc.array(element, { maxLength: 20 }), fc.nat(8), (elements, before) => {
        const array = jsonArrayText(elements)!;
        const expected = Buffer.from(array.toString());
        expect(array.byteLength()).toBe(expected.length);
        expect(array.toBytes().equals(expected)).toBe(true);
        const into = Buffer.alloc(before + expected.length);
        expect(array.writeInto(into, before)).toBe(into.length);
        expect(into.subarray(before).equals(expected)).toBe(true);
      }),
    );
  });

  it('is no array when an element is NULL (PostgreSQL could not write it)', () => {
    expect(jsonArrayText(['1', null])).toBeUndefined();
  });
});
