import { effect } from '@preact/signals';
import { IdbSyncCache } from '../api/idb-sync-cache';
import { fromSnapshot, toSnapshot } from '../api/sync-snapshot';
import type { SyncData } from '../api/sync-types';
import { serverData } from './store';

/** Writes wait for syncs to settle: a burst of pushes then costs one write, not one per answer. */
const SAVE_AFTER_MS = 1_000;

const cache = new IdbSyncCache();
let stopKeeping: (() => void) | undefined;

/** The state kept from an earlier visit by this person, or null (none, unreadable, or IndexedDB unavailable). */
export async function restoreSnapshot(userId: string): Promise<SyncData | null> {
  try {
    return fromSnapshot(await cache.load(userId), userId);
  } catch {
    // Private windows and full disks refuse IndexedDB: the app then simply starts with a full sync.
    return null;
  }
}

/** From now on, every synced state of this person is saved (after a pause) for the next load. */
export function keepSnapshots(userId: string): void {
  stopKeeping?.();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopEffect = effect(() => {
    const data = serverData.value;
    if (data.syncToken === '*' || data.user?.id !== userId) return;
    clearTimeout(timer);
    timer = setTimeout(() => void cache.save(toSnapshot(data, userId)).catch(() => undefined), SAVE_AFTER_MS);
  });
  stopKeeping = () => {
    clearTimeout(timer);
    stopEffect();
  };
}

/** Sign-out: nothing of this person's tasks stays in the browser. */
export async function forgetSnapshot(userId: string | null): Promise<void> {
  stopKeeping?.();
  stopKeeping = undefined;
  if (userId) await cache.clear(userId).catch(() => undefined);
}
