import { BUILTIN_FREE, type PlanInfo } from '@doable/contracts-plans';

/**
 * Whether a plan is a paid one in the sense the old generations used (sync-interface §2: v8 kept
 * project comments, v7 filters, for paid users). A catalogue names its plans freely, so a name
 * cannot tell; what a paid plan does is give more than the public free tier. A plan is paid when
 * it has a feature `free` lacks or a larger quantity than `free`'s (-1, "unlimited", counts as
 * larger): `pro`, `business` and a plan that extends them are; `free` and plans that only lower
 * it (a test's `tiny`, `bare`) are not.
 */
export function isPaidPlan(plan: PlanInfo): boolean {
  return (Object.keys(BUILTIN_FREE) as Array<keyof PlanInfo>).some((key) => {
    const free = BUILTIN_FREE[key];
    const value = plan[key];
    if (typeof free === 'boolean') return value === true && !free;
    if (typeof free !== 'number' || typeof value !== 'number') return false;
    if (free === -1) return false;
    return value === -1 || value > free;
  });
}
