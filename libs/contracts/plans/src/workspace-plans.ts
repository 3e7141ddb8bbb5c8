import { z } from 'zod';
import { BUILTIN_FREE, BUILTIN_BUSINESS } from './builtin-plans';
import { type PlanInfo, userPlanLimitsSchema, type UserPlanLimits } from './plan-info';

/**
 * Workspace plans: what a workspace may hold, as the workspace object's `plan` (STARTER or
 * BUSINESS, sdk 17 SyncWorkspaceSchema) and `limits` (`{current, next}` plan info objects, the
 * shape of user_plan_limits) show it. A workspace project counts against its workspace's plan
 * (max_projects, max_collaborators, max_tasks, max_sections), and so do the workspace's folders
 * (max_folders_per_workspace), guests (max_guests_per_workspace) and filters
 * (max_workspace_filters). Only max_free_workspaces_created is the creating user's (how many
 * STARTER workspaces they may create).
 */
export const WORKSPACE_PLAN_TYPES = ['STARTER', 'BUSINESS'] as const;
export type WorkspacePlanType = (typeof WORKSPACE_PLAN_TYPES)[number];

export interface WorkspacePlan {
  readonly plan_type: WorkspacePlanType;
  readonly info: PlanInfo;
}

/** A catalogue's workspace plans, in upgrade order, with the one new workspaces get. */
export interface WorkspacePlanCatalogue {
  readonly plans: readonly WorkspacePlan[];
  readonly defaultPlan: string;
  readonly next: Readonly<Record<string, string | null>>;
}

/**
 * The free team plan: a few projects, folders and filters, no guests (guessed from the public
 * service's Starter tier; written down in docs/api/plans-and-limits.md).
 */
export const BUILTIN_WORKSPACE_STARTER: WorkspacePlan = {
  plan_type: 'STARTER',
  info: {
    ...BUILTIN_FREE,
    plan_name: 'starter',
    max_projects: 5,
    max_collaborators: 50,
    max_folders_per_workspace: 3,
    max_guests_per_workspace: 0,
    max_workspace_filters: 3,
  },
};

/** The paid team plan. */
export const BUILTIN_WORKSPACE_BUSINESS: WorkspacePlan = {
  plan_type: 'BUSINESS',
  info: {
    ...BUILTIN_BUSINESS,
    plan_name: 'business',
    max_projects: 500,
    max_collaborators: 500,
    max_folders_per_workspace: 1000,
    max_guests_per_workspace: 1000,
    max_workspace_filters: 150,
  },
};

export const BUILTIN_WORKSPACE_CATALOGUE: WorkspacePlanCatalogue = {
  plans: [BUILTIN_WORKSPACE_STARTER, BUILTIN_WORKSPACE_BUSINESS],
  defaultPlan: 'starter',
  next: { starter: 'business', business: null },
};

/** A workspace's plan as its consumers keep it: the type and the `{current, next}` limits. */
export const workspacePlanLimitsSchema = z.object({ plan_type: z.enum(WORKSPACE_PLAN_TYPES), limits: userPlanLimitsSchema });
export interface WorkspacePlanLimits {
  readonly plan_type: WorkspacePlanType;
  readonly limits: UserPlanLimits;
}

/** The built-in default workspace plan, what a workspace is on before any announcement reaches sync. */
export const BUILTIN_DEFAULT_WORKSPACE_LIMITS: WorkspacePlanLimits = {
  plan_type: 'STARTER',
  limits: { current: BUILTIN_WORKSPACE_STARTER.info, next: BUILTIN_WORKSPACE_BUSINESS.info },
};
