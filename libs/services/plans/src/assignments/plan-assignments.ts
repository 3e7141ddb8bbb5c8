import { PlansEvents, type UserPlanLimits, userPlanLimitsSchema } from '@doable/contracts-plans';
import { DomainError } from '@doable/shared-errors';
import type { Tx } from '@doable/shared-runtime';
import type { EntityManager } from 'typeorm';

/**
 * Who is on which plan. Every change is announced (PlansEvents.userPlanChanged, through the
 * outbox, in the transaction that made it) with a fresh revision, the whole limits value
 * included: the services that enforce limits keep their own copy from these events.
 */
export class PlanAssignments {
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

  /** Puts a user on a plan of the catalogue (`npm run cli -- set-plan`); INVALID_ARGUMENT_VALUE for a plan it does not have. */
  async assign(tx: Tx, userId: string, planName: string): Promise<UserPlanLimits> {
    const [plan] = await tx.manager.query<Array<{ limits: unknown }>>('SELECT limits FROM plans.catalogue WHERE plan_name = $1', [planName]);
    if (!plan) {
      const known = await planNames(tx.manager);
      throw new DomainError('INVALID_ARGUMENT_VALUE', `No plan named "${planName}" (the catalogue has: ${known.join(', ')})`, { argument: 'plan', expected: known });
    }
    await tx.manager.query(
      `INSERT INTO plans.user_plans (user_id, plan_id) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET plan_id = $2, assigned_at = now()`,
      [userId, planName],
    );
    const limits = userPlanLimitsSchema.parse(plan.limits);
    await this.announce(tx, userId, limits);
    return limits;
  }

  /** The user's limits; the default plan's for a user whose sign-up has not reached this service yet. */
  async limitsOf(manager: EntityManager, userId: string): Promise<UserPlanLimits> {
    const [row] = await manager.query<Array<{ limits: unknown }>>(
      `SELECT c.limits FROM plans.catalogue c
        WHERE c.plan_name = coalesce((SELECT plan_id FROM plans.user_plans WHERE user_id = $1), (SELECT plan_name FROM plans.catalogue WHERE is_default))`,
      [userId],
    );
    if (!row) throw new Error('the plan catalogue has not been published yet');
    return userPlanLimitsSchema.parse(row.limits);
  }

  /** Stamps the user's assignment with a new revision and emits the change. */
  async announce(tx: Tx, userId: string, limits: UserPlanLimits): Promise<void> {
    // In a CTE: TypeORM answers a bare UPDATE with [rows, count], not the rows.
    const [{ revision }] = await tx.manager.query<Array<{ revision: string }>>(
      `WITH stamped AS (UPDATE plans.user_plans SET revision = nextval('plans.plan_revision') WHERE user_id = $1 RETURNING revision)
       SELECT revision::text FROM stamped`,
      [userId],
    );
    await tx.emit(PlansEvents.userPlanChanged, { userId, revision, limits });
  }
}

export async function planNames(manager: EntityManager): Promise<string[]> {
  const rows = await manager.query<Array<{ plan_name: string }>>('SELECT plan_name FROM plans.catalogue ORDER BY position');
  return rows.map((row) => row.plan_name);
}
