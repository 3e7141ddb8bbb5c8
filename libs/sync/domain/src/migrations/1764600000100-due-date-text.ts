import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The due's date text where it has a stored shape, else NULL, kept by PostgreSQL beside the due
 * (issue #48, bench S5). Every date filter reads the due's date only through this shape check (a
 * date of any other shape reads as no date, so one bad row cannot fail every date filter of its
 * user), and the check is a regular expression: matched per task at read time it was 1.5 of the
 * 4 ms PostgreSQL spent on `today | overdue` over 5,000 tasks, where the baseline's whole WHERE
 * took 1.25. Computed when a task is written, a read costs nothing for it.
 *
 * The pattern is STORED_DUE_DATE of @doable/sync-filter-language, written out: a migration is
 * frozen, and task-filter.integration-spec.ts holds the column to the constant. Changing the
 * constant needs a migration that redefines the column. Adding a stored generated column
 * rewrites sync.items once (an expand step: older code never names it).
 */
export class DueDateText1764600000100 implements MigrationInterface {
  name = 'DueDateText1764600000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE sync.items ADD COLUMN due_date_text text GENERATED ALWAYS AS (
         CASE WHEN (due->>'date') ~ '^(000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z?)?$'
              THEN due->>'date' END) STORED`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.items DROP COLUMN due_date_text`);
  }
}
