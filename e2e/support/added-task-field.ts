import { argShape, type FieldLine, TASK_ADD_ARGS, TASK_FIELDS, TASK_UPDATE_ARGS } from '@doable/contracts-sync';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { z } from 'zod';

/**
 * A task field that lives only here (issue #46, "adding a task field takes a migration, one table
 * line and a test"): `ESTIMATE` is the line a developer would add at the end of TASK_FIELDS,
 * `TaskEstimate1799999999000` its migration, and e2e/task-field-added.e2e-spec.ts its test. The
 * spec starts a system whose table has the line (added-task-field.system.ts) and reads the field
 * back through every interface the table feeds.
 */

/** Minutes a task is expected to take: set by item_add and item_update, written by api/v1, v9 and REST v2, kept by backups. */
export const ESTIMATE = {
  column: { type: 'integer', nullable: true },
  args: { add: z.int().min(0).max(10_000).nullish(), update: z.int().min(0).max(10_000).nullish() },
  apiV1: 'estimate',
  v9: 'estimate',
  schema: z.int().nullable(),
  restV2: { key: 'estimate', render: 'value' },
  backup: true,
  template: false,
  csv: [],
} as const satisfies FieldLine;

/** The task table with the line, as the compiler would see it. */
export type TaskFieldsWithEstimate = typeof TASK_FIELDS & { readonly estimate: typeof ESTIMATE };

/** The line's migration (expand-only: a nullable column). */
export class TaskEstimate1799999999000 implements MigrationInterface {
  name = 'TaskEstimate1799999999000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.items ADD COLUMN estimate integer`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sync.items DROP COLUMN estimate`);
  }
}

/**
 * Puts the line at the end of TASK_FIELDS in this process, as if it were written there. Every
 * consumer derives from the table when its module loads (the SELECT list, the INSERTs, the
 * writers, the REST v2 SQL, OpenAPI, the REST and MCP inputs, the restore), so this runs before
 * any library but the sync contracts is loaded; what task-fields.ts itself derived at its load,
 * before the line was there (the command arguments), is derived again for the line, by the same
 * function. Only the child process of added-task-field.system.ts calls it: no product code takes
 * a table from outside.
 */
export function addEstimateLine(): void {
  const added = { estimate: ESTIMATE };
  Object.assign(TASK_FIELDS, added);
  Object.assign(TASK_ADD_ARGS, argShape(added, 'add'));
  Object.assign(TASK_UPDATE_ARGS, argShape(added, 'update'));
}
