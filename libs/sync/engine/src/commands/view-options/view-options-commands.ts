import { Injectable } from '@nestjs/common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { DEFAULT_VIEW_SETTINGS, FilterRepository, LabelRepository, ProjectRepository, ViewOptionsRepository } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadFilter } from '../filters/filter-access';
import { loadLabel } from '../labels/label-access';
import { findProject, loadProject } from '../projects/project-access';
import { applyViewSettings, viewKeyArgs, viewSettingsArgs } from './view-options-args';
import { inProject, ownObjects } from '@doable/contracts-sync';

/** Views of one object: their object_id names it, and must be one the user sees. */
type ObjectLoader = (context: CommandContext, value: unknown) => Promise<string>;

/**
 * Which view a command names, as stored: the view type and, for project, label and filter views,
 * the real id of the object (temp ids resolved); other views keep the object_id as given.
 */
@Injectable()
export class ViewKeys {
  private readonly objectViews: Readonly<Record<string, ObjectLoader>>;

  constructor(projects: ProjectRepository, labels: LabelRepository, filters: FilterRepository) {
    this.objectViews = {
      // A member's own view of a project: seeing the project is enough, whatever their role.
      PROJECT: async (context, value) => (await findProject(projects, context, value, 'object_id')).id,
      LABEL: async (context, value) => (await loadLabel(labels, context, value, 'object_id')).id,
      FILTER: async (context, value) => (await loadFilter(filters, context, value, 'object_id')).id,
    };
  }

  /** The stored object id; `check` false only resolves it (a view of a deleted object can still be deleted). */
  async objectId(context: CommandContext, viewType: string, value: string | number | undefined, check: boolean): Promise<string | null> {
    const load = this.objectViews[viewType];
    if (!load) return value === undefined ? null : String(value);
    if (value === undefined) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: object_id', { argument: 'object_id' });
    return check ? load(context, value) : context.resolveId(value, 'object_id');
  }
}

/** view_options_set: how one of the user's views shows tasks; the settings given replace the saved ones, the others stay. */
@Injectable()
export class ViewOptionsSetCommand implements CommandHandler {
  readonly type = 'view_options_set';
  /** The user's own view of a project: seeing it is enough. */
  readonly policy = ownObjects();
  private readonly schema = z.object({ ...viewKeyArgs, ...viewSettingsArgs });

  constructor(
    private readonly views: ViewOptionsRepository,
    private readonly keys: ViewKeys,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const objectId = await this.keys.objectId(context, args.view_type, args.object_id, true);
    const current = await this.views.findForUpdate(context.tx.manager, context.userId, args.view_type, objectId);
    // A deleted view starts again from the defaults.
    const settings = applyViewSettings(current && !current.is_deleted ? current : undefined, args);
    if (current) await this.views.update(context.tx.manager, current.id, { ...settings, is_deleted: false }, context.version);
    else await this.views.insert(context.tx.manager, { userId: context.userId, viewType: args.view_type, objectId }, settings, context.version);
    return {};
  }
}

/** view_options_delete: the view goes back to the defaults; incremental syncs get its tombstone. Deleting an unset view changes nothing. */
@Injectable()
export class ViewOptionsDeleteCommand implements CommandHandler {
  readonly type = 'view_options_delete';
  /** The user's own view of a project: seeing it is enough. */
  readonly policy = ownObjects();
  private readonly schema = z.object(viewKeyArgs);

  constructor(
    private readonly views: ViewOptionsRepository,
    private readonly keys: ViewKeys,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const objectId = await this.keys.objectId(context, args.view_type, args.object_id, false);
    const current = await this.views.findForUpdate(context.tx.manager, context.userId, args.view_type, objectId);
    if (current && !current.is_deleted) await this.views.update(context.tx.manager, current.id, { ...DEFAULT_VIEW_SETTINGS, is_deleted: true }, context.version);
    return {};
  }
}

/** project_view_options_defaults_set: the view settings a project's members start from. */
@Injectable()
export class ProjectViewOptionsDefaultsSetCommand implements CommandHandler {
  readonly type = 'project_view_options_defaults_set';
  /** The view settings every member starts from. */
  readonly policy = inProject('manage');
  private readonly schema = z.object({ project_id: idArg, ...viewSettingsArgs });

  constructor(
    private readonly views: ViewOptionsRepository,
    private readonly projects: ProjectRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const project = await loadProject(this.projects, context, args.project_id, 'project_id');
    const current = await this.views.findDefaultsForUpdate(context.tx.manager, project.id);
    const settings = applyViewSettings(current && !current.is_deleted ? current : undefined, args);
    if (current) await this.views.updateDefaults(context.tx.manager, current.id, { ...settings, is_deleted: false }, context.version);
    else await this.views.insertDefaults(context.tx.manager, project.id, settings, context.version);
    context.touch(project.id);
    return {};
  }
}

export const VIEW_OPTIONS_COMMANDS = [ViewOptionsSetCommand, ViewOptionsDeleteCommand, ProjectViewOptionsDefaultsSetCommand];
