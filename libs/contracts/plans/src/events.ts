import { eventSubject } from '@doable/contracts-common';
import { z } from 'zod';
import { userPlanLimitsSchema } from './plan-info';
import { workspacePlanLimitsSchema } from './workspace-plans';

const numericId = z.string().regex(/^[0-9]+$/);

/**
 * The plan events share one shape, so consumers keep their copies alike: whose plan it is
 * (`holder`: a user, a workspace; none for a catalogue's default), the revision that orders the
 * changes, and the whole plan value.
 */
function planEvent<Holder extends z.ZodRawShape, Value extends z.ZodRawShape>(subject: string, holder: Holder, value: Value) {
  return eventSubject(subject, z.object({ ...holder, revision: numericId, ...value }));
}

/**
 * A user's plan changed: assigned (sign-up, `npm run cli -- set-plan`) or redefined (the
 * operator changed the catalogue). Carries the whole `user_plan_limits` value, so the services
 * that enforce limits keep their own copy and never ask per command. `revision` grows with every
 * change of any user's plan: a consumer keeps the highest it has seen, so an event delivered
 * late or twice cannot bring back an older plan.
 */
export const userPlanChanged = planEvent('plans.evt.user-plan-changed.v1', { userId: numericId }, { limits: userPlanLimitsSchema });
export type UserPlanChanged = z.infer<typeof userPlanChanged.payload>;

/**
 * The catalogue's default plan changed (first start, or a new catalogue): what an account is on
 * before its own assignment reaches a consumer (the moments after sign-up), so a consumer never
 * has to guess the operator's default.
 */
export const defaultPlanChanged = planEvent('plans.evt.default-plan-changed.v1', {}, { limits: userPlanLimitsSchema });

/**
 * A workspace's plan changed (the operator's `npm run cli -- set-workspace-plan`, or the
 * catalogue redefined it). Carries the plan type and whole `{current, next}` limits, so sync
 * keeps its own copy; `revision` as for userPlanChanged.
 */
export const workspacePlanChanged = planEvent('plans.evt.workspace-plan-changed.v1', { workspaceId: numericId }, { plan: workspacePlanLimitsSchema });
export type WorkspacePlanChanged = z.infer<typeof workspacePlanChanged.payload>;

/** The catalogue's default workspace plan changed (first start, or a new catalogue): what a new workspace is on. */
export const defaultWorkspacePlanChanged = planEvent('plans.evt.default-workspace-plan-changed.v1', {}, { plan: workspacePlanLimitsSchema });
