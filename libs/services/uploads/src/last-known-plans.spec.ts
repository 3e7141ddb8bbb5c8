import { BUILTIN_DEFAULT_LIMITS, type UserPlanLimits } from '@doable/contracts-plans';
import { DomainError } from '@doable/shared-errors';
import { LastKnownPlans } from './last-known-plans';

const unavailable = () => Promise.reject(new DomainError('SERVICE_UNAVAILABLE', 'plans.user-limits.get.v1 is unavailable', { reason: 'unreachable' }));

describe('LastKnownPlans', () => {
  it('answers the last good plan of a user while plans does not answer, and 503 for a user it never saw', async () => {
    const plans = new LastKnownPlans();
    await expect(plans.get('1', () => Promise.resolve(BUILTIN_DEFAULT_LIMITS))).resolves.toBe(BUILTIN_DEFAULT_LIMITS);
    await expect(plans.get('1', unavailable)).resolves.toBe(BUILTIN_DEFAULT_LIMITS);
    await expect(plans.get('2', unavailable)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('never hides an answer that is not an outage', async () => {
    const plans = new LastKnownPlans();
    await plans.get('1', () => Promise.resolve(BUILTIN_DEFAULT_LIMITS));
    await expect(plans.get('1', () => Promise.reject(new DomainError('USER_NOT_FOUND', 'gone')))).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });

  it('keeps the newest answer and forgets the least recently asked user beyond its bound', async () => {
    const plans = new LastKnownPlans(2);
    const pro: UserPlanLimits = { current: BUILTIN_DEFAULT_LIMITS.next!, next: null };
    await plans.get('1', () => Promise.resolve(BUILTIN_DEFAULT_LIMITS));
    await plans.get('2', () => Promise.resolve(BUILTIN_DEFAULT_LIMITS));
    await plans.get('1', () => Promise.resolve(pro));
    await plans.get('3', () => Promise.resolve(BUILTIN_DEFAULT_LIMITS));
    await expect(plans.get('1', unavailable)).resolves.toBe(pro);
    await expect(plans.get('2', unavailable)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
