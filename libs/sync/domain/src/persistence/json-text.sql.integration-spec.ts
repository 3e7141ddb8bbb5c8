import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import fc from 'fast-check';
import { Client } from 'pg';
import { conditionalMemberSql, jsonbTextSql, memberSql, type ObjectMember, objectTextSql, plainMemberSql, sqlLiteral } from './json-text.sql';

/** What the pg driver and JSON.stringify make of a jsonb value: the text the SQL must write. */
const inJs = (jsonbText: string): string => JSON.stringify(JSON.parse(jsonbText));

/**
 * A string PostgreSQL can hold: any Unicode but NUL (no lone surrogates: fullUnicode makes whole
 * code points), with the characters JSON escapes made likely.
 */
const storable = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('"', '\\', '/', '\n', '\r', '\t', '\b', '\f', '\u0001', '\u001f', '\u007f', '\u2028', 'é', '😀', 'a', '1'), maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
).map((text) => text.replace(/\u0000/g, ''));

/** Numbers of every kind JSON carries: integers around 2^53, decimals, exponents both ways. */
const number = fc.oneof(
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e21, 1e-7, 1e20, 0.000001, 123456789012345.6, 2 ** 53, 2 ** 53 + 2, 0.1, 1.5, -2.25),
);

/** A key: array-index-like ones ("2", "10", "4294967295") to test JavaScript's key order. */
const key = fc.oneof(storable, fc.nat({ max: 20 }).map(String), fc.constantFrom('4294967294', '4294967295', '01', '-1', '__proto__'));

const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    number,
    storable,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/**
 * Whether jsonbTextSql writes a value, by its documented rule: no all-digit key anywhere, and
 * every number's text (JavaScript's, which jsonb keeps digit for digit) without an exponent, at
 * most 15 digits, no fraction ending in 0 and not below 1e-6.
 */
function writtenBySql(value: unknown): boolean {
  if (typeof value === 'number') {
    const text = String(Math.abs(value));
    return !/e/.test(text) && text.length < 16 && !/\.[0-9]*0$/.test(text) && !/^0\.000000/.test(text);
  }
  if (Array.isArray(value)) return value.every(writtenBySql);
  if (value !== null && typeof value === 'object') return Object.entries(value).every(([key, item]) => !/^[0-9]+$/.test(key) && writtenBySql(item));
  return true;
}

describe('JSON text written by PostgreSQL as JSON.stringify writes it (real PostgreSQL)', () => {
  let database: TestDatabase;
  let client: Client;
  /** The jsonb's text, and what jsonbTextSql writes of it. */
  const written = async (value: unknown): Promise<{ stored: string; text: string | null }> => {
    const { rows } = await client.query<{ stored: string; text: string | null }>(`SELECT value::text AS stored, ${jsonbTextSql('value')} AS text FROM (SELECT $1::jsonb AS value) AS given`, [JSON.stringify(value)]);
    return rows[0];
  };

  beforeAll(async () => {
    database = await createTestDatabase('json_text_sql');
    client = new Client({ connectionString: database.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it('write any jsonb value byte for byte as JavaScript would, or not at all (NULL) where the rule says it may differ', async () => {
    let writtenCount = 0;
    await fc.assert(
      fc.asyncProperty(json, async (value) => {
        const { stored, text } = await written(value);
        // NULL exactly where the rule says JavaScript could write it otherwise (a digit key, a number it may not give back).
        expect(text !== null).toBe(writtenBySql(value));
        if (text !== null) {
          writtenCount++;
          expect(text).toBe(inJs(stored));
        }
      }),
      { numRuns: 400 },
    );
    // The property must not hold by writing nothing.
    expect(writtenCount).toBeGreaterThan(100);
  });

  it.each<[string, string, string | null]>([
    ['an integer', '42', '42'],
    ['the largest integer of 15 digits', '999999999999999', '999999999999999'],
    ['an integer of 16 digits (JSON.parse may round it)', '9007199254740993', null],
    ['a decimal with a trailing zero', '1.50', null],
    ['an integer written as a decimal', '2.0', null],
    ['a small decimal', '0.000001', '0.000001'],
    ['a decimal JavaScript writes with an exponent', '0.0000001', null],
    ['a large number JavaScript writes with an exponent', '1e21', null],
    ['a decimal of 17 digits', '0.30000000000000004', null],
    ['a negative decimal', '-2.25', '-2.25'],
    ['numbers in a string', '"12345678901234567890 1.50 0.0000001"', '"12345678901234567890 1.50 0.0000001"'],
    ['a nested object', '{"b": [1, {"c": null}], "a": "x, y: z"}', '{"a":"x, y: z","b":[1,{"c":null}]}'],
    ['quotes and backslashes', String.raw`{"k\"": "v\\", "": [true, false]}`, String.raw`{"":[true,false],"k\"":"v\\"}`],
  ])('write %s as JavaScript does (%s), or not at all', async (_name, given, expected) => {
    const { rows } = await client.query<{ stored: string; text: string | null }>(`SELECT value::text AS stored, ${jsonbTextSql('value')} AS text FROM (SELECT $1::jsonb AS value) AS given`, [given]);
    expect(rows[0].text).toBe(expected);
    if (expected !== null) expect(expected).toBe(inJs(rows[0].stored));
  });

  it('leave an object with an all-digit key to JavaScript, which puts array indices first', async () => {
    const { stored, text } = await written({ b: 1, '10': 2, a: 4 });
    expect(text).toBeNull();
    expect(Object.keys(JSON.parse(stored) as object)).toEqual(['10', 'a', 'b']);
  });

  it('write to_json() of any string as JSON.stringify does', async () => {
    await fc.assert(
      fc.asyncProperty(storable, async (text) => {
        const { rows } = await client.query<{ json: string }>(`SELECT to_json($1::text)::text AS json`, [text]);
        expect(rows[0].json).toBe(JSON.stringify(text));
      }),
      { numRuns: 300 },
    );
  });

  describe('objects from members (objectTextSql)', () => {
    /** What PostgreSQL writes of the members, each value a string bound as a parameter. */
    const objectText = async (members: (values: (index: number) => string) => ObjectMember[], values: readonly (string | null)[]): Promise<string | null> => {
      const sql = objectTextSql(members((index) => `to_json($${index + 1}::text)::text`));
      const { rows } = await client.query<{ text: string | null }>(`SELECT ${sql} AS text`, [...values]);
      return rows[0].text;
    };
    const key = fc.oneof(storable, fc.constantFrom('%', '%s', '100%', "it's", 'a"b'));

    it('write runs of plain members with format() as JSON.stringify writes the object, whatever the keys hold', async () => {
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(fc.tuple(key, storable), { selector: ([name]) => name, minLength: 1, maxLength: 8 }), async (entries) => {
          // Digit keys go first in JavaScript: the members come in the order the object has them.
          const object = Object.fromEntries(entries);
          const ordered = Object.entries(object);
          const members = (value: (index: number) => string) => ordered.map(([name], index) => plainMemberSql(name, value(index)));
          expect(await objectText(members, ordered.map(([, text]) => text))).toBe(JSON.stringify(object));
        }),
        { numRuns: 200 },
      );
    });

    it('mix plain members with members that may be left out or not written, in order', async () => {
      const members = (value: (index: number) => string) => [
        conditionalMemberSql('first', value(0), `$1 <> 'skip'`),
        plainMemberSql('a', value(1)),
        memberSql('b', value(2)),
        plainMemberSql('c%', value(3)),
      ];
      expect(await objectText(members, ['x', 'y', 'z', 'w'])).toBe(JSON.stringify({ first: 'x', a: 'y', b: 'z', 'c%': 'w' }));
      expect(await objectText(members, ['skip', 'y', 'z', 'w'])).toBe(JSON.stringify({ a: 'y', b: 'z', 'c%': 'w' }));
      // A member whose text is NULL (PostgreSQL cannot write it as JavaScript would) leaves the whole object unwritten.
      const unwritten = (value: (index: number) => string) => [plainMemberSql('a', value(0)), memberSql('b', `(CASE WHEN $2 = 'no' THEN NULL ELSE ${value(1)} END)`), plainMemberSql('c', value(2))];
      expect(await objectText(unwritten, ['x', 'no', 'z'])).toBeNull();
      expect(await objectText(unwritten, ['x', 'y', 'z'])).toBe(JSON.stringify({ a: 'x', b: 'y', c: 'z' }));
    });

    it('write an object of more plain members than one format() call takes', async () => {
      const names = Array.from({ length: 150 }, (_, index) => `k${index}`);
      const sql = objectTextSql(names.map((name) => plainMemberSql(name, sqlLiteral(JSON.stringify(name.toUpperCase())))));
      const { rows } = await client.query<{ text: string }>(`SELECT ${sql} AS text`);
      expect(rows[0].text).toBe(JSON.stringify(Object.fromEntries(names.map((name) => [name, name.toUpperCase()]))));
    });
  });
});
