import { BUILTIN_DEFAULT_LIMITS, type UserPlanLimits, userPlanLimitsSchema } from '@doable/contracts-plans';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface StoredPlanLimits {
  readonly limits: UserPlanLimits;
  /** The change version that stored them (an incremental sync past it carries them). */
  readonly version: string;
}

/** This service's copy of each user's plan limits (sync.user_plans, fed by PlansEvents.userPlanChanged). */
@Injectable()
export class PlanLimitsRepository {
  /**
   * Keeps the announced limits unless a newer revision is already here; answers the version that
   * stamped them, or undefined when the event was older than what is stored.
   */
  async store(manager: EntityManager, userId: string, revision: string, limits: UserPlanLimits): Promise<string | undefined> {
    const rows = await manager.query<Array<{ version: string }>>(
      `INSERT INTO sync.user_plans (user_id, limits, revision, version) VALUES ($1, $2, $3, nextval('sync.change_version'))
       ON CONFLICT (user_id) DO UPDATE SET limits = excluded.limits, revision = excluded.revision, version = excluded.version
         WHERE sync.user_plans.revision < excluded.revision
       RETURNING version::text`,
      [userId, JSON.stringify(limits), revision],
    );
    return rows[0]?.version;
  }

  /**
   * Each user's limits. A user the plans service has not announced yet (the few milliseconds
   * after sign-up) is on the built-in default plan, for reads and checks alike.
   */
  async limitsOf(manager: EntityManager, userIds: readonly string[]): Promise<Map<string, UserPlanLimits>> {
    const rows = await manager.query<Array<{ user_id: string; limits: unknown }>>('SELECT user_id::text, limits FROM sync.user_plans WHERE user_id = ANY($1::bigint[])', [userIds]);
    const found = new Map(rows.map((row) => [row.user_id, userPlanLimitsSchema.parse(row.limits)]));
    return new Map(userIds.map((userId) => [userId, found.get(userId) ?? BUILTIN_DEFAULT_LIMITS]));
  }

  /** The user's limits with the version that stored them ('0' for the built-in default). */
  async find(manager: EntityManager, userId: string): Promise<StoredPlanLimits> {
    const [row] = await manager.query<Array<{ limits: unknown; version: string }>>('SELECT limits, version::text FROM sync.user_plans WHERE user_id = $1', [userId]);
    return row ? { limits: userPlanLimitsSchema.parse(row.limits), version: row.version } : { limits: BUILTIN_DEFAULT_LIMITS, version: '0' };
  }
}
