import type { UserPlanLimits } from '@doable/contracts-plans';
import { DomainError } from '@doable/shared-errors';

/** Enough for every active user of a large instance; the oldest answer is dropped first. */
const MAX_USERS = 10_000;

/**
 * The last plan answer plans gave for each user, used only when plans does not answer (503):
 * an upload is then checked against the plan the user had a moment ago instead of failing. A
 * plan changes rarely, and uploads checks the limit again from the live answer on the next one.
 * A user never seen since this replica started still gets the 503.
 */
export class LastKnownPlans {
  private readonly answers = new Map<string, UserPlanLimits>();

  constructor(private readonly maxUsers = MAX_USERS) {}

  async get(userId: string, ask: () => Promise<UserPlanLimits>): Promise<UserPlanLimits> {
    try {
      const answer = await ask();
      // Re-inserted, so the Map's order stays oldest-first.
      this.answers.delete(userId);
      this.answers.set(userId, answer);
      if (this.answers.size > this.maxUsers) this.answers.delete(this.answers.keys().next().value!);
      return answer;
    } catch (err) {
      const known = this.answers.get(userId);
      if (known && err instanceof DomainError && err.code === 'SERVICE_UNAVAILABLE') return known;
      throw err;
    }
  }
}
