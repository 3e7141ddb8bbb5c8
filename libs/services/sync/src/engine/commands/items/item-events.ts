import { SyncEvents } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import type { Item } from '../../../items/item.model';
import { activeMemberIds } from '../../../projects/project-member.queries';
import type { CommandContext } from '../command-handler';

/**
 * Assignment and the events of a task's collaborators: who a task may be assigned to, and what
 * sync tells other services when a task is assigned or an assigned task is completed or reopened
 * (recorded in the command's transaction: a refused command takes its events with it).
 */

/**
 * The `responsible_uid` argument as stored: undefined when not sent (no change), null to
 * unassign, or the id of an active member of the task's project; anyone else is refused.
 */
export async function assigneeOf(context: CommandContext, projectId: string, value: string | number | null | undefined): Promise<string | null | undefined> {
  if (value === undefined) return undefined;
  if (value === null || value === '' || value === 0) return null;
  const uid = String(value);
  const members = uid === context.userId && projectId === context.user.inboxProjectId ? [uid] : await activeMemberIds(context.tx.manager, projectId);
  if (!/^\d{1,18}$/.test(uid) || !members.includes(uid)) {
    throw new DomainError('INVALID_ARGUMENT_VALUE', 'Tasks can only be assigned to collaborators of the project', { argument: 'responsible_uid' });
  }
  return uid;
}

/** The task now has `responsibleUid` (assigned by the acting user) where it had `before`: told when it changed. */
export async function announceAssignment(context: CommandContext, task: Pick<Item, 'id' | 'content' | 'project_id' | 'added_by_uid'>, responsibleUid: string | null, before: string | null): Promise<void> {
  if (responsibleUid === null || responsibleUid === before) return;
  await context.tx.emit(SyncEvents.itemAssigned, {
    itemId: task.id,
    itemContent: task.content,
    projectId: task.project_id,
    assignedBy: context.userId,
    responsibleUid,
    creatorId: task.added_by_uid,
  });
}

/** Tasks completed (or reopened) by the acting user: one event for each that has a responsible user. */
export async function announceCompletion(context: CommandContext, tasks: readonly Item[], completed: boolean): Promise<void> {
  for (const task of tasks) {
    if (task.responsible_uid === null) continue;
    await context.tx.emit(SyncEvents.itemCompletionChanged, {
      itemId: task.id,
      itemContent: task.content,
      projectId: task.project_id,
      completed,
      actorId: context.userId,
      assignedBy: task.assigned_by_uid,
      responsibleUid: task.responsible_uid,
    });
  }
}
