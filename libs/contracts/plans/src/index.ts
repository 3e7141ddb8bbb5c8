export * as PlansSubjects from './subjects';
export * as PlansEvents from './events';
export type { UserPlanChanged } from './events';
export { planInfoSchema, userPlanLimitsSchema, type PlanInfo, type UserPlanLimits } from './plan-info';
export { BUILTIN_CATALOGUE, BUILTIN_DEFAULT_LIMITS, BUILTIN_FREE, type PlanCatalogue } from './builtin-plans';
export { quantityOf, type PlanFeature, type PlanQuantity } from './plan-limits';
