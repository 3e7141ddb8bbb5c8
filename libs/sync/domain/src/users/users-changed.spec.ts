import { SyncEvents } from '@doable/contracts-sync';
import type { Tx } from '@doable/shared-runtime';
import { tellUsersChanged } from './users-changed';

describe('tellUsersChanged', () => {
  const recorder = () => {
    const calls: Array<{ subject: string; payloads: readonly SyncEvents.UsersChanged[] }> = [];
    const tx = {
      emitAll: (event: { name: string }, payloads: readonly SyncEvents.UsersChanged[]) => {
        calls.push({ subject: event.name, payloads });
        return Promise.resolve(payloads.map(() => 'id'));
      },
    } as unknown as Tx;
    return { tx, calls };
  };

  it('records one event for a change, with its version, and none for nobody', async () => {
    const { tx, calls } = recorder();
    await tellUsersChanged(tx, ['1', '2'], '77');
    await tellUsersChanged(tx, []);
    expect(calls).toEqual([
      { subject: SyncEvents.usersChanged.name, payloads: [{ userIds: ['1', '2'], version: '77' }] },
      { subject: SyncEvents.usersChanged.name, payloads: [] },
    ]);
  });

  it('splits a crowd into events of at most 1,000 users, every payload valid', async () => {
    const { tx, calls } = recorder();
    const ids = Array.from({ length: 2_500 }, (_, n) => String(n + 1));
    await tellUsersChanged(tx, ids);
    const payloads = calls[0].payloads;
    expect(payloads.map((payload) => payload.userIds.length)).toEqual([1_000, 1_000, 500]);
    expect(payloads.flatMap((payload) => payload.userIds)).toEqual(ids);
    for (const payload of payloads) expect(SyncEvents.usersChanged.payload.parse(payload)).toEqual(payload);
  });
});
