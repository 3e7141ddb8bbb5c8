import { JsonArrayText } from '@doable/sync-domain';
import fc from 'fast-check';
import { answerBody, answerBytes, answerText, RawJson } from './raw-json';

/** Any JSON value's text, as PostgreSQL would have written it for a RawJson. */
const jsonText = fc.jsonValue().map((value) => JSON.stringify(value));
/** An answer's member: a plain value, a RawJson of one text, or of an array held as its elements' texts. */
const member = fc.oneof(
  fc.jsonValue(),
  fc.constant(undefined),
  jsonText.map((text) => new RawJson(text)),
  fc.array(jsonText, { maxLength: 5 }).map((elements) => new RawJson(new JsonArrayText(elements))),
);
const answer = fc.dictionary(fc.string({ unit: 'grapheme' }), member, { maxKeys: 6 });

describe('an answer with text PostgreSQL wrote, written out', () => {
  it('reads as JSON.stringify of the same values, as text and as bytes', () => {
    fc.assert(
      fc.property(answer, (value) => {
        const plain = JSON.stringify(value);
        expect(answerText(value)).toBe(plain);
        // Byte for byte, multi-byte characters and empty arrays included.
        expect(answerBytes(value).equals(Buffer.from(plain))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('is bytes only where PostgreSQL wrote part of it (a full sync), text for a poll', () => {
    const written = { sync_token: 'abc', items: new RawJson(new JsonArrayText(['{"id":"1"}', '{"content":"é"}'])) };
    expect(answerBody(written)).toEqual(Buffer.from('{"sync_token":"abc","items":[{"id":"1"},{"content":"é"}]}'));
    expect(answerBody({ sync_token: 'abc', items: [] })).toBe('{"sync_token":"abc","items":[]}');
  });

  it('is bytes too when JavaScript wrote all of it but it is large (a v7 full sync), the same JSON', () => {
    const items = Array.from({ length: 2_000 }, (_, index) => ({ id: 6_000_000_000 + index, content: `Täsk ${index} 😀`, date_string: '' }));
    const written = { sync_token: 'abc', items };
    const body = answerBody(written);
    expect(Buffer.isBuffer(body)).toBe(true);
    expect((body as Buffer).equals(Buffer.from(JSON.stringify(written)))).toBe(true);
  });
});
