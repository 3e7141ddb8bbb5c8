import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tables every event-producing or event-consuming service keeps in its own schema:
 * - outbox: events written in the same transaction as the change they describe, relayed
 *   afterwards (so a committed change always produces its event, and a rolled-back one never);
 * - processed_events: which events a consumer already handled (consumers are idempotent).
 */
export function messagingTablesUp(schema: string): string[] {
  return [
    `CREATE TABLE "${schema}".outbox (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      event_id uuid NOT NULL UNIQUE,
      subject text NOT NULL,
      payload jsonb NOT NULL,
      correlation_id text,
      occurred_at timestamptz NOT NULL DEFAULT now(),
      claimed_until timestamptz,
      published_at timestamptz
    )`,
    `CREATE INDEX outbox_unpublished ON "${schema}".outbox (id) WHERE published_at IS NULL`,
    `CREATE TABLE "${schema}".processed_events (
      consumer text NOT NULL,
      event_id uuid NOT NULL,
      processed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (consumer, event_id)
    )`,
  ];
}

export function messagingTablesDown(schema: string): string[] {
  return [`DROP TABLE "${schema}".processed_events`, `DROP TABLE "${schema}".outbox`];
}

/**
 * The outbox keeps the W3C `traceparent` of the work that wrote each event (issue #34), so the
 * relay's publish span and every consumer's span join the trace of the command that caused them,
 * however much later they run. Added to every service's tables by a migration of its own.
 */
export function outboxTraceContextUp(schema: string): string[] {
  return [`ALTER TABLE "${schema}".outbox ADD COLUMN trace_parent text`];
}

export function outboxTraceContextDown(schema: string): string[] {
  return [`ALTER TABLE "${schema}".outbox DROP COLUMN trace_parent`];
}

/** The migration that adds outboxTraceContextUp to one service's schema. */
export function outboxTraceContextMigration(schema: string, timestamp: number): new () => MigrationInterface {
  const name = `OutboxTraceContext${timestamp}`;
  const migration = class implements MigrationInterface {
    name = name;
    async up(queryRunner: QueryRunner): Promise<void> {
      for (const sql of outboxTraceContextUp(schema)) await queryRunner.query(sql);
    }
    async down(queryRunner: QueryRunner): Promise<void> {
      for (const sql of outboxTraceContextDown(schema)) await queryRunner.query(sql);
    }
  };
  Object.defineProperty(migration, 'name', { value: name });
  return migration;
}
