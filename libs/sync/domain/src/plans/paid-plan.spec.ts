import { BUILTIN_CATALOGUE, BUILTIN_FREE } from '@doable/contracts-plans';
import { isPaidPlan } from './paid-plan';

describe('isPaidPlan', () => {
  const builtin = (name: string) => BUILTIN_CATALOGUE.plans.find((plan) => plan.plan_name === name)!;

  it('takes the built-in free plan and plans that only lower it for unpaid', () => {
    expect(isPaidPlan(BUILTIN_FREE)).toBe(false);
    expect(isPaidPlan({ ...BUILTIN_FREE, plan_name: 'tiny', max_tasks: 5, max_filters: 2 })).toBe(false);
    expect(isPaidPlan({ ...BUILTIN_FREE, plan_name: 'bare', filters: false, comments: false })).toBe(false);
  });

  it('takes a plan giving any feature or quantity beyond free for paid', () => {
    expect(isPaidPlan(builtin('pro'))).toBe(true);
    expect(isPaidPlan(builtin('business'))).toBe(true);
    expect(isPaidPlan({ ...BUILTIN_FREE, plan_name: 'family', max_projects: 50 })).toBe(true);
    expect(isPaidPlan({ ...BUILTIN_FREE, plan_name: 'logged', activity_log: true })).toBe(true);
    expect(isPaidPlan({ ...BUILTIN_FREE, plan_name: 'history', activity_log_limit: -1 })).toBe(true);
  });
});
