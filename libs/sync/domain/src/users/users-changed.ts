import { SyncEvents } from '@doable/contracts-sync';
import type { Tx } from '@doable/shared-runtime';

/** Ids per event: a catalogue change touching every workspace stays well under NATS's 1 MB message limit. */
const USERS_PER_EVENT = 1_000;

/**
 * Records, in the caller's transaction, that these users have news for their next sync: the
 * gateway's push channel tells their open sockets `sync_needed`. One statement however many.
 */
export async function tellUsersChanged(tx: Tx, userIds: readonly string[], version?: string): Promise<void> {
  const payloads: SyncEvents.UsersChanged[] = [];
  for (let start = 0; start < userIds.length; start += USERS_PER_EVENT) {
    payloads.push({ userIds: userIds.slice(start, start + USERS_PER_EVENT), ...(version === undefined ? {} : { version }) });
  }
  await tx.emitAll(SyncEvents.usersChanged, payloads);
}
