import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * teams_workspace_* notifications were stored with workspace_id as a string; the producers now
 * write the integer the other workspace notifications carry (sync-interface §6). The stored ones
 * are turned too, so an old notification reads as a new one does.
 */
export class TeamsWorkspaceIdInteger1764090000300 implements MigrationInterface {
  name = 'TeamsWorkspaceIdInteger1764090000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE notifications.live_notifications
          SET data = jsonb_set(data, '{workspace_id}', to_jsonb((data->>'workspace_id')::bigint))
        WHERE notification_type LIKE 'teams\\_workspace\\_%' AND jsonb_typeof(data->'workspace_id') = 'string' AND data->>'workspace_id' ~ '^[0-9]{1,15}$'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE notifications.live_notifications
          SET data = jsonb_set(data, '{workspace_id}', to_jsonb(data->>'workspace_id'))
        WHERE notification_type LIKE 'teams\\_workspace\\_%' AND jsonb_typeof(data->'workspace_id') = 'number'`,
    );
  }
}
