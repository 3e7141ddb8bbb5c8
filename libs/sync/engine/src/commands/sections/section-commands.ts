import { Injectable } from '@nestjs/common';
import { storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { ItemRepository, ProjectRepository, requireSectionRoom, requireTaskRoom, SectionRepository } from '@doable/sync-domain';
import { flag, forEachEntry, idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadProject } from '../projects/project-access';
import { loadSection } from './section-access';
import { recordObjectEvents } from '../../object-events';
import { sectionChange } from './section-events';
import { inProject, SECTION_ADD_ARGS, SECTION_UPDATE_ARGS } from '@doable/contracts-sync';

/** section_add (+temp_id): at the end of the project unless an order is given. */
@Injectable()
export class SectionAddCommand implements CommandHandler {
  readonly type = 'section_add';
  readonly policy = inProject('organise', { quantity: 'max_sections' });
  private readonly schema = z.object(SECTION_ADD_ARGS);

  constructor(
    private readonly sections: SectionRepository,
    private readonly projects: ProjectRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const project = await loadProject(this.projects, context, args.project_id, 'project_id');
    await requireSectionRoom(this.projects, this.sections, context, project.id);
    const section = await this.sections.insert(context.tx.manager, { userId: context.userId, projectId: project.id, name: args.name, sectionOrder: args.section_order ?? null }, context.version);
    await recordObjectEvents(context, [sectionChange(section, 'added')]);
    context.touch(project.id);
    return { createdId: section.id };
  }
}

/** section_update: name and collapsed state (`collapsed` in v9, `is_collapsed` in v1). */
@Injectable()
export class SectionUpdateCommand implements CommandHandler {
  readonly type = 'section_update';
  readonly policy = inProject('organise');
  private readonly schema = z.object({ id: idArg, ...SECTION_UPDATE_ARGS, collapsed: flag.optional() });

  constructor(private readonly sections: SectionRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const section = await loadSection(this.sections, context, args.id);
    await this.sections.update(context.tx.manager, [section.id], { name: args.name, is_collapsed: args.is_collapsed ?? args.collapsed }, context.version);
    const renamed = args.name !== undefined && args.name !== section.name;
    await recordObjectEvents(context, [sectionChange({ ...section, name: args.name ?? section.name, is_collapsed: args.is_collapsed ?? args.collapsed ?? section.is_collapsed }, 'updated', renamed ? { last_name: section.name } : {})]);
    context.touch(section.project_id);
    return {};
  }
}

/** section_move: to another project, with its tasks, at the end. */
@Injectable()
export class SectionMoveCommand implements CommandHandler {
  readonly type = 'section_move';
  readonly policy = inProject('organise', { quantity: ['max_sections', 'max_tasks'] });
  private readonly schema = z.object({ id: idArg, project_id: idArg });

  constructor(
    private readonly sections: SectionRepository,
    private readonly projects: ProjectRepository,
    private readonly items: ItemRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const section = await loadSection(this.sections, context, args.id);
    const target = await loadProject(this.projects, context, args.project_id, 'project_id');
    if (target.id === section.project_id) return {};
    // Into another project: the section (unless archived) and its open tasks count against what it holds.
    if (!section.is_archived) await requireSectionRoom(this.projects, this.sections, context, target.id);
    await requireTaskRoom(this.items, context, target.id, await this.items.countOpenInSection(context.tx.manager, section.id));
    const order = await this.sections.nextOrder(context.tx.manager, target.id);
    await this.sections.update(context.tx.manager, [section.id], { project_id: target.id, section_order: order }, context.version);
    const taskIds = await this.items.idsInSections(context.tx.manager, [section.id]);
    await this.items.setState(context.tx.manager, taskIds, { project_id: target.id }, context.version);
    // In another project, a task stays assigned only to a member of it.
    await this.items.unassignNonMembers(context.tx.manager, taskIds, target.id, context.version);
    context.touch(section.project_id, target.id);
    // A move is an update of the section (section:updated); its tasks' own events are not sent.
    await recordObjectEvents(context, [sectionChange({ ...section, project_id: target.id, section_order: order }, 'updated')]);
    return {};
  }
}

/** section_reorder: new positions within the project, each section on its own (a refused id leaves the others applied). */
@Injectable()
export class SectionReorderCommand implements CommandHandler {
  readonly type = 'section_reorder';
  readonly policy = inProject('organise');
  private readonly schema = z.object({ sections: z.array(z.object({ id: idArg, section_order: storedInteger })).min(1).max(1_000) });

  constructor(private readonly sections: SectionRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const entries = parseArgs(this.schema, rawArgs).sections.map((entry) => [String(entry.id), entry] as const);
    return forEachEntry(context, entries, async (entry) => {
      const section = await loadSection(this.sections, context, entry.id);
      await this.sections.update(context.tx.manager, [section.id], { section_order: entry.section_order }, context.version);
      context.touch(section.project_id);
      // A reorder is an update of each section it moves (section:updated).
      if (section.section_order !== entry.section_order) await recordObjectEvents(context, [sectionChange({ ...section, section_order: entry.section_order }, 'updated')]);
    });
  }
}

/** section_archive: the section is archived and its open tasks are completed into history. */
@Injectable()
export class SectionArchiveCommand implements CommandHandler {
  readonly type = 'section_archive';
  readonly policy = inProject('organise');
  private readonly schema = z.object({ id: idArg });

  constructor(
    private readonly sections: SectionRepository,
    private readonly items: ItemRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const section = await loadSection(this.sections, context, parseArgs(this.schema, rawArgs).id);
    const now = new Date();
    await this.sections.update(context.tx.manager, [section.id], { is_archived: true, archived_at: now }, context.version);
    const open = await this.items.idsInSections(context.tx.manager, [section.id], true);
    await this.items.setState(context.tx.manager, open, { checked: true, in_history: true, completed_at: now }, context.version);
    await recordObjectEvents(context, [sectionChange({ ...section, is_archived: true, archived_at: now }, 'archived')]);
    context.touch(section.project_id);
    return {};
  }
}

/** section_unarchive: back to the project (its completed tasks stay completed). */
@Injectable()
export class SectionUnarchiveCommand implements CommandHandler {
  readonly type = 'section_unarchive';
  readonly policy = inProject('organise', { quantity: 'max_sections' });
  private readonly schema = z.object({ id: idArg });

  constructor(
    private readonly sections: SectionRepository,
    private readonly projects: ProjectRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const section = await loadSection(this.sections, context, parseArgs(this.schema, rawArgs).id);
    if (section.is_archived) await requireSectionRoom(this.projects, this.sections, context, section.project_id);
    await this.sections.update(context.tx.manager, [section.id], { is_archived: false, archived_at: null }, context.version);
    await recordObjectEvents(context, [sectionChange({ ...section, is_archived: false, archived_at: null }, 'unarchived')]);
    context.touch(section.project_id);
    return {};
  }
}

/** section_delete: the section and its tasks become tombstones. */
@Injectable()
export class SectionDeleteCommand implements CommandHandler {
  readonly type = 'section_delete';
  readonly policy = inProject('organise');
  private readonly schema = z.object({ id: idArg });

  constructor(
    private readonly sections: SectionRepository,
    private readonly items: ItemRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const section = await loadSection(this.sections, context, parseArgs(this.schema, rawArgs).id);
    await this.items.setState(context.tx.manager, await this.items.idsInSections(context.tx.manager, [section.id]), { is_deleted: true }, context.version);
    await this.sections.update(context.tx.manager, [section.id], { is_deleted: true }, context.version);
    await recordObjectEvents(context, [sectionChange({ ...section, is_deleted: true }, 'deleted')]);
    context.touch(section.project_id);
    return {};
  }
}

export const SECTION_COMMANDS = [SectionAddCommand, SectionUpdateCommand, SectionMoveCommand, SectionReorderCommand, SectionArchiveCommand, SectionUnarchiveCommand, SectionDeleteCommand];
