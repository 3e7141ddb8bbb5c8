import { type PlanFeature, type PlanInfo, type PlanQuantity, quantityOf } from '@doable/contracts-plans';
import { DomainError, type ErrorCode } from '@doable/shared-errors';
import type { EntityManager } from 'typeorm';
import { isPaidPlan } from './paid-plan';
import type { PlanLimitsRepository } from './plan-limits.repository';

/** The refusal of each counted quantity (public-api-facts §2.1: a 403 whose tag ends in _LIMIT_REACHED). */
const LIMIT_ERRORS: Readonly<Record<PlanQuantity, ErrorCode>> = {
  max_projects: 'MAX_PROJECTS_LIMIT_REACHED',
  max_projects_joined: 'MAX_PROJECTS_JOINED_LIMIT_REACHED',
  max_tasks: 'MAX_ITEMS_LIMIT_REACHED',
  max_sections: 'MAX_SECTIONS_LIMIT_REACHED',
  max_labels: 'MAX_LABELS_LIMIT_REACHED',
  max_filters: 'MAX_FILTERS_LIMIT_REACHED',
  max_reminders_time: 'MAX_REMINDERS_LIMIT_REACHED',
  max_reminders_location: 'MAX_LOCATION_REMINDERS_LIMIT_REACHED',
  max_collaborators: 'MAX_COLLABORATORS_LIMIT_REACHED',
  upload_limit_mb: 'UPLOAD_SIZE_LIMIT_REACHED',
  max_folders_per_workspace: 'MAX_FOLDERS_LIMIT_REACHED',
  max_guests_per_workspace: 'MAX_GUESTS_LIMIT_REACHED',
  max_workspace_filters: 'MAX_WORKSPACE_FILTERS_LIMIT_REACHED',
  max_free_workspaces_created: 'MAX_FREE_WORKSPACES_LIMIT_REACHED',
};

export function limitReached(quantity: PlanQuantity, plan: PlanInfo, extra: Record<string, unknown> = {}): DomainError {
  return new DomainError(LIMIT_ERRORS[quantity], undefined, { limit: quantity, max_count: quantityOf(plan, quantity), plan: plan.plan_name, ...extra });
}

/**
 * Another request holds the lock a count is taken under (RoomRequest.lockKey). It is not waited
 * for inside the transaction: this one holds its user's row, and the holder cannot commit
 * before it has raised the high-water mark of every member of the project, this user's
 * included; waiting would deadlock, every time two members add at once. The executor rolls the
 * request back, waits for the lock with nothing held (waitForCountLock), and runs it again.
 */
export class CountLockBusy extends Error {
  constructor(readonly lockId: string) {
    super(`${lockId} is being counted by another request`);
  }
}

/** Waits, outside any transaction, until the holder of a count's lock has committed or rolled back. */
export async function waitForCountLock(manager: EntityManager, lockId: string): Promise<void> {
  // One statement in autocommit: the lock is taken once free and let go as the statement ends.
  await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [lockId]);
}

export interface RoomRequest {
  /** Whose plan counts: the acting user, the project's owner, or the user a reminder notifies (the limit table of docs/api/plans-and-limits.md). */
  readonly planOf: string;
  /**
   * The workspace whose plan counts instead (a workspace project's projects, tasks, sections and
   * collaborators; a workspace's folders, guests and filters). `planOf` is then unused.
   */
  readonly workspace?: string;
  /** How many there are now; called once the lock (if any) is held. */
  readonly count: () => Promise<number>;
  /** How many the command adds (a batch of one type asks once for all of them). */
  readonly adding?: number;
  /**
   * What writers other than this user's requests race on (a shared project's tasks: every
   * member adds to it). Held to the end of the transaction, so concurrent creations cannot
   * overshoot; the acting user's own requests are already one after another (their row's lock).
   */
  readonly lockKey?: string;
  /** More for error_extra (the project, say). */
  readonly extra?: Record<string, unknown>;
}

/**
 * The one place a command meets the plan (CommandContext.plan): each user's limits are read
 * once per request from this service's copy (PlanLimitsRepository), never asked of the plans
 * service per command. Refusals are coded DomainErrors, so the command's savepoint undoes it alone.
 */
export class PlanGate {
  constructor(
    private readonly manager: EntityManager,
    private readonly repository: PlanLimitsRepository,
    private readonly actorId: string,
    /** The command this view of the gate is for, with the quantities its policy declares (forCommand). */
    private readonly command?: { readonly type: string; readonly quantities: readonly PlanQuantity[] },
    private readonly plans = new Map<string, PlanInfo>(),
    private readonly workspacePlans = new Map<string, PlanInfo>(),
  ) {}

  /**
   * The gate as one command sees it (same plans, read once per request): counting a quantity
   * its policy does not declare (CommandPolicy.quantities) is a programming error, thrown as
   * one, so the declarations the docs and role_actions are derived from cannot fall behind
   * what the commands enforce.
   */
  forCommand(type: string, quantities: readonly PlanQuantity[]): PlanGate {
    return new PlanGate(this.manager, this.repository, this.actorId, { type, quantities }, this.plans, this.workspacePlans);
  }

  /** The plan of a user (the acting one by default). */
  async planOf(userId: string = this.actorId): Promise<PlanInfo> {
    let plan = this.plans.get(userId);
    if (!plan) {
      plan = (await this.repository.limitsOf(this.manager, [userId])).get(userId)!.current;
      this.plans.set(userId, plan);
    }
    return plan;
  }

  /** A workspace's plan (the workspace object's `limits.current`), read once per request. */
  async workspacePlanOf(workspaceId: string): Promise<PlanInfo> {
    let plan = this.workspacePlans.get(workspaceId);
    if (!plan) {
      plan = (await this.repository.workspaceLimits(this.manager, workspaceId)).limits.current;
      this.workspacePlans.set(workspaceId, plan);
    }
    return plan;
  }

  /** The plan a request counts against: its workspace's, or its user's. */
  private planFor(request: Pick<RoomRequest, 'planOf' | 'workspace'>): Promise<PlanInfo> {
    return request.workspace === undefined ? this.planOf(request.planOf) : this.workspacePlanOf(request.workspace);
  }

  /** FEATURE_NOT_IN_PLAN (403 PREMIUM_ONLY, error_extra.feature) unless the user's plan has the feature. */
  async requireFeature(feature: PlanFeature, userId: string = this.actorId): Promise<void> {
    const plan = await this.planOf(userId);
    if (!plan[feature]) throw new DomainError('FEATURE_NOT_IN_PLAN', `Your plan (${plan.plan_name}) does not include ${feature.replace(/_/g, ' ')}`, { feature, plan: plan.plan_name });
  }

  /**
   * FEATURE_NOT_IN_PLAN unless the acting user's plan is a paid one (isPaidPlan), whatever its
   * flags say: what an old generation kept for paying users (v8's project comments, v7's
   * filters) is refused there to the free tier, as it was then.
   */
  async requirePaidPlan(feature: PlanFeature): Promise<void> {
    const plan = await this.planOf();
    if (!isPaidPlan(plan)) {
      throw new DomainError('FEATURE_NOT_IN_PLAN', `Your plan (${plan.plan_name}) does not include ${feature.replace(/_/g, ' ')} in this API version`, { feature, plan: plan.plan_name });
    }
  }

  /**
   * FEATURE_NOT_IN_PLAN unless the workspace's plan has the feature (what a workspace holds is
   * the workspace's plan's to allow, whoever of its members adds it: workspace filters).
   */
  async requireWorkspaceFeature(feature: PlanFeature, workspaceId: string): Promise<void> {
    const plan = await this.workspacePlanOf(workspaceId);
    if (!plan[feature]) {
      throw new DomainError('FEATURE_NOT_IN_PLAN', `The workspace's plan (${plan.plan_name}) does not include ${feature.replace(/_/g, ' ')}`, { feature, plan: plan.plan_name, workspace_id: workspaceId });
    }
  }

  /**
   * How many more the plan allows now (0 or more): a batch writes that many and refuses the rest.
   * With a lockKey the lock is only tried: held by another request, CountLockBusy is thrown.
   */
  async room(quantity: PlanQuantity, request: Omit<RoomRequest, 'adding' | 'extra'>): Promise<number> {
    if (this.command && !this.command.quantities.includes(quantity)) {
      throw new Error(`command ${this.command.type} counts ${quantity}, which its policy does not declare (CommandPolicy.quantities)`);
    }
    const plan = await this.planFor(request);
    if (request.lockKey) {
      const lockId = `limit:${quantity}:${request.lockKey}`;
      const [{ locked }] = await this.manager.query<Array<{ locked: boolean }>>(`SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked`, [lockId]);
      if (!locked) throw new CountLockBusy(lockId);
    }
    return Math.max(0, quantityOf(plan, quantity) - (await request.count()));
  }

  /** Refuses with the quantity's *_LIMIT_REACHED unless `adding` more fit (1 by default). */
  async requireRoom(quantity: PlanQuantity, request: RoomRequest): Promise<void> {
    const room = await this.room(quantity, request);
    if (room < (request.adding ?? 1)) throw limitReached(quantity, await this.planFor(request), request.workspace === undefined ? request.extra : { workspace_id: request.workspace, ...request.extra });
  }
}
