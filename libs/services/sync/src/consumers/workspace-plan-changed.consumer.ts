import { PlansEvents } from '@doable/contracts-plans';
import { SyncEvents, workspaceRolesThat } from '@doable/contracts-sync';
import { EventConsumers } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { PlanLimitsRepository, tellUsersChanged, WorkspaceMembersRepository } from '@doable/sync-domain';

/**
 * A workspace's plan changed (the operator's set-workspace-plan, or a catalogue change): the
 * workspace keeps it (commands counting against the workspace check the new limits at once) and
 * is stamped, and its members' high-water marks move, so their next incremental sync carries
 * the workspace's new `plan` and `limits`. A change of plan type (STARTER <-> BUSINESS) is told
 * as SyncEvents.workspacePlanTypeChanged to its admins and members (the notifications service
 * makes teams_workspace_upgraded/canceled of it; guests are not told, sync-interface §6).
 *
 * Guesses, written down in docs/api/workspaces.md: an announcement for a workspace sync does not have
 * (a mistyped id: the plans service cannot know which exist) or has deleted is ignored; a new
 * default workspace plan re-types and restamps the workspaces on the default but sends no
 * notification (it is the operator's reconfiguration, not one workspace's upgrade).
 */
@Injectable()
export class WorkspacePlanChangedConsumer {
  constructor(consumers: EventConsumers, plans: PlanLimitsRepository, members: WorkspaceMembersRepository) {
    consumers.on('keep-workspace-plan', PlansEvents.workspacePlanChanged, async ({ workspaceId, revision, plan }, tx) => {
      const stored = await plans.storeWorkspace(tx.manager, workspaceId, revision, plan);
      if (!stored) return;
      await tellUsersChanged(tx, await plans.raiseMembersHighWater(tx.manager, [workspaceId], stored.version), stored.version);
      if (stored.previous_plan_type === plan.plan_type) return;
      await tx.emit(SyncEvents.workspacePlanTypeChanged, {
        workspaceId,
        workspaceName: stored.name,
        planType: plan.plan_type,
        previousPlanType: stored.previous_plan_type,
        revision,
        // Told to those who work in the workspace (ADMINs, MEMBERs), not to its guests.
        memberIds: await members.memberIds(tx.manager, workspaceId, workspaceRolesThat('contribute')),
      });
    });
    consumers.on('keep-default-workspace-plan', PlansEvents.defaultWorkspacePlanChanged, async ({ revision, plan }, tx) => {
      const stored = await plans.storeDefaultWorkspace(tx.manager, revision, plan);
      if (stored) await tellUsersChanged(tx, await plans.raiseMembersHighWater(tx.manager, stored.workspaceIds, stored.version), stored.version);
    });
  }
}
