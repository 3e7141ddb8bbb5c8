import type { BlobInfo, BlobStore } from './blob-store';
import { collectOrphans } from './orphan-collector';

/** An in-memory store: the collector's logic, without a driver's I/O (the drivers have their own suite). */
function memoryStore(objects: BlobInfo[]): BlobStore & { keys(): string[] } {
  const stored = new Map(objects.map((info) => [info.key, info]));
  return {
    driver: 'local',
    put: () => Promise.reject(new Error('not used')),
    get: () => Promise.resolve(null),
    stat: (key) => Promise.resolve(stored.get(key) ?? null),
    delete: (key) => Promise.resolve(void stored.delete(key)),
    async *list(prefix) {
      for (const info of [...stored.values()]) {
        await Promise.resolve();
        if (info.key.startsWith(prefix)) yield info;
      }
    },
    keys: () => [...stored.keys()].sort(),
  };
}

const now = new Date('2026-11-25T12:00:00Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);

describe('collectOrphans', () => {
  it('deletes old unreferenced objects under the prefix, and spares referenced, young and other-prefix ones', async () => {
    const store = memoryStore([
      { key: 'files/a', size: 10, modifiedAt: hoursAgo(48) },
      { key: 'files/b', size: 20, modifiedAt: hoursAgo(48) },
      { key: 'files/c', size: 30, modifiedAt: hoursAgo(48) },
      { key: 'files/young', size: 40, modifiedAt: hoursAgo(0.5) },
      { key: 'backups/old', size: 50, modifiedAt: hoursAgo(48) },
    ]);
    const asked: string[][] = [];
    const result = await collectOrphans(
      store,
      'files/',
      (keys) => {
        asked.push([...keys]);
        return Promise.resolve(new Set(keys.filter((key) => key === 'files/b')));
      },
      { olderThanMs: 24 * 3_600_000, batchSize: 2, now: () => now },
    );
    expect(result).toEqual({ examined: 4, deleted: 2, bytesFreed: 40 });
    expect(store.keys()).toEqual(['backups/old', 'files/b', 'files/young']);
    // One question per batch of keys, and never about a young object.
    expect(asked).toEqual([['files/a', 'files/b'], ['files/c']]);
  });

  it('deletes nothing when the owner cannot answer', async () => {
    const store = memoryStore([{ key: 'files/a', size: 1, modifiedAt: hoursAgo(48) }]);
    await expect(collectOrphans(store, 'files/', () => Promise.reject(new Error('database down')), { olderThanMs: 1, now: () => now })).rejects.toThrow('database down');
    expect(store.keys()).toEqual(['files/a']);
  });
});
