import { SyncEvents, type GoalReached, type KarmaLevelReached } from '@doable/contracts-sync';
import type { LiveNotificationRepository } from '../store/live-notification.repository';
import type { RegisterProducer } from './notification-producer';

/**
 * The user's own milestones: daily_goal_reached / weekly_goal_reached (count, goal), once per
 * period, and karma_level (karma_level, karma), once per level. The keys are the period and
 * the level, so even a second event for them makes no second notification. `from_uid` is the
 * user: clients read it as a non-null string.
 */
export function goalProducers(register: RegisterProducer, notifications: LiveNotificationRepository): void {
  register('goal-reached', SyncEvents.goalReached, (goal: GoalReached, tx) => {
    const type = `${goal.goal}_goal_reached`;
    return notifications.insert(tx.manager, [
      { userId: goal.userId, key: `${type}:${goal.userId}:${goal.period}`, type, fromUid: goal.userId, data: { count: goal.count, goal: goal.target } },
    ]);
  });

  register('karma-level-reached', SyncEvents.karmaLevelReached, (level: KarmaLevelReached, tx) =>
    notifications.insert(tx.manager, [
      { userId: level.userId, key: `karma_level:${level.userId}:${level.level}`, type: 'karma_level', fromUid: level.userId, data: { karma_level: level.level, karma: level.karma } },
    ]),
  );
}
