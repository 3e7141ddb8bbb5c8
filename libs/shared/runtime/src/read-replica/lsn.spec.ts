import { formatLsn, parseLsn } from './lsn';

describe('PostgreSQL LSNs', () => {
  it('reads the two hex halves, so positions compare as numbers', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(parseLsn('0/FFFFFFFF') < parseLsn('1/0')).toBe(true);
    expect(parseLsn('a/1')).toBe(parseLsn('A/1'));
  });

  it('writes them back as PostgreSQL does', () => {
    for (const text of ['0/0', '16/B374D848', 'FFFFFFFF/FFFFFFFF', '1/A']) expect(formatLsn(parseLsn(text))).toBe(text);
  });

  it('refuses what is not an LSN', () => {
    for (const text of ['', '16', '16/', '/1', 'G/1', '1/2/3', '123456789/0', 'null']) expect(() => parseLsn(text)).toThrow('not a PostgreSQL LSN');
    expect(() => formatLsn(-1n)).toThrow('out of range');
  });
});
