import { messagingTablesDown, messagingTablesUp } from '@doable/shared-database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateNotificationsSchema1732190000200 implements MigrationInterface {
  name = 'CreateNotificationsSchema1732190000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE notifications.live_notifications (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id bigint NOT NULL,
        notification_key text NOT NULL UNIQUE,
        notification_type text NOT NULL,
        from_uid bigint,
        data jsonb NOT NULL DEFAULT '{}',
        is_unread boolean NOT NULL DEFAULT true,
        is_deleted boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX live_notifications_user ON notifications.live_notifications (user_id, id)`,
      `CREATE TABLE notifications.read_state (
        user_id bigint PRIMARY KEY,
        last_read_id bigint
      )`,
      ...messagingTablesUp('notifications'),
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [...messagingTablesDown('notifications'), 'DROP TABLE notifications.read_state', 'DROP TABLE notifications.live_notifications']) {
      await queryRunner.query(sql);
    }
  }
}
