import type { EntityManager } from 'typeorm';
import type { ItemRepository, OpenTaskCount } from '../items/item.repository';
import type { ProjectRepository } from '../projects/project.repository';
import type { SectionRepository } from '../sections/section.repository';
import type { PlanGate } from './plan-gate';

/**
 * What a check needs of the command it runs in (CommandContext has it; the domain does not
 * import the engine): its transaction, its user and the plans.
 */
export interface QuantityContext {
  readonly tx: { readonly manager: EntityManager };
  readonly userId: string;
  readonly plan: PlanGate;
}

/*
 * The plan's project quantities, one function each, called by every command that creates or
 * restores what they count (add, unarchive, move into, reopen, join). Who pays is decided here
 * (the limit table of docs/api/plans-and-limits.md says it for every quantity): the acting user for projects and joined projects, the
 * project's owner for its tasks and sections, whoever adds them.
 * A project with other active members is written by their requests too, which the acting user's
 * row lock does not order: its count is taken under a lock on the project (lockKey), held to the
 * end of the transaction, so concurrent members cannot overshoot (a request that finds it taken
 * runs again once it is free: PlanGate's CountLockBusy). A project that becomes shared
 * while its owner's request is counting may let that one request through unlocked: one over at
 * most, on a race of a join and an add in the same instant.
 */

/**
 * max_projects of a workspace's plan: one more of its projects becomes active (project_add,
 * project_move_to_workspace, unarchiving one). Every member adds projects: counted under the
 * workspace's lock.
 */
export async function requireWorkspaceProjectRoom(projects: ProjectRepository, context: QuantityContext, workspaceId: string, adding = 1): Promise<void> {
  await context.plan.requireRoom('max_projects', {
    planOf: context.userId,
    workspace: workspaceId,
    lockKey: workspaceId,
    count: () => projects.countActiveInWorkspace(context.tx.manager, workspaceId),
    adding,
    extra: { workspace_id: workspaceId },
  });
}

/** max_projects: one more project of the owner's becomes active (project_add: the actor; project_unarchive: the project's owner). */
export async function requireProjectRoom(projects: ProjectRepository, context: QuantityContext, ownerId: string = context.userId): Promise<void> {
  await context.plan.requireRoom('max_projects', { planOf: ownerId, count: () => projects.countOwnedActive(context.tx.manager, ownerId) });
}

/** max_projects_joined: the acting user joins one more project of someone else's. */
export async function requireJoinedRoom(projects: ProjectRepository, context: QuantityContext): Promise<void> {
  await context.plan.requireRoom('max_projects_joined', { planOf: context.userId, count: () => projects.countJoined(context.tx.manager, context.userId) });
}

/** max_tasks: `adding` more open tasks come into the project (its owner's plan). A deleted project is left to the command's own refusal. */
export async function requireTaskRoom(items: ItemRepository, context: QuantityContext, projectId: string, adding = 1): Promise<void> {
  if (adding <= 0) return;
  const [counted] = await items.openTaskCounts(context.tx.manager, [projectId]);
  if (!counted) return;
  await context.plan.requireRoom('max_tasks', { ...taskCount(items, context, counted), adding, extra: { project_id: projectId } });
}

/**
 * max_tasks for a batch of new tasks (item_add's group): how many more each project takes now,
 * by project id; a deleted project is absent. The projects are locked in id order, so two
 * batches over the same shared projects wait for each other instead of deadlocking.
 */
export async function taskRooms(items: ItemRepository, context: QuantityContext, projectIds: readonly string[]): Promise<Map<string, number>> {
  const rooms = new Map<string, number>();
  for (const counted of await items.openTaskCounts(context.tx.manager, [...new Set(projectIds)])) {
    rooms.set(counted.project_id, await context.plan.room('max_tasks', taskCount(items, context, counted)));
  }
  return rooms;
}

/** max_sections: `adding` more sections in use in the project (its owner's plan). */
export async function requireSectionRoom(projects: ProjectRepository, sections: SectionRepository, context: QuantityContext, projectId: string, adding = 1): Promise<void> {
  if (adding <= 0) return;
  const owner = await projects.ownerOf(context.tx.manager, projectId);
  if (!owner) return;
  await context.plan.requireRoom('max_sections', {
    planOf: owner.owner_id,
    // A workspace project counts against its workspace's plan; its members may all write to it.
    workspace: owner.workspace_id ?? undefined,
    lockKey: owner.shared || owner.workspace_id ? projectId : undefined,
    count: () => sections.countActiveInProject(context.tx.manager, projectId),
    adding,
    extra: { project_id: projectId },
  });
}

/**
 * The task count of a project as the gate takes it: read together with its owner, and read
 * again under the project's lock when others write to it (the first read may predate their commits).
 */
function taskCount(items: ItemRepository, context: QuantityContext, counted: OpenTaskCount) {
  // A workspace project's tasks count against its workspace's plan, and its members may join and
  // write at any moment: always counted under the project's lock.
  const locked = counted.shared || counted.workspace_id !== null;
  return {
    planOf: counted.owner_id,
    workspace: counted.workspace_id ?? undefined,
    lockKey: locked ? counted.project_id : undefined,
    count: () => (locked ? items.countOpenInProject(context.tx.manager, counted.project_id) : Promise.resolve(counted.open)),
  };
}
