import { requestSubject } from '@doable/contracts-common';
import { z } from 'zod';
import { type UserPlanLimits, userPlanLimitsSchema } from './plan-info';

/** The user's current plan and the upgrade on offer. */
export const userLimits = requestSubject<{ userId: string }, UserPlanLimits>(
  'plans.user-limits.get.v1',
  z.object({ userId: z.string().regex(/^[0-9]+$/) }),
  userPlanLimitsSchema,
);
