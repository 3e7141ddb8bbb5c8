import { PlansEvents, type WorkspacePlanLimits, workspacePlanLimitsSchema, type WorkspacePlanType } from '@doable/contracts-plans';
import type { EntityManager } from 'typeorm';
import { CatalogueAssignments } from './catalogue-assignments';

/**
 * Which workspace is on which workspace plan (`npm run cli -- set-workspace-plan` assigns one).
 * This service does not know which workspaces exist (sync owns them): it keeps what the operator
 * assigned. Every change is announced (PlansEvents.workspacePlanChanged, through the outbox, in
 * the transaction that made it) with a fresh revision and the whole plan value; sync keeps its
 * copy on the workspace and ignores an announcement for a workspace it does not have.
 */
export class WorkspacePlanAssignments extends CatalogueAssignments<WorkspacePlanLimits> {
  constructor() {
    super('workspace', workspacePlanLimitsSchema, (tx, workspaceId, revision, plan) => tx.emit(PlansEvents.workspacePlanChanged, { workspaceId, revision, plan }));
  }

  /** The workspace's plan name and value; the default's for a workspace never assigned one. */
  async planOf(manager: EntityManager, workspaceId: string): Promise<{ plan_name: string; plan: WorkspacePlanLimits }> {
    const { plan_name, value } = await this.currentOf(manager, workspaceId);
    return { plan_name, plan: value };
  }
}

/** The workspace catalogue the running system published, in upgrade order. */
export async function workspacePlanNames(manager: EntityManager): Promise<Array<{ plan_name: string; plan_type: WorkspacePlanType; is_default: boolean }>> {
  return manager.query('SELECT plan_name, plan_type, is_default FROM plans.workspace_catalogue ORDER BY position');
}
