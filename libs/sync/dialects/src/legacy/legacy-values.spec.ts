import { DomainError } from '@doable/shared-errors';
import fc from 'fast-check';
import { flag, idArg, integerId, integerIdOrNull, parseFlag, withV6Keys } from './legacy-values';

describe('legacy values', () => {
  it('writes booleans as 0/1 and reads both spellings back', () => {
    expect([flag(true), flag(false)]).toEqual([1, 0]);
    expect(['1', 1, true, 'true', '0', 0, false, 'false', 'yes', null].map(parseFlag)).toEqual([true, true, true, true, false, false, false, false, undefined, undefined]);
  });

  it('writes ids as JSON numbers and refuses one a double would change', () => {
    expect(integerId('9000000001')).toBe(9_000_000_001);
    expect(integerIdOrNull(null)).toBeNull();
    expect(() => integerId('9007199254740993')).toThrow(DomainError);
    expect(() => integerId('0012')).toThrow(DomainError);
  });

  it('reads an id digit by digit exactly as Number() would, and refuses what is not an id\'s text', () => {
    const canonical = (text: string) => Number.isSafeInteger(Number(text)) && String(Number(text)) === text;
    const idText = fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }).map(String), fc.stringMatching(/^[0-9+\-.e x]{0,17}$/));
    fc.assert(
      fc.property(idText, (text) => {
        if (canonical(text)) expect(integerId(text)).toBe(Number(text));
        else expect(() => integerId(text)).toThrow(DomainError);
      }),
      { numRuns: 2_000 },
    );
    for (const text of ['0', '999999999999999', '9007199254740991']) expect(integerId(text)).toBe(Number(text));
    for (const text of ['', '00', '1e3', ' 1', '1.0', '+1']) expect(() => integerId(text)).toThrow(DomainError);
  });

  it('takes ids as numbers or text and leaves temp ids alone', () => {
    expect([idArg(9_000_000_001), idArg('9000000001'), idArg('$1')]).toEqual(['9000000001', '9000000001', '$1']);
  });

  it('names v6 top-level keys in CamelCase', () => {
    expect(withV6Keys({ projects: [], temp_id_mapping: {}, sync_status: {}, day_orders_timestamp: '1', seq_no: 3 })).toEqual({
      Projects: [],
      TempIdMapping: {},
      SyncStatus: {},
      DayOrdersTimestamp: '1',
      seq_no: 3,
    });
  });
});
