import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The mail queue: each mail the service means to send, written by the consumer of the event that
 * caused it, in that consumer's transaction, and sent later by the mail worker outside any
 * transaction. `mail_key` is derived from the event (an invitation and its secret, a reminder
 * and the instant it fired for, an event id), so a redelivered event never queues a second mail.
 * `body` (the rendered message, which may hold a secret link) is cleared once the mail is sent or
 * given up; the row stays, as the record that the key was mailed.
 */
export class MailQueue1764090000400 implements MigrationInterface {
  name = 'MailQueue1764090000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of [
      `CREATE TABLE notifications.mail_queue (
        id bigserial PRIMARY KEY,
        mail_key text NOT NULL UNIQUE,
        kind text NOT NULL,
        recipient text NOT NULL,
        body jsonb,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`,
      `CREATE INDEX mail_queue_due ON notifications.mail_queue (next_attempt_at) WHERE state = 'pending'`,
    ]) {
      await queryRunner.query(sql);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE notifications.mail_queue`);
  }
}
