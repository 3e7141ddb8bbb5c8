import type { EntityManager } from 'typeorm';
import { PlanGate } from '../plans/plan-gate';
import type { PlanLimitsRepository } from '../plans/plan-limits.repository';

/**
 * The completed-task history (v9 `completed/get_all`, api/v1 `tasks/completed*` and
 * `completed/search`, the first generation's getCompletedItems) is the plan's `completed_tasks`
 * feature: without it these reads are refused with FEATURE_NOT_IN_PLAN, as a command would be.
 * Read from this service's copy of the plan (one query), never asked of the plans service.
 * What only counts completions (productivity stats, `completed_info`) is not the history and
 * stays open to every plan.
 */
export function requireCompletedTasks(manager: EntityManager, plans: PlanLimitsRepository, userId: string): Promise<void> {
  return new PlanGate(manager, plans, userId).requireFeature('completed_tasks');
}
