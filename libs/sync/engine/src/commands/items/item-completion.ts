import { Injectable } from '@nestjs/common';
import { type Item, ItemRepository, KarmaRepository, ProjectRepository, recordCompletion, recordReopening, requireSectionRoom, requireTaskRoom, SectionRepository } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';
import { recordObjectEvents } from '../../object-events';
import { announceCompletion, itemChange } from './item-events';

/** What checking a task off writes: the tasks, and the user's karma and goals. */
@Injectable()
export class CompletionRepositories {
  constructor(
    readonly items: ItemRepository,
    readonly karma: KarmaRepository,
  ) {}
}

/**
 * Checking a task off. A top-level task goes to history with its subtasks; a subtask goes to
 * history only when asked (`force_history`), otherwise it is just checked under its parent.
 */
export async function completeItem(repositories: CompletionRepositories, context: CommandContext, item: Item, completedAt: Date, forceHistory: boolean): Promise<void> {
  const { items, karma } = repositories;
  const inHistory = item.parent_id === null || forceHistory;
  const subtree = await items.subtree(context.tx.manager, item.id);
  await items.setState(context.tx.manager, subtree.map((task) => task.id), { checked: true, in_history: inHistory, completed_at: completedAt }, context.version);
  const completed = subtree.filter((task) => !task.checked);
  await announceCompletion(context, completed, true);
  await recordObjectEvents(
    context,
    completed.map((task) => itemChange(task, 'completed', {}, { object: { ...task, checked: true, in_history: inHistory, completed_at: completedAt }, previous: task })),
  );
  if (!item.checked) await recordCompletion(karma, context.tx, context.userId, context.version);
  context.touch(item.project_id);
}

/** What reopening a task reads and writes: the task, its section, its project's owner (whose plan caps both), and the user's karma. */
@Injectable()
export class ReopeningRepositories {
  constructor(
    readonly items: ItemRepository,
    readonly sections: SectionRepository,
    readonly projects: ProjectRepository,
    readonly karma: KarmaRepository,
  ) {}
}

/**
 * Reopening a task also reopens its completed ancestors (a subtask cannot be open under a closed
 * parent), and unarchives the archived section it is in (an open task in an archived section
 * would be seen nowhere): "ancestors and sections are reinstated".
 */
export async function uncompleteItem(repositories: ReopeningRepositories, context: CommandContext, item: Item): Promise<void> {
  const { items, sections, projects, karma } = repositories;
  const closedAncestors = (await items.ancestors(context.tx.manager, item.id)).filter((ancestor) => ancestor.checked);
  const reopened = [item, ...closedAncestors];
  // Back among the project's open tasks: they count against what it holds.
  await requireTaskRoom(items, context, item.project_id, reopened.filter((task) => task.checked).length);
  if (item.checked) await recordReopening(karma, context.tx, context.userId, context.version);
  for (const task of reopened) {
    const childOrder = task.in_history ? await items.nextChildOrder(context.tx.manager, task.project_id, task.parent_id) : task.child_order;
    await items.update(context.tx.manager, task.id, { child_order: childOrder }, context.version);
  }
  await items.setState(context.tx.manager, reopened.map((task) => task.id), { checked: false, in_history: false, completed_at: null }, context.version);
  await announceCompletion(context, reopened.filter((task) => task.checked), false);
  await recordObjectEvents(
    context,
    reopened.filter((task) => task.checked).map((task) => itemChange(task, 'uncompleted', {}, { object: { ...task, checked: false, in_history: false, completed_at: null }, previous: task })),
  );
  for (const sectionId of new Set(reopened.flatMap((task) => (task.section_id === null ? [] : [task.section_id])))) {
    const section = await sections.findVisibleForUpdate(context.tx.manager, context.userId, sectionId);
    if (!section?.is_archived) continue;
    // Back in use: it counts against the project's sections.
    await requireSectionRoom(projects, sections, context, section.project_id);
    await sections.update(context.tx.manager, [section.id], { is_archived: false, archived_at: null }, context.version);
  }
  context.touch(item.project_id);
}
