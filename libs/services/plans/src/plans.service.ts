import { AuthEvents } from '@doable/contracts-auth';
import type { UserPlanLimits } from '@doable/contracts-plans';
import { Database, EventConsumers } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { DEFAULT_PLAN, NEXT_PLAN, PLANS } from './plan-catalogue';

@Injectable()
export class PlansService {
  constructor(
    private readonly database: Database,
    consumers: EventConsumers,
  ) {
    // Every new user starts on the default plan.
    consumers.on('assign-default-plan', AuthEvents.userCreated, async (user, tx) => {
      await tx.manager.query(`INSERT INTO plans.user_plans (user_id, plan_id) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING`, [
        user.userId,
        DEFAULT_PLAN,
      ]);
    });
  }

  async limitsFor(userId: string): Promise<UserPlanLimits> {
    const [row] = await this.database.query<Array<{ plan_id: string }>>('SELECT plan_id FROM plans.user_plans WHERE user_id = $1', [userId]);
    // A user whose user-created event is still in flight is on the default plan anyway.
    const planId = row && PLANS[row.plan_id] ? row.plan_id : DEFAULT_PLAN;
    const next = NEXT_PLAN[planId];
    return { current: PLANS[planId], next: next ? PLANS[next] : null };
  }
}
