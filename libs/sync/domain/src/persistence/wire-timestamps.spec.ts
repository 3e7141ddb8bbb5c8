import { wireTimestampSql, withWireTimestamps } from './wire-timestamps';

describe('withWireTimestamps', () => {
  it('reads the named columns, bare or behind a table alias, as wire text under their own names', () => {
    expect(withWireTimestamps('id::text, is_archived, archived_at, w.created_at, version::text', ['archived_at', 'created_at'])).toBe(
      `id::text, is_archived, ${wireTimestampSql('archived_at')} AS archived_at, ${wireTimestampSql('w.created_at')} AS created_at, version::text`,
    );
  });

  it('leaves columns that only contain a name alone', () => {
    expect(withWireTimestamps('updated_at_hint, last_updated_at, updated_at', ['updated_at'])).toBe(`updated_at_hint, last_updated_at, ${wireTimestampSql('updated_at')} AS updated_at`);
  });
});
