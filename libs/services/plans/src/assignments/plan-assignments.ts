import { PlansEvents, type UserPlanLimits, userPlanLimitsSchema } from '@doable/contracts-plans';
import type { Tx } from '@doable/shared-runtime';
import type { EntityManager } from 'typeorm';
import { CatalogueAssignments } from './catalogue-assignments';

/**
 * Who is on which plan (`npm run cli -- set-plan` assigns one). Every change is announced
 * (PlansEvents.userPlanChanged, through the outbox, in the transaction that made it) with a fresh
 * revision, the whole limits value included: the services that enforce limits keep their own
 * copy from these events.
 */
export class PlanAssignments extends CatalogueAssignments<UserPlanLimits> {
  constructor() {
    super('user', userPlanLimitsSchema, (tx, userId, revision, limits) => tx.emit(PlansEvents.userPlanChanged, { userId, revision, limits }));
  }

  /** A new account, on the catalogue's default plan; nothing if it already has one (a redelivered sign-up). */
  async assignDefault(tx: Tx, userId: string): Promise<void> {
    const [plan] = await tx.manager.query<Array<{ plan_name: string; limits: unknown }>>('SELECT plan_name, limits FROM plans.catalogue WHERE is_default');
    if (!plan) throw new Error('the plan catalogue has not been published yet');
    const inserted = await tx.manager.query<unknown[]>(
      'INSERT INTO plans.user_plans (user_id, plan_id) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING RETURNING user_id',
      [userId, plan.plan_name],
    );
    if (inserted.length > 0) await this.announce(tx, userId, userPlanLimitsSchema.parse(plan.limits));
  }

  /** The user's limits; the default plan's for a user whose sign-up has not reached this service yet. */
  async limitsOf(manager: EntityManager, userId: string): Promise<UserPlanLimits> {
    return (await this.currentOf(manager, userId)).value;
  }
}

/** The user plan catalogue the running system published, in upgrade order. */
export function planNames(manager: EntityManager): Promise<string[]> {
  return new PlanAssignments().planNames(manager);
}
