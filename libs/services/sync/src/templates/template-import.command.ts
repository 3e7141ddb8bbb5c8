import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { type CommandContext, type CommandHandler, type CommandOutcome, isLabelPlanRefusal, parseArgs } from '@doable/sync-engine';
import type { LabelRepository, ProjectMembersRepository } from '@doable/sync-domain';
import type { TemplateNote, TemplateTask, TemplateTree } from './todoist-csv';
import { inProject } from '@doable/contracts-sync';

/** The internal command a template import runs as (CommandExecutor.runInternal); never a Sync API command. */
export const TEMPLATE_IMPORT_COMMAND = 'template_import';

const argsSchema = z.object({
  /** Import into this project... */
  project_id: z.string().optional(),
  /** ...or into a new project made with these arguments (project_add's). */
  new_project: z.object({ name: z.string(), workspace_id: z.string().optional() }).optional(),
  // Built by TemplatesService from a parsed file, never by a client: its shape is the parser's.
  tree: z.custom<TemplateTree>((value) => typeof value === 'object' && value !== null),
});

/** The handlers an import is made of, by type: it composes them, it does not repeat them. */
const PARTS = ['project_add', 'section_add', 'item_add', 'note_add', 'label_add'] as const;
type Part = (typeof PARTS)[number];

const ISO_DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?Z?)?$/;

/**
 * template_import: a template's sections, tasks (with subtasks, labels, dates, durations,
 * deadlines) and comments added to a project, or to a new one, as project_add, section_add,
 * item_add, note_add and label_add would add them one by one: the same checks, plan limits and
 * events. One command, so one savepoint, one version, one uuid: a part refused (a plan limit, a
 * date no parser reads) refuses the whole import and undoes what the parts before it wrote.
 * Its created id is the project the template went into.
 */
export class TemplateImportCommand implements CommandHandler {
  readonly type = TEMPLATE_IMPORT_COMMAND;
  /** It adds sections, tasks and comments: an editor's work. */
  readonly policy = inProject('edit', { quantity: ['max_projects', 'max_sections', 'max_tasks', 'max_labels'] });
  private readonly parts: ReadonlyMap<Part, CommandHandler>;

  constructor(
    handlers: readonly CommandHandler[],
    private readonly labels: LabelRepository,
    private readonly members: ProjectMembersRepository,
  ) {
    const byType = new Map(handlers.map((handler) => [handler.type, handler]));
    this.parts = new Map(
      PARTS.map((type) => {
        const handler = byType.get(type);
        if (!handler) throw new Error(`template import needs the ${type} command handler`);
        return [type, handler] as const;
      }),
    );
  }

  async run(commandContext: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(argsSchema, rawArgs);
    // Every id an import names is one its parts just created: no temp ids to resolve.
    const context: CommandContext = { ...commandContext, resolveId: (value) => Promise.resolve(String(value)) };
    let projectId = args.project_id;
    if (args.new_project) {
      const viewStyle = args.tree.meta['view_style'];
      const { createdId } = await this.runPart(context, 'project_add', {
        name: args.new_project.name,
        ...(args.new_project.workspace_id ? { workspace_id: args.new_project.workspace_id } : {}),
        ...(viewStyle === 'list' || viewStyle === 'board' || viewStyle === 'calendar' ? { view_style: viewStyle } : {}),
      });
      projectId = createdId;
    }
    if (!projectId) throw new DomainError('INTERNAL');
    const target = projectId;
    const labelNames = new Map<string, string>();
    const addNotes = async (notes: readonly TemplateNote[], on: Record<string, string>) => {
      for (const note of notes) await this.runPart(context, 'note_add', { ...on, content: note.content });
    };
    const addTasks = async (tasks: readonly TemplateTask[], place: { section_id?: string; parent_id?: string }) => {
      for (const task of tasks) {
        const { createdId } = await this.runPart(context, 'item_add', {
          content: task.content,
          description: task.description,
          ...(place.parent_id ? { parent_id: place.parent_id } : place.section_id ? { section_id: place.section_id } : { project_id: target }),
          priority: task.priority,
          labels: await this.ensureLabels(context, task.labels, labelNames),
          ...(task.date ? { due: dueOf(task) } : {}),
          ...(task.deadline ? { deadline: { date: task.deadline, ...(task.deadlineLang ? { lang: task.deadlineLang } : {}) } } : {}),
          ...(task.duration ? { duration: task.duration } : {}),
          ...(await this.responsibleOf(context, target, task)),
        });
        if (!createdId) throw new DomainError('INTERNAL');
        await addNotes(task.notes, { item_id: createdId });
        await addTasks(task.children, { parent_id: createdId });
      }
    };
    await addNotes(args.tree.notes, { project_id: target });
    await addTasks(args.tree.tasks, {});
    for (const section of args.tree.sections) {
      const { createdId } = await this.runPart(context, 'section_add', { name: section.name, project_id: target });
      if (!createdId) throw new DomainError('INTERNAL');
      await addTasks(section.tasks, { section_id: createdId });
    }
    return { createdId: target };
  }

  /**
   * A task's assignee is kept when they are an active member of the project it lands in (the
   * same account, a shared project); otherwise dropped, as assigning to a stranger is refused
   * and the rest of the template is still wanted.
   */
  private async responsibleOf(context: CommandContext, projectId: string, task: TemplateTask): Promise<{ responsible_uid?: string }> {
    const id = task.responsible?.id;
    if (!id || !(await this.members.findActiveById(context.tx.manager, projectId, id))) return {};
    return { responsible_uid: id };
  }

  /**
   * Personal labels by name, as quick add makes them: an existing label keeps its own spelling,
   * an unknown one is created unless the plan refuses it (the task keeps the name: label names
   * on tasks are free).
   */
  private async ensureLabels(context: CommandContext, names: readonly string[], known: Map<string, string>): Promise<string[]> {
    const result: string[] = [];
    for (const name of names) {
      const key = name.toLowerCase();
      let spelled = known.get(key);
      if (spelled === undefined) {
        const existing = await this.labels.findByNameForUpdate(context.tx.manager, context.userId, name);
        spelled = existing?.name ?? name;
        if (!existing) {
          await this.runPart(context, 'label_add', { name }).catch((error: unknown) => {
            if (!isLabelPlanRefusal(error)) throw error;
          });
        }
        known.set(key, spelled);
      }
      result.push(spelled);
    }
    return result;
  }

  private runPart(context: CommandContext, type: Part, args: Record<string, unknown>): Promise<CommandOutcome> {
    return this.parts.get(type)!.run(context, args);
  }
}

/** An ISO date (what export writes for a one-off date) is taken as a date; anything else is read as words. */
function dueOf(task: TemplateTask): Record<string, string> {
  const text = task.date!;
  return {
    ...(ISO_DATE.test(text) ? { date: text } : { string: text }),
    ...(task.dateLang ? { lang: task.dateLang } : {}),
    ...(task.timezone ? { timezone: task.timezone } : {}),
  };
}
