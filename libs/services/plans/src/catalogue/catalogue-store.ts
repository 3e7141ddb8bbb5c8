import { createHash } from 'node:crypto';
import { type PlanCatalogue, PlansEvents, type UserPlanLimits } from '@doable/contracts-plans';
import type { Tx } from '@doable/shared-runtime';
import type { EntityManager } from 'typeorm';
import { PlanAssignments } from '../assignments/plan-assignments';

/** A plan's `user_plan_limits` value: the plan and the upgrade it offers. */
export function limitsOf(catalogue: PlanCatalogue, planName: string): UserPlanLimits {
  const current = catalogue.plans.find((plan) => plan.plan_name === planName);
  if (!current) throw new Error(`plan ${planName} is not in the catalogue`);
  const next = catalogue.next[planName];
  return { current, next: next ? (catalogue.plans.find((plan) => plan.plan_name === next) ?? null) : null };
}

/**
 * Over the keys in a fixed order: a plan read from a file (keys in the schema's order) and the
 * same plan built in (keys as written) are one value, and publishing one after the other must
 * announce nothing.
 */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** A lock of the catalogue for one transaction: two replicas starting at once publish one after the other. */
const CATALOGUE_LOCK = `SELECT pg_advisory_xact_lock(hashtextextended('plans.catalogue', 0))`;

/**
 * Writes the catalogue the service started with into plans.catalogue, where the CLI and every
 * replica read it. A plan whose value changed (its keys, or the upgrade it offers) is announced
 * to each of its users, so the services enforcing limits see it without a restart; users of a
 * plan the catalogue no longer has move to the default plan.
 */
export async function publishCatalogue(tx: Tx, catalogue: PlanCatalogue): Promise<{ changedPlans: string[]; announcedUsers: number }> {
  const manager = tx.manager;
  await manager.query(CATALOGUE_LOCK);
  const storedRows = await manager.query<Array<{ plan_name: string; digest: string; is_default: boolean }>>('SELECT plan_name, digest, is_default FROM plans.catalogue');
  const stored = new Map(storedRows.map((row) => [row.plan_name, row.digest]));
  const storedDefault = storedRows.find((row) => row.is_default);
  const changedPlans: string[] = [];
  for (const [position, plan] of catalogue.plans.entries()) {
    const limits = limitsOf(catalogue, plan.plan_name);
    const digest = digestOf(limits);
    if (stored.get(plan.plan_name) !== digest) changedPlans.push(plan.plan_name);
    await manager.query(
      `INSERT INTO plans.catalogue (plan_name, position, is_default, limits, digest) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (plan_name) DO UPDATE SET position = $2, is_default = $3, limits = $4, digest = $5`,
      [plan.plan_name, position, plan.plan_name === catalogue.defaultPlan, JSON.stringify(limits), digest],
    );
  }
  const defaultLimits = limitsOf(catalogue, catalogue.defaultPlan);
  if (storedDefault?.plan_name !== catalogue.defaultPlan || storedDefault.digest !== digestOf(defaultLimits)) {
    const [{ revision }] = await manager.query<Array<{ revision: string }>>(`SELECT nextval('plans.plan_revision')::text AS revision`);
    await tx.emit(PlansEvents.defaultPlanChanged, { revision, limits: defaultLimits });
  }
  const names = catalogue.plans.map((plan) => plan.plan_name);
  await manager.query('DELETE FROM plans.catalogue WHERE NOT (plan_name = ANY($1::text[]))', [names]);
  // A retired plan's users go to the default plan; they are announced with its users below.
  // In a CTE: TypeORM answers a bare UPDATE with [rows, count], not the rows.
  const moved = await manager.query<Array<{ user_id: string }>>(
    `WITH moved AS (UPDATE plans.user_plans SET plan_id = $1, assigned_at = now() WHERE NOT (plan_id = ANY($2::text[])) RETURNING user_id)
     SELECT user_id::text FROM moved ORDER BY user_id`,
    [catalogue.defaultPlan, names],
  );
  const assignments = new PlanAssignments();
  let announcedUsers = 0;
  const announce = async (userIds: string[], planName: string): Promise<void> => {
    for (const userId of userIds) await assignments.announce(tx, userId, limitsOf(catalogue, planName));
    announcedUsers += userIds.length;
  };
  for (const planName of changedPlans) await announce(await usersOn(manager, planName), planName);
  if (!changedPlans.includes(catalogue.defaultPlan)) await announce(moved.map((row) => row.user_id), catalogue.defaultPlan);
  return { changedPlans, announcedUsers };
}

async function usersOn(manager: EntityManager, planName: string): Promise<string[]> {
  const rows = await manager.query<Array<{ user_id: string }>>('SELECT user_id::text FROM plans.user_plans WHERE plan_id = $1 ORDER BY user_id', [planName]);
  return rows.map((row) => row.user_id);
}
