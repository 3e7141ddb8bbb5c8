import type { KV } from '@nats-io/kv';

/**
 * Each user's read mark: the write-ahead log position of the last commit that changed what the
 * user sees (docs/operations/postgres-replica.md). A read for the user may go to a standby only
 * once the standby has replayed that far. Shared by every replica of the service (a user's
 * write and their next read may reach different ones), so it lives outside the process.
 */
export interface ReadMarks {
  /** The user's mark; undefined when none was recorded within the store's memory (READ_MARKS_TTL_MS). */
  get(userId: string): Promise<bigint | undefined>;
  /** Records `lsn` for each user, never lowering a higher mark another commit recorded meanwhile. */
  raise(userIds: readonly string[], lsn: bigint): Promise<void>;
}

/**
 * How long the bucket keeps a mark after its last raise. A mark that lapsed is older than any
 * lag a standby is allowed to have and still serve reads (DATABASE_REPLICA_MAX_LAG_MS is at most
 * MAX_REPLICA_LAG_MS), so a usable standby has replayed it: forgetting it loses nothing.
 */
export const READ_MARKS_TTL_MS = 10 * 60_000;
/** The largest DATABASE_REPLICA_MAX_LAG_MS, well inside READ_MARKS_TTL_MS (polls and clocks leave room). */
export const MAX_REPLICA_LAG_MS = 5 * 60_000;

/** Compare-and-set rounds before a raise gives up: each lost round is another commit's raise of the same user. */
const MAX_CAS_ATTEMPTS = 8;

/** The bucket of a service's read marks: KV bucket names allow letters, digits, `-` and `_`. */
export function readMarksBucket(subjectPrefix: string, service: string): string {
  return `${subjectPrefix.replace(/[^A-Za-z0-9_-]/g, '_')}${service}-read-marks`;
}

/**
 * Read marks in a NATS key-value bucket, one key per user. Open the bucket with `allowDirect:
 * false` (openKvBucket): a get then goes to the stream's leader and sees every raise that was
 * acknowledged before it, also in a NATS cluster, where a follower's copy may be behind.
 *
 * A raise is a compare-and-set (get, then update at that revision): two commits that changed one
 * user (the user's own and a collaborator's) may record their marks in either order, and the
 * later position must win, or a read could be sent to a standby that has only the earlier one.
 */
export class KvReadMarks implements ReadMarks {
  constructor(private readonly store: KV) {}

  async get(userId: string): Promise<bigint | undefined> {
    const entry = await this.store.get(markKey(userId));
    return entry && entry.operation === 'PUT' ? BigInt(entry.string()) : undefined;
  }

  async raise(userIds: readonly string[], lsn: bigint): Promise<void> {
    await Promise.all([...new Set(userIds)].map((userId) => this.raiseOne(userId, lsn)));
  }

  private async raiseOne(userId: string, lsn: bigint): Promise<void> {
    const key = markKey(userId);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const entry = await this.store.get(key);
      const current = entry && entry.operation === 'PUT' ? BigInt(entry.string()) : undefined;
      if (current !== undefined && current >= lsn) return;
      // `create` for a key never written or lapsed (or deleted): it fails if another raise made it
      // first. A refused write is read again: lost to another raise, the next get shows it; a
      // store that went away fails that get, which ends the raise.
      const written = await (entry && entry.operation === 'PUT' ? this.store.update(key, lsn.toString(), entry.revision) : this.store.create(key, lsn.toString())).then(
        () => true,
        () => false,
      );
      if (written) return;
    }
    throw new Error(`the read mark of user ${userId} lost ${MAX_CAS_ATTEMPTS} compare-and-set rounds in a row`);
  }
}

function markKey(userId: string): string {
  return `u.${userId}`;
}

