import { isDeepStrictEqual } from 'node:util';
import { type ObjectEventType, SyncEvents, TASK_UPDATE_ARGS } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { activeMemberIds, type Item } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';
import type { ObjectChange, ObjectStates } from '../../object-events';

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

/**
 * The object event of a task (SyncEvents.objectEvent; recorded with recordObjectEvents): the one
 * place a task's `extra_data` is decided. Its parent item is its parent task. `states`: the task
 * as the command left it (and as it was, for updates, completions and reopenings).
 */
export function itemChange(task: Pick<Item, 'id' | 'project_id' | 'parent_id' | 'content'>, eventType: ObjectEventType, extraData: Record<string, unknown> = {}, states: ObjectStates = {}): ObjectChange {
  return {
    ...states,
    objectType: 'item',
    objectId: task.id,
    eventType,
    parentProjectId: task.project_id,
    parentItemId: task.parent_id,
    extraData: { content: task.content, ...extraData },
  };
}

/**
 * What item_update changes that a task's `item:updated` event is about (webhooks: any of them):
 * the fields it takes, from the task table (assigned_by_uid changes only with responsible_uid).
 */
const UPDATED_FIELDS = Object.keys(TASK_UPDATE_ARGS) as Array<keyof typeof TASK_UPDATE_ARGS>;

/**
 * The `updated` event of a task changed from `before` to `after`, or undefined when nothing
 * changed. extra_data names what the activity log keeps (public-api-facts §1.4: content,
 * description, due_date, responsible_uid) with its former value under `last_*`, present only
 * for those that changed (the log keeps an update only when one is there).
 */
export function itemUpdateChange(before: Item, after: Item): ObjectChange | undefined {
  if (UPDATED_FIELDS.every((field) => isDeepStrictEqual(before[field], after[field]))) return undefined;
  const extra: Record<string, unknown> = {};
  if (before.content !== after.content) extra.last_content = before.content;
  if (before.description !== after.description) Object.assign(extra, { description: after.description, last_description: before.description });
  if ((before.due?.date ?? null) !== (after.due?.date ?? null)) Object.assign(extra, { due_date: after.due?.date ?? null, last_due_date: before.due?.date ?? null });
  if (before.responsible_uid !== after.responsible_uid) Object.assign(extra, { responsible_uid: after.responsible_uid, last_responsible_uid: before.responsible_uid });
  return itemChange(after, 'updated', extra, { object: after, previous: before });
}

