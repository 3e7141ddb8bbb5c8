import { Injectable } from '@nestjs/common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { ItemDates, ItemRepository, LabelRepository, type NewItem, ProjectRepository, requireTaskRoom, SectionRepository, taskRooms } from '@doable/sync-domain';
import { loadSection } from '../sections/section-access';
import { flag, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { checkContent } from './item-args';
import { loadItem } from './item-access';
import { recordObjectEvents } from '../../object-events';
import { announceAssignment, assigneeOf, itemChange } from './item-events';
import { labelIdsArg, taskLabels } from './item-labels';
import { argValues, inProject, TASK_ADD, TASK_ADD_ARGS, TASK_FIELDS } from '@doable/contracts-sync';

const argsSchema = z.object({
  // The task's fields, from its table; then what names no field: an alias, a switch.
  ...TASK_ADD_ARGS,
  collapsed: flag.optional(),
  label_ids: labelIdsArg.optional(),
  auto_reminder: flag.optional(),
  auto_parse_labels: flag.optional(),
});

/** item_add: a task in the Inbox unless a project, parent or section says otherwise. */
@Injectable()
export class ItemAddCommand implements CommandHandler {
  readonly type = 'item_add';
  readonly policy = inProject('edit', { scopes: TASK_ADD, quantity: 'max_tasks' });

  constructor(
    private readonly items: ItemRepository,
    private readonly projects: ProjectRepository,
    private readonly sections: SectionRepository,
    private readonly dates: ItemDates,
    private readonly labels: LabelRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const parsed = parseArgs(argsSchema, rawArgs);
    const args = { ...parsed, labels: await taskLabels(this.labels, context, parsed) };
    const content = checkContent(args.content);
    let projectId = args.project_id ? await context.resolveId(args.project_id, 'project_id') : context.user.inboxProjectId;
    let parentId: string | null = null;
    let sectionId: string | null = null;
    if (args.section_id) {
      const section = await loadSection(this.sections, context, args.section_id, 'section_id');
      sectionId = section.id;
      projectId = section.project_id; // a task in a section lives in the section's project
    }
    if (args.parent_id) {
      const parent = await loadItem(this.items, context, args.parent_id, 'parent_id');
      parentId = parent.id;
      projectId = parent.project_id; // a subtask lives with its parent
      sectionId = parent.section_id;
    }
    // A section or a parent was checked by its loader; a project named alone is checked here.
    if (!args.section_id && !args.parent_id) await requireProject(context, projectId);
    let row: NewItem;
    try {
      const responsibleUid = (await assigneeOf(context, projectId, args.responsible_uid)) ?? null;
      row = this.newItem(context, args, { project_id: projectId, section_id: sectionId, parent_id: parentId, content }, responsibleUid);
    } catch (refusal) {
      // The project is checked first: a task refused for its values in a project the user
      // cannot see answers PROJECT_NOT_FOUND, as it always has. Only a refused task pays this read.
      if (!(await this.projects.findVisible(context.tx.manager, context.userId, projectId))) throw projectNotFound();
      throw refusal;
    }
    await requireTaskFeatures(context, row);
    await requireTaskRoom(this.items, context, projectId);
    // The project's visibility is checked by the INSERT itself.
    const item = await this.items.insertIfVisible(context.tx.manager, row, context.version);
    if (!item) throw projectNotFound();
    await announceAssignment(context, item, item.responsible_uid, null);
    await recordObjectEvents(context, [itemChange(item, 'added', {}, { object: item })]);
    context.touch(item.project_id);
    return { createdId: item.id };
  }

  /**
   * A task that can be written with the ones around it (ItemRepository.insertAllIfVisible):
   * one placed by its project alone. A section or a parent is read, and may be a temp id the
   * tasks before it create; an explicit child_order moves the next tasks' orders; an
   * assignment is checked against the project's members and announced: those run().
   */
  async plan(context: CommandContext, rawArgs: Record<string, unknown>): Promise<NewItem | undefined> {
    const args = parseArgs(argsSchema, rawArgs);
    if (args.section_id || args.parent_id || args.child_order !== undefined || args.label_ids !== undefined || args.responsible_uid) return undefined;
    const content = checkContent(args.content);
    const projectId = args.project_id ? await context.resolveId(args.project_id, 'project_id') : context.user.inboxProjectId;
    await requireProject(context, projectId);
    const row = this.newItem(context, args, { project_id: projectId, section_id: null, parent_id: null, content }, null);
    await requireTaskFeatures(context, row);
    return row;
  }

  /**
   * The planned tasks in one INSERT; undefined for one whose project the user cannot see, or
   * past what its project's plan allows (run() refuses both): each project's room is counted
   * once for the group, and its tasks take it in order.
   */
  async writeAll(context: CommandContext, plans: readonly NewItem[]): Promise<Array<CommandOutcome | undefined>> {
    const rooms = await taskRooms(this.items, context, plans.map((plan) => plan.project_id));
    const fits = plans.map((plan) => {
      const room = rooms.get(plan.project_id);
      if (room === undefined) return true; // a deleted project: the INSERT leaves it out
      rooms.set(plan.project_id, room - 1);
      return room > 0;
    });
    const kept = plans.filter((_, index) => fits[index]);
    const written = kept.length > 0 ? await this.items.insertAllIfVisible(context.tx.manager, kept, context.version) : [];
    // Their events in one statement too (the group's commands commit or roll back together).
    await recordObjectEvents(context, written.flatMap((item) => (item ? [itemChange(item, 'added', {}, { object: item })] : [])));
    return fits.map((fit) => {
      const item = fit ? written.shift() : undefined;
      if (!item) return undefined;
      context.touch(item.project_id);
      return { createdId: item.id };
    });
  }

  /**
   * The row to write, from the arguments (the assignee already checked); throws the refusal of an
   * invalid one. A task field this command does nothing special with is written as parsed
   * (argValues: a new line of the task table needs no edit here); the rest are its rules.
   */
  private newItem(
    context: CommandContext,
    args: z.infer<typeof argsSchema>,
    placement: { project_id: string; section_id: string | null; parent_id: string | null; content: string },
    responsibleUid: string | null,
  ): NewItem {
    return {
      ...argValues(TASK_FIELDS, 'add', args),
      user_id: context.userId,
      ...placement,
      due: this.dates.due(args.due, context.user) ?? null,
      deadline: this.dates.deadline(args.deadline) ?? null,
      duration: this.dates.duration(args.duration) ?? null,
      labels: args.labels ?? [],
      is_collapsed: args.is_collapsed ?? args.collapsed ?? false,
      assigned_by_uid: responsibleUid ? context.userId : null,
      responsible_uid: responsibleUid,
    };
  }
}

/** Durations and deadlines are plan features (the acting user's): setting one needs it, clearing one does not. */
export async function requireTaskFeatures(context: CommandContext, values: { readonly duration?: unknown; readonly deadline?: unknown }): Promise<void> {
  if (values.duration !== undefined && values.duration !== null) await context.plan.requireFeature('durations');
  if (values.deadline !== undefined && values.deadline !== null) await context.plan.requireFeature('deadlines');
}

/**
 * The caller's role must allow adding tasks in the project. The user's own Inbox is never shared
 * (its owner is its CREATOR): it is not read, so a task added to the Inbox still costs one statement.
 */
async function requireProject(context: CommandContext, projectId: string): Promise<void> {
  if (projectId !== context.user.inboxProjectId) await context.requireAccess(projectId);
}

function projectNotFound(): DomainError {
  return new DomainError('PROJECT_NOT_FOUND', 'Project not found', { argument: 'project_id' });
}
