import type { Database } from '@doable/shared-runtime';
import type { ServiceClient } from '@doable/shared-transport';
import type { ProductivityStatsService } from '../stats/productivity-stats.service';
import type { UserProfileRepository } from '../users/user-profile.repository';
import type { ResourceSource, SourcedType } from './resource-source';
import { SyncReader } from './sync-reader';
import { encodeSyncToken } from './sync-token';

/**
 * What a dialect declares it needs to render (SyncRequest.renderNeeds) is read in the read's
 * snapshot: the active rows, once, only when a type that needs them has rows. The sources are
 * stand-ins counting their calls (the queries themselves are the sources' and are run by every
 * e2e sync; e2e/sync-v8 reads labels this way against the database).
 */
function source(type: SourcedType, active: unknown[], changed: unknown[]) {
  const calls: string[] = [];
  const fake = {
    type,
    listActive: () => {
      calls.push('active');
      return Promise.resolve(active);
    },
    listChangedSince: () => {
      calls.push('changed');
      return Promise.resolve(changed);
    },
  } as unknown as ResourceSource;
  return { fake, calls };
}

function reader(sources: ResourceSource[]) {
  const manager = {};
  const database = { dataSource: { manager }, readSnapshot: <T>(work: (m: unknown) => Promise<T>) => work(manager) } as unknown as Database;
  const profiles = {
    highWater: () => Promise.resolve('20'),
    find: () => Promise.resolve({ id: '42', version: '1', settings_version: '1', high_water: '20' }),
  } as unknown as UserProfileRepository;
  return new SyncReader(database, profiles, sources, {} as ServiceClient, {} as ProductivityStatsService);
}

const task = { id: '1', labels: ['errand'] };
const errand = { id: '7', name: 'errand' };
const needs = { items: ['labels'] } as const;
const since = encodeSyncToken('42', { version: '10', notificationCursor: 0 });

describe('SyncReader render needs', () => {
  it("reads the needed labels' active rows on a full sync of items alone, as context, not as rows", async () => {
    const items = source('items', [task], []);
    const labels = source('labels', [errand], []);
    const read = await reader([items.fake, labels.fake]).read('42', '*', ['items'], needs);
    expect(read.rows).toEqual({ items: [task] });
    expect(read.context).toEqual({ labels: [errand] });
    expect(labels.calls).toEqual(['active']);
  });

  it('reuses the labels a full sync read anyway', async () => {
    const items = source('items', [task], []);
    const labels = source('labels', [errand], []);
    const read = await reader([items.fake, labels.fake]).read('42', '*', ['items', 'labels'], needs);
    expect(read.context).toEqual({ labels: [errand] });
    expect(labels.calls).toEqual(['active']);
  });

  it('reads all active labels when tasks changed on an incremental sync, whatever labels changed', async () => {
    const items = source('items', [], [task]);
    const labels = source('labels', [errand], []);
    const read = await reader([items.fake, labels.fake]).read('42', since, ['items', 'labels'], needs);
    expect(read.rows).toEqual({ items: [task], labels: [] });
    expect(read.context).toEqual({ labels: [errand] });
    expect(labels.calls).toEqual(['changed', 'active']);
  });

  it('reads nothing more when no task is written', async () => {
    const items = source('items', [], []);
    const labels = source('labels', [errand], []);
    const read = await reader([items.fake, labels.fake]).read('42', since, ['items'], needs);
    expect(read.context).toBeUndefined();
    expect(labels.calls).toEqual([]);
  });

  it('reads nothing more for a dialect that needs nothing', async () => {
    const items = source('items', [task], []);
    const labels = source('labels', [errand], []);
    const read = await reader([items.fake, labels.fake]).read('42', '*', ['items']);
    expect(read.context).toBeUndefined();
    expect(labels.calls).toEqual([]);
  });
});
