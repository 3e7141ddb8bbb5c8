import { EMPTY_DATA } from './sync-merge';
import { KEYED_RESOURCES, type KeyedResource, type NotificationSettings, type SyncData, type SyncUser } from './sync-types';

/**
 * Bumped when the stored shape changes: an older snapshot is then ignored (the next sync is full).
 * 2: notification settings kept, and location reminders asked for (an incremental sync from a
 * version 1 token would never bring the ones that already existed).
 */
export const SNAPSHOT_VERSION = 2;

/** What is kept between visits: every resource's rows by key, the user, and the token that makes the next sync incremental. */
export interface SyncSnapshot {
  version: number;
  userId: string;
  savedAt: string;
  syncToken: string;
  user: SyncUser | null;
  notificationSettings?: NotificationSettings | null;
  resources: Partial<Record<KeyedResource, [string, unknown][]>>;
}

export function toSnapshot(data: SyncData, userId: string, now = new Date()): SyncSnapshot {
  const resources: SyncSnapshot['resources'] = {};
  for (const resource of KEYED_RESOURCES) resources[resource] = [...data[resource].entries()];
  return { version: SNAPSHOT_VERSION, userId, savedAt: now.toISOString(), syncToken: data.syncToken, user: data.user, notificationSettings: data.notificationSettings, resources };
}

/**
 * The state a snapshot holds, or null when it cannot be trusted: another version, another
 * person's, or never synced (its token would only ask for a full sync anyway).
 */
export function fromSnapshot(snapshot: SyncSnapshot | undefined, userId: string): SyncData | null {
  if (!snapshot || snapshot.version !== SNAPSHOT_VERSION || snapshot.userId !== userId || !snapshot.syncToken || snapshot.syncToken === '*') return null;
  if (snapshot.user && snapshot.user.id !== userId) return null;
  const data = { ...EMPTY_DATA, user: snapshot.user, notificationSettings: snapshot.notificationSettings ?? null, syncToken: snapshot.syncToken };
  const maps = data as unknown as Record<KeyedResource, ReadonlyMap<string, unknown>>;
  // A resource added to the app after the snapshot was taken starts empty; the next full sync fills it.
  for (const resource of KEYED_RESOURCES) maps[resource] = new Map(snapshot.resources[resource] ?? []);
  return data;
}
