export * as PlansSubjects from './subjects';
export type { PlanInfo, UserPlanLimits } from './plan-info';
