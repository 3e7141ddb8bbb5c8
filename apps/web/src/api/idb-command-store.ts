import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { CommandStore } from './command-queue';
import type { Command } from './sync-types';

interface QueueSchema extends DBSchema {
  commands: { key: number; value: { seq?: number; user: string; command: Command }; indexes: { uuid: string; user: string } };
}

/**
 * The command queue in IndexedDB, one per signed-in user (a shared browser must not send one
 * person's edits with another's token). Ordered by an auto-increment key: commands go in the
 * order they were made.
 */
export class IdbCommandStore implements CommandStore {
  private readonly db: Promise<IDBPDatabase<QueueSchema>>;

  constructor(private readonly userId: string) {
    this.db = openDB<QueueSchema>('doable-web', 1, {
      upgrade(db) {
        const store = db.createObjectStore('commands', { keyPath: 'seq', autoIncrement: true });
        store.createIndex('uuid', 'command.uuid', { unique: true });
        store.createIndex('user', 'user');
      },
    });
  }

  async all(): Promise<Command[]> {
    const rows = await (await this.db).getAllFromIndex('commands', 'user', this.userId);
    return rows.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0)).map((row) => row.command);
  }

  async put(command: Command): Promise<void> {
    const db = await this.db;
    const tx = db.transaction('commands', 'readwrite');
    // A rewritten command (temp ids mapped) keeps its place in the order.
    const existing = await tx.store.index('uuid').getKey(command.uuid);
    if (existing !== undefined) await tx.store.put({ seq: existing, user: this.userId, command });
    else await tx.store.add({ user: this.userId, command });
    await tx.done;
  }

  async remove(uuids: readonly string[]): Promise<void> {
    const db = await this.db;
    const tx = db.transaction('commands', 'readwrite');
    for (const uuid of uuids) {
      const key = await tx.store.index('uuid').getKey(uuid);
      if (key !== undefined) await tx.store.delete(key);
    }
    await tx.done;
  }
}
