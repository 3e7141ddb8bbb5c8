import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The activity log (activity/): one row per logged SyncEvents.objectEvent, stored once (the
 * event's envelope id is unique). `project_id` is the project that decides who may read the row
 * (a project event: the project itself; any other: the project it is in). Rows are kept; each
 * reader sees the days their plan's `activity_log_limit` allows (activity/activity-log.repository.ts).
 */
export class ActivityLog1732190002000 implements MigrationInterface {
  name = 'ActivityLog1732190002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sync.activity_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        event_id text NOT NULL UNIQUE,
        object_type text NOT NULL,
        object_id bigint NOT NULL,
        event_type text NOT NULL,
        event_date timestamptz NOT NULL,
        initiator_id bigint NOT NULL,
        project_id bigint,
        parent_project_id bigint,
        parent_item_id bigint,
        workspace_id bigint,
        extra_data jsonb NOT NULL DEFAULT '{}'::jsonb
      )`);
    await queryRunner.query(`CREATE INDEX activity_events_by_project ON sync.activity_events (project_id, event_date DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX activity_events_by_initiator ON sync.activity_events (initiator_id, event_date DESC, id DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE sync.activity_events`);
  }
}
