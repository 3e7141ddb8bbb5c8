import { BUILTIN_CATALOGUE, BUILTIN_WORKSPACE_BUSINESS, BUILTIN_WORKSPACE_STARTER, type PlanInfo, type WorkspacePlanType } from '@doable/contracts-plans';
import type { EntityManager } from 'typeorm';

/** What "no cap" is in a test: no test creates this many of anything. */
const HUGE = 1_000_000;

/**
 * Puts a user on a plan in sync's copy (sync.user_plans), as the plans service's event would:
 * the built-in business plan with every max_* count huge, then the overrides. Tests whose users
 * create more than the built-in free plan allows (the fallback for a user with no row) call it;
 * limit tests pass the counts they test. Revision 1 and version 0: a later
 * PlanLimitsRepository.store (revision 2 and up) replaces it, as a plan change would.
 */
export async function givePlan(manager: EntityManager, userId: string, overrides: Partial<PlanInfo> = {}): Promise<void> {
  const business = BUILTIN_CATALOGUE.plans.find((plan) => plan.plan_name === 'business')!;
  const roomy = Object.fromEntries(Object.entries(business).map(([key, value]) => [key, key.startsWith('max_') ? HUGE : value])) as PlanInfo;
  const limits = { current: { ...roomy, ...overrides }, next: null };
  await manager.query(
    `INSERT INTO sync.user_plans (user_id, limits, revision, version) VALUES ($1, $2, 1, 0)
     ON CONFLICT (user_id) DO UPDATE SET limits = excluded.limits, revision = excluded.revision, version = excluded.version`,
    [userId, JSON.stringify(limits)],
  );
}

/**
 * Puts a workspace on a plan in sync's copy, as PlansEvents.workspacePlanChanged would: the
 * built-in workspace plan of the type with the overrides (limit tests pass the counts they test).
 */
export async function giveWorkspacePlan(manager: EntityManager, workspaceId: string, planType: WorkspacePlanType, overrides: Partial<PlanInfo> = {}): Promise<void> {
  const plan = planType === 'BUSINESS' ? BUILTIN_WORKSPACE_BUSINESS : BUILTIN_WORKSPACE_STARTER;
  const limits = { current: { ...plan.info, ...overrides }, next: planType === 'STARTER' ? BUILTIN_WORKSPACE_BUSINESS.info : null };
  await manager.query(`UPDATE sync.workspaces SET plan_type = $2, limits = $3, plan_revision = plan_revision + 1 WHERE id = $1`, [workspaceId, planType, JSON.stringify(limits)]);
}
