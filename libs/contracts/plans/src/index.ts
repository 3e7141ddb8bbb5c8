export * as PlansSubjects from './subjects';
export * as PlansEvents from './events';
export type { UserPlanChanged } from './events';
export { planInfoSchema, userPlanLimitsSchema, type PlanInfo, type UserPlanLimits } from './plan-info';
export { BUILTIN_CATALOGUE, BUILTIN_DEFAULT_LIMITS, BUILTIN_FREE, type PlanCatalogue } from './builtin-plans';
export { quantityOf, type PlanFeature, type PlanQuantity } from './plan-limits';
export type { WorkspacePlanChanged } from './events';
export {
  BUILTIN_DEFAULT_WORKSPACE_LIMITS,
  BUILTIN_WORKSPACE_BUSINESS,
  BUILTIN_WORKSPACE_CATALOGUE,
  BUILTIN_WORKSPACE_STARTER,
  WORKSPACE_PLAN_TYPES,
  workspacePlanLimitsSchema,
  type WorkspacePlan,
  type WorkspacePlanCatalogue,
  type WorkspacePlanLimits,
  type WorkspacePlanType,
} from './workspace-plans';
