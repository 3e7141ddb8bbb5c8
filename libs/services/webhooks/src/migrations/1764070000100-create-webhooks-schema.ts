import { messagingTablesDown, messagingTablesUp } from '@doable/shared-database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The webhooks service's own tables: projections of what auth-oauth announces (each app's
 * webhook, which users authorised which app), and the deliveries made from sync's object events,
 * each with its body fixed once and its retry schedule.
 */
export class CreateWebhooksSchema1764070000100 implements MigrationInterface {
  name = 'CreateWebhooksSchema1764070000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE webhooks.apps (
        app_id bigint PRIMARY KEY,
        callback_url text,
        events text[] NOT NULL DEFAULT '{}',
        version text NOT NULL DEFAULT '1',
        changed_at timestamptz NOT NULL
      )`,
      `CREATE TABLE webhooks.authorizations (
        app_id bigint NOT NULL,
        user_id bigint NOT NULL,
        authorized boolean NOT NULL,
        changed_at timestamptz NOT NULL,
        PRIMARY KEY (app_id, user_id)
      )`,
      `CREATE INDEX authorizations_user ON webhooks.authorizations (user_id) WHERE authorized`,
      `CREATE TABLE webhooks.deliveries (
        delivery_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        app_id bigint NOT NULL,
        user_id bigint NOT NULL,
        event_name text NOT NULL,
        event jsonb NOT NULL,
        body text,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed', 'cancelled')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_status integer,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX deliveries_due ON webhooks.deliveries (next_attempt_at) WHERE state = 'pending'`,
      ...messagingTablesUp('webhooks'),
    ];
    for (const sql of statements) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [...messagingTablesDown('webhooks'), 'DROP TABLE webhooks.deliveries', 'DROP TABLE webhooks.authorizations', 'DROP TABLE webhooks.apps']) await queryRunner.query(sql);
  }
}
