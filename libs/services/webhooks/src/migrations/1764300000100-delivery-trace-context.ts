import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each delivery keeps the traceparent of the event consumer that queued it, so its attempts,
 * however much later, are spans in the trace of the command that caused them (issue #34).
 */
export class DeliveryTraceContext1764300000100 implements MigrationInterface {
  name = 'DeliveryTraceContext1764300000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhooks.deliveries ADD COLUMN trace_parent text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhooks.deliveries DROP COLUMN trace_parent`);
  }
}
