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
