import { PlansEvents } from '@doable/contracts-plans';
import { EventConsumers } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { PlanLimitsRepository, tellUsersChanged, UserProfileRepository } from '@doable/sync-domain';

/**
 * A user's plan changed (sign-up, set-plan, a catalogue change): the next command is checked
 * against the new limits, and the user's next incremental sync carries `user_plan_limits` (the
 * high-water mark moves to the version that stored them). The catalogue's default plan is kept
 * too: it is what an account is on until its own assignment arrives.
 */
@Injectable()
export class UserPlanChangedConsumer {
  constructor(consumers: EventConsumers, plans: PlanLimitsRepository, profiles: UserProfileRepository) {
    consumers.on('keep-plan-limits', PlansEvents.userPlanChanged, async ({ userId, revision, limits }, tx) => {
      const version = await plans.store(tx.manager, userId, revision, limits);
      if (version === undefined) return;
      const told = await profiles.raiseHighWater(tx.manager, userId, [], version);
      await tellUsersChanged(tx, told, version);
    });
    consumers.on('keep-default-plan', PlansEvents.defaultPlanChanged, ({ revision, limits }, tx) => plans.storeDefault(tx.manager, revision, limits));
  }
}
