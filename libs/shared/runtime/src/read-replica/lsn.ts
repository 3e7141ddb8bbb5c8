/**
 * A position in PostgreSQL's write-ahead log (pg_lsn), as a number that compares: `16/B374D848`
 * is the high and low 32 bits in hex. Positions only grow, so "the standby has replayed what
 * this commit wrote" is `replayed >= commitLsn`.
 */
export type Lsn = bigint;

const LSN_TEXT = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** `pg_lsn` text (what `pg_current_wal_lsn()::text` answers) as an Lsn; throws on anything else. */
export function parseLsn(text: string): Lsn {
  const match = LSN_TEXT.exec(text.trim());
  if (!match) throw new Error(`not a PostgreSQL LSN: ${JSON.stringify(text)}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** The Lsn as PostgreSQL writes it (upper-case hex, no leading zeros), so it can be cast back with `::pg_lsn`. */
export function formatLsn(lsn: Lsn): string {
  if (lsn < 0n || lsn >= 1n << 64n) throw new Error(`LSN out of range: ${lsn}`);
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}
