import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { SyncSnapshot } from './sync-snapshot';

interface CacheSchema extends DBSchema {
  snapshots: { key: string; value: SyncSnapshot };
}

/**
 * The last synced state, one snapshot per user, in its own database (the command queue's
 * database keeps its own schema and version). Written whole: one put of the maps is cheaper
 * than tracking which of thousands of rows changed.
 */
export class IdbSyncCache {
  private db: Promise<IDBPDatabase<CacheSchema>> | undefined;

  private open(): Promise<IDBPDatabase<CacheSchema>> {
    this.db ??= openDB<CacheSchema>('doable-web-state', 1, {
      upgrade(db) {
        db.createObjectStore('snapshots', { keyPath: 'userId' });
      },
    });
    return this.db;
  }

  async load(userId: string): Promise<SyncSnapshot | undefined> {
    return (await this.open()).get('snapshots', userId);
  }

  async save(snapshot: SyncSnapshot): Promise<void> {
    await (await this.open()).put('snapshots', snapshot);
  }

  async clear(userId: string): Promise<void> {
    await (await this.open()).delete('snapshots', userId);
  }
}
