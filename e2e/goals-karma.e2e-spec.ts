import { waitFor } from '@doable/shared-testing';
import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * Karma and goals through the whole path: a completion in sync raises karma (the user object)
 * and emits goalReached from its outbox; the notifications service makes the live
 * notification and tells sync (notifications delivered), which opens the gate of the user's
 * next incremental sync: that sync carries daily_goal_reached, and the one after it nothing.
 */
describe.each(MODES)('goals and karma (%s)', (mode) => {
  const { system, accounts: [account] } = useSystem(mode, { accounts: 1 });
  const { sync, run } = syncSession(() => system, () => account, 'goals');

  it('tells the user of a reached daily goal in their next incremental sync, once, and shows the karma earned', async () => {
    expect((await run({ type: 'update_goals', args: { daily_goal: 2, weekly_goal: 0, ignore_days: [], vacation_mode: 0, karma_disabled: 0 } })).statuses).toEqual(['ok']);
    const added = await run({ type: 'item_add', temp_id: 'one', args: { content: 'one' } }, { type: 'item_add', temp_id: 'two', args: { content: 'two' } });
    const full = await sync({ sync_token: '*', resource_types: ['live_notifications', 'user'] });
    expect(full.live_notifications).toEqual([]);
    expect(full.user).toMatchObject({ karma: 0, karma_trend: 'none' });

    await run({ type: 'item_close', args: { id: added.mapping['one'] } }, { type: 'item_close', args: { id: added.mapping['two'] } });

    // The notification arrives through two events (goal reached, then notifications delivered):
    // incremental syncs until one carries it; the first of them already shows the karma.
    let token: string = full.sync_token;
    let user: Record<string, unknown> | undefined;
    const notified = await waitFor(async () => {
      const body = await sync({ sync_token: token, resource_types: ['live_notifications', 'user'] });
      token = body.sync_token;
      user ??= body.user;
      return body.live_notifications.length > 0 ? body : undefined;
    }, 'the daily goal notification');
    expect(user).toMatchObject({ karma: 2, karma_trend: 'up' });
    expect(notified.live_notifications).toEqual([
      expect.objectContaining({ notification_type: 'daily_goal_reached', from_uid: account.userId, count: 2, goal: 2, is_unread: true }),
    ]);
    expect((await sync({ sync_token: notified.sync_token, resource_types: ['live_notifications'] })).live_notifications).toEqual([]);
  });
});
