import type { MigrationInterface, QueryRunner } from 'typeorm';
import { expandFindings, type ExpandRule, isContractStep, upStatements } from './expand-only';

const rulesOf = (...sql: string[]) => expandFindings(sql).map((finding) => finding.rule);

describe('expand-only migrations', () => {
  it.each<[string, string, ExpandRule]>([
    ['a dropped table', 'DROP TABLE sync.legacy_orders', 'drops'],
    ['a dropped table, quoted and guarded', 'DROP TABLE IF EXISTS "sync"."legacy_orders"', 'drops'],
    ['a dropped schema', 'DROP SCHEMA old CASCADE', 'drops'],
    ['a dropped view', 'DROP MATERIALIZED VIEW sync.stats', 'drops'],
    ['a dropped column', 'ALTER TABLE sync.items DROP COLUMN legacy_order', 'drops'],
    ['a dropped column without the COLUMN keyword', 'ALTER TABLE sync.items DROP legacy_order', 'drops'],
    ['a dropped column among other actions', 'ALTER TABLE sync.items ADD COLUMN a text, DROP COLUMN IF EXISTS b', 'drops'],
    ['a renamed table', 'ALTER TABLE sync.items RENAME TO tasks', 'renames'],
    ['a renamed column', 'ALTER TABLE sync.items RENAME COLUMN content TO title', 'renames'],
    ['a retyped column', 'ALTER TABLE sync.items ALTER COLUMN priority TYPE bigint', 'retypes'],
    ['a retyped column (SET DATA TYPE)', 'ALTER TABLE sync.items ALTER COLUMN priority SET DATA TYPE text USING priority::text', 'retypes'],
    ['SET NOT NULL without a default', 'ALTER TABLE auth.oauth_apps ALTER COLUMN owner_id SET NOT NULL', 'requires-column'],
    ['a new NOT NULL column without a default', 'ALTER TABLE sync.items ADD COLUMN kind text NOT NULL', 'requires-column'],
    ['a dropped default', 'ALTER TABLE sync.items ALTER COLUMN priority DROP DEFAULT', 'drops-default'],
    ['a new check on an existing table', "ALTER TABLE sync.items ADD CONSTRAINT items_priority CHECK (priority BETWEEN 1 AND 4)", 'constrains'],
    ['a new unique index on an existing table', 'CREATE UNIQUE INDEX items_key ON sync.items (user_id, key)', 'constrains'],
  ])('flags %s', (_label, sql, rule) => {
    expect(rulesOf(sql)).toEqual([rule]);
  });

  it.each([
    ['a new table with its constraints', 'CREATE TABLE sync.labels_v2 (id bigint PRIMARY KEY, name text NOT NULL, UNIQUE (name))'],
    ['a new nullable column', 'ALTER TABLE sync.users ADD COLUMN digest_sent_on date'],
    ['a new NOT NULL column with a default', "ALTER TABLE sync.items ADD COLUMN kind text NOT NULL DEFAULT 'task'"],
    ['a new generated column', "ALTER TABLE sync.items ADD COLUMN lower_content text NOT NULL GENERATED ALWAYS AS (lower(content)) STORED"],
    ['SET NOT NULL with a default set in the same migration', "ALTER TABLE sync.items ALTER COLUMN kind SET DEFAULT 'task', ALTER COLUMN kind SET NOT NULL"],
    ['a loosened column', 'ALTER TABLE sync.items ALTER COLUMN due DROP NOT NULL'],
    ['a dropped constraint (a loosening)', 'ALTER TABLE auth.oauth_apps DROP CONSTRAINT oauth_apps_kind'],
    ['an index, and a renamed index', 'CREATE INDEX users_daily_digest_idx ON sync.users (id); ALTER INDEX sync.a RENAME TO b'],
    ['a dropped index', 'DROP INDEX sync.users_daily_digest_idx'],
    ['a constraint and a unique index on a table made in the same migration', 'CREATE TABLE sync.x (id bigint, key text); ALTER TABLE sync.x ADD CONSTRAINT x_key UNIQUE (key); CREATE UNIQUE INDEX x_id ON sync.x (id)'],
    ['words in comments, strings and function bodies', "-- DROP TABLE sync.items\nINSERT INTO sync.notes (text) VALUES ('DROP TABLE x; RENAME'); CREATE FUNCTION f() RETURNS trigger AS $$ BEGIN DROP TABLE y; END $$ LANGUAGE plpgsql"],
    ['a data fix', "UPDATE sync.items SET priority = 1 WHERE priority IS NULL"],
  ])('lets %s pass', (_label, sql) => {
    expect(rulesOf(sql)).toEqual([]);
  });

  it("reads what a migration's up sends, without a database", async () => {
    class AddKind implements MigrationInterface {
      async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE sync.items ADD COLUMN kind text`);
        await queryRunner.query(`ALTER TABLE sync.items DROP COLUMN legacy_order`);
      }
      async down(): Promise<void> {}
    }
    const statements = await upStatements(new AddKind());
    expect(statements).toEqual(['ALTER TABLE sync.items ADD COLUMN kind text', 'ALTER TABLE sync.items DROP COLUMN legacy_order']);
    expect(expandFindings(statements)).toEqual([{ rule: 'drops', statement: 'alter table sync.items drop column legacy_order', detail: 'drops column legacy_order' }]);
  });

  it('knows a contract step by the reason it gives and what it drops', () => {
    const step = Object.assign(new (class {})(), { up: () => Promise.resolve(), down: () => Promise.resolve() });
    expect(isContractStep(step)).toBe(false);
    expect(isContractStep(Object.assign(step, { contractStep: { reason: ' ', drops: ['sync.items.legacy_order'] } }))).toBe(false);
    expect(isContractStep(Object.assign(step, { contractStep: { reason: '1.3.0 no longer reads it', drops: [] } }))).toBe(false);
    expect(isContractStep(Object.assign(step, { contractStep: { reason: '1.3.0 no longer reads it', drops: ['sync.items.legacy_order'] } }))).toBe(true);
  });
});
