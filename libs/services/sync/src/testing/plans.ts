import { BUILTIN_CATALOGUE, type PlanInfo } from '@doable/contracts-plans';
import type { EntityManager } from 'typeorm';

/** Far more of everything than a test makes: a user given this plan never meets a limit unless a test lowers one. */
const ROOMY = 1_000_000;

const business = BUILTIN_CATALOGUE.plans.find((plan) => plan.plan_name === 'business')!;
const roomy: PlanInfo = { ...business, ...Object.fromEntries(Object.keys(business).filter((key) => key.startsWith('max_')).map((key) => [key, ROOMY])) };

/**
 * Puts a test user on a plan, as the plans service's announcement would (sync.user_plans): every
 * feature and room for everything, with `overrides` (a low max_*, a feature switched off) on top.
 * Users without a row are on the built-in free plan, which integration tests outgrow.
 */
export async function givePlan(manager: EntityManager, userId: string, overrides: Partial<PlanInfo> = {}): Promise<void> {
  await manager.query(
    `INSERT INTO sync.user_plans (user_id, limits, revision, version) VALUES ($1, $2, 1, 0)
     ON CONFLICT (user_id) DO UPDATE SET limits = excluded.limits, revision = excluded.revision, version = excluded.version`,
    [userId, JSON.stringify({ current: { ...roomy, ...overrides }, next: null })],
  );
}
