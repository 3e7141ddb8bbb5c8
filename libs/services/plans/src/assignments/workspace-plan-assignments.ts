import { PlansEvents, type WorkspacePlanLimits, workspacePlanLimitsSchema, type WorkspacePlanType } from '@doable/contracts-plans';
import { DomainError } from '@doable/shared-errors';
import type { Tx } from '@doable/shared-runtime';
import type { EntityManager } from 'typeorm';

/**
 * Which workspace is on which workspace plan. This service does not know which workspaces exist
 * (sync owns them): it keeps what the operator assigned. Every change is announced
 * (PlansEvents.workspacePlanChanged, through the outbox, in the transaction that made it) with a
 * fresh revision and the whole plan value; sync keeps its copy on the workspace and ignores an
 * announcement for a workspace it does not have.
 */
export class WorkspacePlanAssignments {
  /**
   * Puts a workspace on a plan of the workspace catalogue (`npm run cli -- set-workspace-plan`);
   * INVALID_ARGUMENT_VALUE for a plan it does not have.
   */
  async assign(tx: Tx, workspaceId: string, planName: string): Promise<WorkspacePlanLimits> {
    const [row] = await tx.manager.query<Array<{ plan: unknown }>>('SELECT plan FROM plans.workspace_catalogue WHERE plan_name = $1', [planName]);
    if (!row) {
      const known = (await workspacePlanNames(tx.manager)).map((plan) => plan.plan_name);
      throw new DomainError('INVALID_ARGUMENT_VALUE', `No workspace plan named "${planName}" (the catalogue has: ${known.join(', ')})`, { argument: 'plan', expected: known });
    }
    await tx.manager.query(
      `INSERT INTO plans.workspace_plans (workspace_id, plan_id) VALUES ($1, $2)
       ON CONFLICT (workspace_id) DO UPDATE SET plan_id = $2, assigned_at = now()`,
      [workspaceId, planName],
    );
    const plan = workspacePlanLimitsSchema.parse(row.plan);
    await this.announce(tx, workspaceId, plan);
    return plan;
  }

  /** The workspace's plan name and value; the default's for a workspace never assigned one. */
  async planOf(manager: EntityManager, workspaceId: string): Promise<{ plan_name: string; plan: WorkspacePlanLimits }> {
    const [row] = await manager.query<Array<{ plan_name: string; plan: unknown }>>(
      `SELECT c.plan_name, c.plan FROM plans.workspace_catalogue c
        WHERE c.plan_name = coalesce((SELECT plan_id FROM plans.workspace_plans WHERE workspace_id = $1), (SELECT plan_name FROM plans.workspace_catalogue WHERE is_default))`,
      [workspaceId],
    );
    if (!row) throw new Error('the workspace plan catalogue has not been published yet');
    return { plan_name: row.plan_name, plan: workspacePlanLimitsSchema.parse(row.plan) };
  }

  /** Stamps the workspace's assignment with a new revision and emits the change. */
  async announce(tx: Tx, workspaceId: string, plan: WorkspacePlanLimits): Promise<string> {
    // A CTE, not a bare UPDATE ... RETURNING: TypeORM answers an UPDATE with [rows, count].
    const [{ revision }] = await tx.manager.query<Array<{ revision: string }>>(
      `WITH stamped AS (UPDATE plans.workspace_plans SET revision = nextval('plans.plan_revision') WHERE workspace_id = $1 RETURNING revision)
       SELECT revision::text FROM stamped`,
      [workspaceId],
    );
    await tx.emit(PlansEvents.workspacePlanChanged, { workspaceId, revision, plan });
    return revision;
  }
}

/** The workspace catalogue the running system published, in upgrade order. */
export async function workspacePlanNames(manager: EntityManager): Promise<Array<{ plan_name: string; plan_type: WorkspacePlanType; is_default: boolean }>> {
  return manager.query('SELECT plan_name, plan_type, is_default FROM plans.workspace_catalogue ORDER BY position');
}
