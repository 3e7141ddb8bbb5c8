import { env } from '@doable/shared-config';
import { MAX_REPLICA_LAG_MS } from '@doable/shared-transport';
import { z } from 'zod';

/**
 * A read replica (docs/operations/postgres-replica.md): read by the services whose definition
 * says `database.readReplica` (sync), in cluster mode only. Embedded mode has no replica, so it
 * never reads these. Without DATABASE_REPLICA_URL every read goes to the primary, as before.
 */
export const readReplicaEnvSchema = z.object({
  /** A hot standby of DATABASE_URL's server (streaming replication), same database name. */
  DATABASE_REPLICA_URL: env.url(['postgres', 'postgresql']).optional(),
  DATABASE_REPLICA_POOL_SIZE: env.positiveInt(10),
  /**
   * How long a read waits for the standby to replay the last commit that changed its user's data
   * before it goes to the primary instead. Small: a standby on the same network replays in
   * milliseconds, and a read that waits longer costs more than the primary would.
   */
  DATABASE_REPLICA_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(50),
  /**
   * A standby that has not replayed what the primary had written this long ago serves no reads
   * (every read goes to the primary until it catches up). A change that moved no user's marks
   * (none of sync's do that users see) reaches a read at most this late, plus a poll.
   */
  DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(MAX_REPLICA_LAG_MS).default(5_000),
});
