import { createHash } from 'node:crypto';

/**
 * The first generation's duplicate protection: each `items_to_sync` command carried a unix
 * `timestamp` of its creation, and the server "keeps track of command types, temporary ids and
 * timestamps" so a command sent twice runs once (v5.3 docs, "Timestamps"). The domain's
 * executor does the same by `uuid`; a command with a timestamp gets a uuid derived from what
 * the old server compared (user, type, temp id, timestamp) and its index in the batch (two
 * commands created in the same millisecond stay two), so a retried batch replays instead of
 * running again. The hash makes it a valid, fixed-length uuid (RFC 9562 layout, version 8:
 * "custom"), and keeps clients' values out of the idempotency log's keys.
 */
export function duplicateProtectionUuid(userId: string, command: { readonly type: string; readonly timestamp: string; readonly temp_id?: string }, index: number): string {
  const digest = createHash('sha256').update(JSON.stringify(['fg', userId, command.type, command.temp_id ?? null, command.timestamp, index])).digest('hex');
  const variant = ((Number.parseInt(digest[16], 16) & 0x3) | 0x8).toString(16);
  return `${digest.slice(0, 8)}-${digest.slice(8, 12)}-8${digest.slice(13, 16)}-${variant}${digest.slice(17, 20)}-${digest.slice(20, 32)}`;
}
