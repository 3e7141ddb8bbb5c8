import { PlansEvents, type WorkspacePlanCatalogue, type WorkspacePlanLimits } from '@doable/contracts-plans';
import type { Tx } from '@doable/shared-runtime';
import type { EntityManager } from 'typeorm';
import { WorkspacePlanAssignments } from '../assignments/workspace-plan-assignments';
import { digestOf } from './catalogue-store';

/** A workspace plan's announced value: its type, the plan and the upgrade it offers. */
export function workspacePlanOf(catalogue: WorkspacePlanCatalogue, planName: string): WorkspacePlanLimits {
  const find = (name: string) => catalogue.plans.find((plan) => plan.info.plan_name === name);
  const current = find(planName);
  if (!current) throw new Error(`workspace plan ${planName} is not in the catalogue`);
  const next = catalogue.next[planName];
  return { plan_type: current.plan_type, limits: { current: current.info, next: next ? (find(next)?.info ?? null) : null } };
}

/** Its own lock: two replicas starting at once publish one after the other (as the user catalogue). */
const WORKSPACE_CATALOGUE_LOCK = `SELECT pg_advisory_xact_lock(hashtextextended('plans.workspace_catalogue', 0))`;

/**
 * Writes the workspace catalogue the service started with into plans.workspace_catalogue (where
 * the CLI and every replica read it), as publishCatalogue does for the user plans: a plan whose
 * value changed (keys, type, or upgrade) is announced to each workspace assigned to it, and the
 * workspaces of a plan the catalogue no longer has move to the default and are announced.
 * Workspaces never assigned a plan follow the default: its change is one announcement
 * (defaultWorkspacePlanChanged), which sync applies to all of them.
 */
export async function publishWorkspaceCatalogue(tx: Tx, catalogue: WorkspacePlanCatalogue): Promise<{ changedPlans: string[]; announcedWorkspaces: number }> {
  const manager = tx.manager;
  await manager.query(WORKSPACE_CATALOGUE_LOCK);
  const storedRows = await manager.query<Array<{ plan_name: string; digest: string; is_default: boolean }>>('SELECT plan_name, digest, is_default FROM plans.workspace_catalogue');
  const stored = new Map(storedRows.map((row) => [row.plan_name, row.digest]));
  const storedDefault = storedRows.find((row) => row.is_default);
  const changedPlans: string[] = [];
  for (const [position, { info }] of catalogue.plans.entries()) {
    const plan = workspacePlanOf(catalogue, info.plan_name);
    const digest = digestOf(plan);
    if (stored.get(info.plan_name) !== digest) changedPlans.push(info.plan_name);
    await manager.query(
      `INSERT INTO plans.workspace_catalogue (plan_name, position, is_default, plan_type, plan, digest) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (plan_name) DO UPDATE SET position = $2, is_default = $3, plan_type = $4, plan = $5, digest = $6`,
      [info.plan_name, position, info.plan_name === catalogue.defaultPlan, plan.plan_type, JSON.stringify(plan), digest],
    );
  }
  const defaultPlan = workspacePlanOf(catalogue, catalogue.defaultPlan);
  if (storedDefault?.plan_name !== catalogue.defaultPlan || storedDefault.digest !== digestOf(defaultPlan)) {
    const [{ revision }] = await manager.query<Array<{ revision: string }>>(`SELECT nextval('plans.plan_revision')::text AS revision`);
    await tx.emit(PlansEvents.defaultWorkspacePlanChanged, { revision, plan: defaultPlan });
  }
  const names = catalogue.plans.map((plan) => plan.info.plan_name);
  await manager.query('DELETE FROM plans.workspace_catalogue WHERE NOT (plan_name = ANY($1::text[]))', [names]);
  // A retired plan's workspaces go to the default plan. In a CTE: TypeORM answers a bare UPDATE with [rows, count].
  const moved = await manager.query<Array<{ workspace_id: string }>>(
    `WITH moved AS (UPDATE plans.workspace_plans SET plan_id = $1, assigned_at = now() WHERE NOT (plan_id = ANY($2::text[])) RETURNING workspace_id)
     SELECT workspace_id::text FROM moved ORDER BY workspace_id`,
    [catalogue.defaultPlan, names],
  );
  const assignments = new WorkspacePlanAssignments();
  let announcedWorkspaces = 0;
  const announce = async (workspaceIds: string[], planName: string): Promise<void> => {
    for (const workspaceId of workspaceIds) await assignments.announce(tx, workspaceId, workspacePlanOf(catalogue, planName));
    announcedWorkspaces += workspaceIds.length;
  };
  for (const planName of changedPlans) await announce(await workspacesOn(manager, planName), planName);
  if (!changedPlans.includes(catalogue.defaultPlan)) await announce(moved.map((row) => row.workspace_id), catalogue.defaultPlan);
  return { changedPlans, announcedWorkspaces };
}

async function workspacesOn(manager: EntityManager, planName: string): Promise<string[]> {
  const rows = await manager.query<Array<{ workspace_id: string }>>('SELECT workspace_id::text FROM plans.workspace_plans WHERE plan_id = $1 ORDER BY workspace_id', [planName]);
  return rows.map((row) => row.workspace_id);
}
