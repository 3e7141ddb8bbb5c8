import { eventSubject } from '@doable/contracts-common';
import { z } from 'zod';
import { userPlanLimitsSchema } from './plan-info';
import { workspacePlanLimitsSchema } from './workspace-plans';

/**
 * A user's plan changed: assigned (sign-up, `npm run cli -- set-plan`) or redefined (the
 * operator changed the catalogue). Carries the whole `user_plan_limits` value, so the services
 * that enforce limits keep their own copy and never ask per command. `revision` grows with every
 * change of any user's plan: a consumer keeps the highest it has seen, so an event delivered
 * late or twice cannot bring back an older plan.
 */
export const userPlanChanged = eventSubject(
  'plans.evt.user-plan-changed.v1',
  z.object({
    userId: z.string().regex(/^[0-9]+$/),
    revision: z.string().regex(/^[0-9]+$/),
    limits: userPlanLimitsSchema,
  }),
);
export type UserPlanChanged = z.infer<typeof userPlanChanged.payload>;

/**
 * The catalogue's default plan changed (first start, or a new catalogue): what an account is on
 * before its own assignment reaches a consumer (the moments after sign-up), so a consumer never
 * has to guess the operator's default.
 */
export const defaultPlanChanged = eventSubject(
  'plans.evt.default-plan-changed.v1',
  z.object({
    revision: z.string().regex(/^[0-9]+$/),
    limits: userPlanLimitsSchema,
  }),
);

/**
 * A workspace's plan changed (the operator's `npm run cli -- set-workspace-plan`, or the
 * catalogue redefined it). Carries the plan type and whole `{current, next}` limits, so sync
 * keeps its own copy; `revision` as for userPlanChanged.
 */
export const workspacePlanChanged = eventSubject(
  'plans.evt.workspace-plan-changed.v1',
  z.object({
    workspaceId: z.string().regex(/^[0-9]+$/),
    revision: z.string().regex(/^[0-9]+$/),
    plan: workspacePlanLimitsSchema,
  }),
);
export type WorkspacePlanChanged = z.infer<typeof workspacePlanChanged.payload>;

/** The catalogue's default workspace plan changed (first start, or a new catalogue): what a new workspace is on. */
export const defaultWorkspacePlanChanged = eventSubject(
  'plans.evt.default-workspace-plan-changed.v1',
  z.object({
    revision: z.string().regex(/^[0-9]+$/),
    plan: workspacePlanLimitsSchema,
  }),
);
