import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { type DateContext, parseDue } from '@doable/sync-dates';
import { type LabelRepository, type ProjectRepository, type SectionRepository, sharedProjectPeople } from '@doable/sync-domain';
import { parseQuickAdd } from './quick-add.parser';
import { parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { isLabelPlanRefusal } from '../labels/label-commands';
import { inProject, TASK_ADD } from '@doable/contracts-sync';

/** The internal command quick add runs as (CommandExecutor.runInternal); never a Sync API command. */
export const QUICK_ADD_COMMAND = 'quick_add';

const argsSchema = z.object({
  text: z.string(),
  note: z.string().nullish(),
  reminder: z.string().nullish(),
  auto_reminder: z.boolean().optional(),
});

/** The handlers quick add is made of, by type: it composes them, it does not repeat them. */
const PARTS = ['item_add', 'label_add', 'note_add', 'reminder_add'] as const;
type Part = (typeof PARTS)[number];

/**
 * quick_add: one task line parsed into a task (project, section, assignee, labels, priority, due,
 * deadline, description), with an optional comment and reminder. The line is read against the
 * user's projects and sections in the command's transaction; the writes are those of item_add,
 * label_add (for labels the user does not have yet), note_add and reminder_add, run with this
 * command's context: one command, so one savepoint, one version, one uuid. A part refused
 * refuses the whole quick add and undoes what the parts before it wrote.
 */
export class ItemQuickAddCommand implements CommandHandler {
  readonly type = QUICK_ADD_COMMAND;
  /** Quick add adds a task: what item_add needs. */
  readonly policy = inProject('edit', { scopes: TASK_ADD, quantity: ['max_tasks', 'max_labels', 'max_reminders_time'] });
  private readonly parts: ReadonlyMap<Part, CommandHandler>;

  constructor(
    handlers: readonly CommandHandler[],
    private readonly projects: ProjectRepository,
    private readonly sections: SectionRepository,
    private readonly labels: LabelRepository,
  ) {
    const byType = new Map(handlers.map((handler) => [handler.type, handler]));
    this.parts = new Map(
      PARTS.map((type) => {
        const handler = byType.get(type);
        if (!handler) throw new Error(`quick add needs the ${type} command handler`);
        return [type, handler] as const;
      }),
    );
  }

  async run(commandContext: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    // The parts are handed only ids just read or just created here, never a client's temp id:
    // they are taken as they are (no temp id lookup, which would cost a query each).
    const context: CommandContext = { ...commandContext, resolveId: (value) => Promise.resolve(String(value)) };
    const manager = context.tx.manager;
    const dates: DateContext = { now: new Date(), timezone: context.user.timezone, startDay: context.user.startDay, nextWeekDay: context.user.nextWeek };
    const asDue = (text: string) => {
      try {
        return parseDue({ string: text }, dates);
      } catch {
        return null;
      }
    };

    const projects = await this.projects.listActive(manager, context.userId);
    const sections = await this.sections.listActive(manager, context.userId);
    const parsed = parseQuickAdd(args.text, {
      projects: projects.map((project) => ({ id: project.id, name: project.name })),
      sections: sections.map((section) => ({ id: section.id, projectId: section.project_id, name: section.name })),
      collaborators: await sharedProjectPeople(manager, context.userId),
      inboxProjectId: context.user.inboxProjectId,
      isDate: (text) => asDue(text) !== null,
    });
    const labelNames = await this.ensureLabels(context, parsed.labels);
    const deadline = parsed.deadlineString ? asDue(parsed.deadlineString) : null;

    const { createdId } = await this.runPart(context, 'item_add', {
      content: parsed.content,
      description: parsed.description ?? undefined,
      project_id: parsed.projectId ?? undefined,
      section_id: parsed.sectionId ?? undefined,
      responsible_uid: parsed.responsibleUid ?? undefined,
      labels: labelNames,
      priority: parsed.priority ?? undefined,
      due: parsed.dueString ? { string: parsed.dueString } : undefined,
      deadline: deadline ? { date: deadline.date.slice(0, 10) } : undefined,
      auto_reminder: args.auto_reminder ?? false,
    });
    if (!createdId) throw new DomainError('INTERNAL');
    if (args.note) await this.runPart(context, 'note_add', { item_id: createdId, content: args.note });
    if (args.reminder) await this.runPart(context, 'reminder_add', { item_id: createdId, type: 'absolute', due: { string: args.reminder } });
    return { createdId };
  }

  /**
   * Personal labels by name: an existing label keeps its own spelling, an unknown one is created.
   * One the plan does not allow (no `labels` feature, max_labels reached) is not created, and the
   * task still gets the name: label names on tasks are free, and the task the user typed is what
   * they asked for (label_add refuses before it writes anything, so nothing is left to undo).
   */
  private async ensureLabels(context: CommandContext, names: readonly string[]): Promise<string[]> {
    const result: string[] = [];
    for (const name of names) {
      const existing = await this.labels.findByNameForUpdate(context.tx.manager, context.userId, name);
      if (existing) result.push(existing.name);
      else {
        await this.runPart(context, 'label_add', { name }).catch((error: unknown) => {
          if (!isLabelPlanRefusal(error)) throw error;
        });
        result.push(name);
      }
    }
    return result;
  }

  private runPart(context: CommandContext, type: Part, args: Record<string, unknown>): Promise<CommandOutcome> {
    return this.parts.get(type)!.run(context, args);
  }
}
