import { BUILTIN_DEFAULT_LIMITS, BUILTIN_DEFAULT_WORKSPACE_LIMITS, type UserPlanLimits, userPlanLimitsSchema, type WorkspacePlanLimits, workspacePlanLimitsSchema, type WorkspacePlanType } from '@doable/contracts-plans';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface StoredPlanLimits {
  readonly limits: UserPlanLimits;
  /** The change version that stored them (an incremental sync past it carries them); '0' for the default plan. */
  readonly version: string;
}

/** What a stored workspace announcement replaced (PlanLimitsRepository.storeWorkspace). */
export interface StoredWorkspacePlan {
  /** The change version that stamped the workspace. */
  readonly version: string;
  readonly name: string;
  readonly previous_plan_type: WorkspacePlanType;
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

  /** Keeps the catalogue's default plan (PlansEvents.defaultPlanChanged) unless a newer one is here. */
  async storeDefault(manager: EntityManager, revision: string, limits: UserPlanLimits): Promise<void> {
    await manager.query(
      `INSERT INTO sync.default_plan (id, limits, revision) VALUES (true, $1, $2)
       ON CONFLICT (id) DO UPDATE SET limits = excluded.limits, revision = excluded.revision WHERE sync.default_plan.revision < excluded.revision`,
      [JSON.stringify(limits), revision],
    );
  }

  /**
   * Keeps a workspace's announced plan (PlansEvents.workspacePlanChanged) unless a newer revision
   * is already here, stamping the workspace with a new change version. Answers what it replaced,
   * or undefined when nothing was stored: an older revision, or a workspace this service does not
   * have (an id the operator mistyped) or has deleted.
   */
  async storeWorkspace(manager: EntityManager, workspaceId: string, revision: string, plan: WorkspacePlanLimits): Promise<StoredWorkspacePlan | undefined> {
    // The old row is read locked in the CTE: a concurrent announcement waits and re-checks the revision.
    const rows = await manager.query<StoredWorkspacePlan[]>(
      `WITH old AS (SELECT id, plan_type FROM sync.workspaces WHERE id = $1 AND plan_revision < $2 AND NOT is_deleted FOR UPDATE),
            stored AS (
              UPDATE sync.workspaces w SET plan_type = $3, limits = $4, plan_revision = $2, version = nextval('sync.change_version'), updated_at = now()
                FROM old WHERE w.id = old.id
              RETURNING w.version, w.name, old.plan_type AS previous_plan_type)
       SELECT version::text, name, previous_plan_type FROM stored`,
      [workspaceId, revision, plan.plan_type, JSON.stringify(plan.limits)],
    );
    return rows[0];
  }

  /**
   * Keeps the catalogue's default workspace plan (PlansEvents.defaultWorkspacePlanChanged) unless
   * a newer one is here. The workspaces on the default (never assigned a plan: `limits` null) take
   * its type and are stamped with one new version; answers that version and those workspaces
   * (none when the announcement was older than what is stored).
   */
  async storeDefaultWorkspace(manager: EntityManager, revision: string, plan: WorkspacePlanLimits): Promise<{ version: string; workspaceIds: string[] } | undefined> {
    const stored = await manager.query<unknown[]>(
      `INSERT INTO sync.default_workspace_plan (id, plan_type, limits, revision) VALUES (true, $1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET plan_type = excluded.plan_type, limits = excluded.limits, revision = excluded.revision
         WHERE sync.default_workspace_plan.revision < excluded.revision
       RETURNING revision`,
      [plan.plan_type, JSON.stringify(plan.limits), revision],
    );
    if (stored.length === 0) return undefined;
    const [{ version }] = await manager.query<Array<{ version: string }>>(`SELECT nextval('sync.change_version')::text AS version`);
    const rows = await manager.query<Array<{ id: string }>>(
      `WITH stamped AS (
         UPDATE sync.workspaces SET plan_type = $1, version = $2, updated_at = now()
          WHERE id IN (SELECT id FROM sync.workspaces WHERE limits IS NULL AND NOT is_deleted ORDER BY id FOR UPDATE)
          RETURNING id)
       SELECT id::text FROM stamped ORDER BY id`,
      [plan.plan_type, version],
    );
    return { version, workspaceIds: rows.map((row) => row.id) };
  }

  /**
   * Raises the high-water mark of every active member of the workspaces to the version, so their
   * next incremental sync carries the workspace again. The users are locked in id order, so two
   * of these never deadlock each other. Returns their ids (the push channel tells them).
   */
  async raiseMembersHighWater(manager: EntityManager, workspaceIds: readonly string[], version: string): Promise<string[]> {
    if (workspaceIds.length === 0) return [];
    // UPDATE ... RETURNING answers [rows, count] through TypeORM.
    const [rows] = await manager.query<[Array<{ id: string }>, number]>(
      `UPDATE sync.users SET high_water = GREATEST(high_water, $2)
        WHERE id IN (SELECT id FROM sync.users
                      WHERE id IN (SELECT user_id FROM sync.workspace_members WHERE workspace_id = ANY($1::bigint[]) AND state = 'active')
                      ORDER BY id FOR UPDATE)
        RETURNING id::text`,
      [workspaceIds, version],
    );
    return rows.map((row) => row.id);
  }

  /** Each user's limits; a user not announced yet is on the default plan (see defaultLimits). */
  async limitsOf(manager: EntityManager, userIds: readonly string[]): Promise<Map<string, UserPlanLimits>> {
    const rows = await manager.query<Array<{ user_id: string; limits: unknown }>>('SELECT user_id::text, limits FROM sync.user_plans WHERE user_id = ANY($1::bigint[])', [userIds]);
    const found = new Map(rows.map((row) => [row.user_id, userPlanLimitsSchema.parse(row.limits)]));
    const fallback = found.size < userIds.length ? await this.defaultLimits(manager) : undefined;
    return new Map(userIds.map((userId) => [userId, found.get(userId) ?? fallback!]));
  }

  /** The user's limits with the version that stored them. */
  async find(manager: EntityManager, userId: string): Promise<StoredPlanLimits> {
    const [row] = await manager.query<Array<{ limits: unknown; version: string }>>('SELECT limits, version::text FROM sync.user_plans WHERE user_id = $1', [userId]);
    return row ? { limits: userPlanLimitsSchema.parse(row.limits), version: row.version } : { limits: await this.defaultLimits(manager), version: '0' };
  }

  /**
   * A workspace's plan: as the plans service announced it for the workspace, else the catalogue's
   * default workspace plan, else (the plans service never ran here) the built-in one.
   */
  async workspaceLimits(manager: EntityManager, workspaceId: string): Promise<WorkspacePlanLimits> {
    const [row] = await manager.query<Array<{ plan_type: string; limits: unknown; default_type: string | null; default_limits: unknown }>>(
      `SELECT w.plan_type, w.limits, d.plan_type AS default_type, d.limits AS default_limits
         FROM sync.workspaces w LEFT JOIN sync.default_workspace_plan d ON true WHERE w.id = $1`,
      [workspaceId],
    );
    if (row?.limits) return workspacePlanLimitsSchema.parse({ plan_type: row.plan_type, limits: row.limits });
    if (row?.default_limits) return workspacePlanLimitsSchema.parse({ plan_type: row.default_type, limits: row.default_limits });
    return BUILTIN_DEFAULT_WORKSPACE_LIMITS;
  }

  /**
   * The catalogue's default plan as the plans service announced it; before any announcement
   * (the plans service has never run against this database) the built-in one.
   */
  private async defaultLimits(manager: EntityManager): Promise<UserPlanLimits> {
    const [row] = await manager.query<Array<{ limits: unknown }>>('SELECT limits FROM sync.default_plan');
    return row ? userPlanLimitsSchema.parse(row.limits) : BUILTIN_DEFAULT_LIMITS;
  }
}
