export { plansService } from './plans.service-definition';
export { PLANS, DEFAULT_PLAN } from './plan-catalogue';
