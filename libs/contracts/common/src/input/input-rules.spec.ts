import { z } from 'zod';
import { calendarInstantSchema, isCalendarYear, isInCalendarRange } from './calendar-range';
import { isObjectId } from './object-id';
import { findUnstorableText, storableString, unstorableTextReason, withStorableText } from './storable-text';
import { storedInteger } from './stored-integer';

describe('the text rule', () => {
  it.each(['a\u0000b', '\u0000', '\ud800', 'x\udc00y', '\udfff\ud800'])('refuses %j', (text) => {
    expect(unstorableTextReason(text)).toBeDefined();
    expect(storableString.safeParse(text).success).toBe(false);
  });

  it.each(['', 'plain', '🧪 emoji pairs', '\u202eRTL', '\ufeffBOM', 'ü'.repeat(1000)])('keeps %j', (text) => {
    expect(unstorableTextReason(text)).toBeUndefined();
  });

  it('finds bad text at any depth, in keys too, and says where', () => {
    expect(findUnstorableText({ commands: [{ args: { content: 'ok', labels: ['a', 'b\u0000'] } }] })).toEqual({ path: 'commands.0.args.labels.1', reason: 'contains a NUL character' });
    expect(findUnstorableText({ args: { ['k\ud800']: 1 } })).toEqual({ path: 'args.k\ud800', reason: 'its name contains a lone UTF-16 surrogate' });
    expect(findUnstorableText({ a: [1, true, null, { b: 'fine' }] })).toBeUndefined();
  });

  it('adds itself to any schema as an issue at the bad value', () => {
    const schema = withStorableText(z.object({ body: z.unknown() }));
    const parsed = schema.safeParse({ body: { content: 'a\u0000' } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].path).toEqual(['body', 'content']);
  });
});

describe('the id rule', () => {
  it.each(['1', '42', '9223372036854775807'])('an id: %s', (id) => expect(isObjectId(id)).toBe(true));
  it.each(['0', '9223372036854775808', '99999999999999999999', '-1', '1.5', '', '__proto__', 'constructor', '0x10', ' 1'])('not an id: %j', (id) => expect(isObjectId(id)).toBe(false));
});

describe('the integer rule', () => {
  it.each([0, -1, 2147483647, -2147483648])('keeps %d', (n) => expect(storedInteger.safeParse(n).success).toBe(true));
  it.each([2147483648, -2147483649, 1e19, 0.5, Number.NaN])('refuses %d', (n) => expect(storedInteger.safeParse(n).success).toBe(false));
});

describe('the date rule', () => {
  it('takes years 1 to 9999', () => {
    expect([0, 1, 9999, 10000, -1].map(isCalendarYear)).toEqual([false, true, true, false, false]);
    expect(isInCalendarRange(new Date('0001-01-01T00:00:00Z'))).toBe(true);
    expect(isInCalendarRange(new Date('0000-12-31T23:59:59Z'))).toBe(false);
    expect(isInCalendarRange(new Date('+010000-01-01T00:00:00Z'))).toBe(false);
    expect(isInCalendarRange(new Date('not a date'))).toBe(false);
  });

  it('refuses an instant of year 0, even one written with an offset in year 1', () => {
    expect(calendarInstantSchema.safeParse('2026-11-24T10:00:00Z').success).toBe(true);
    expect(calendarInstantSchema.safeParse('0000-01-01T00:00:00Z').success).toBe(false);
    expect(calendarInstantSchema.safeParse('0001-01-01T00:30:00+01:00').success).toBe(false);
  });
});
