import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { ItemRepository, notificationPersonOf, type Project, ProjectRepository, requireProjectRoom, requireWorkspaceProjectRoom, SectionRepository, UserProfileRepository } from '@doable/sync-domain';
import { inProject, PROJECT_DELETE, SyncEvents } from '@doable/contracts-sync';
import { forEachId, idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadProject, refuseInbox } from './project-access';
import { recordObjectEvents } from '../../object-events';
import { projectChange } from './project-events';

const argsSchema = z.object({ id: idArg.optional(), ids: z.array(idArg).max(100).optional() });

/**
 * The project and its sub-projects, each checked as the project is: a sub-project the user may
 * not archive or delete (one another member created, where this user is no more than a member,
 * or not one at all) refuses the command rather than going with its parent.
 */
async function accessibleSubtree(projects: ProjectRepository, context: CommandContext, projectId: string): Promise<Project[]> {
  const subtree = await projects.subtree(context.tx.manager, projectId);
  for (const project of subtree.slice(1)) await context.requireAccess(project.id);
  return subtree;
}

/** project_archive: the project and its sub-projects leave the active set (their tasks stay with them). */
@Injectable()
export class ProjectArchiveCommand implements CommandHandler {
  readonly type = 'project_archive';
  readonly policy = inProject('manage');

  constructor(
    private readonly projects: ProjectRepository,
    private readonly profiles: UserProfileRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    return forEachId(context, parseArgs(argsSchema, rawArgs), async (id) => {
      const project = await loadProject(this.projects, context, id);
      refuseInbox(project, 'archived');
      const projects = await accessibleSubtree(this.projects, context, project.id);
      const subtree = projects.map((candidate) => candidate.id);
      await this.projects.setState(context.tx.manager, subtree, { is_archived: true }, context.version);
      await recordObjectEvents(context, projects.filter((candidate) => candidate.id === project.id || !candidate.is_archived).map((candidate) => projectChange({ ...candidate, is_archived: true }, 'archived')));
      context.touch(...subtree);
      if (project.workspace_id !== null && !project.is_archived) await this.announce(context, project.id, project.name, project.workspace_id);
    });
  }

  /**
   * A workspace project archived: its collaborators are told (the notifications service makes
   * each a project_archived notification) and the workspace's active project count moved.
   * Archived sub-projects go unannounced: they went with the one announced.
   */
  private async announce(context: CommandContext, projectId: string, projectName: string, workspaceId: string): Promise<void> {
    const actor = await this.profiles.find(context.tx.manager, context.userId);
    if (!actor) throw new Error(`user ${context.userId} runs commands but has no profile`);
    await context.tx.emit(SyncEvents.workspaceProjectArchived, {
      projectId,
      projectName,
      workspaceId,
      actor: notificationPersonOf(actor),
      memberIds: await this.projects.memberIds(context.tx.manager, projectId),
    });
    context.touchWorkspace(workspaceId);
  }
}

/** project_unarchive: back to the active set. */
@Injectable()
export class ProjectUnarchiveCommand implements CommandHandler {
  readonly type = 'project_unarchive';
  readonly policy = inProject('manage', { quantity: 'max_projects' });

  constructor(private readonly projects: ProjectRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    return forEachId(context, parseArgs(argsSchema, rawArgs), async (id) => {
      const project = await loadProject(this.projects, context, id);
      // Active again, among its owner's projects: their plan's count (an ADMIN may unarchive
      // another's project; that request is not ordered with the owner's own, a race left open).
      // A workspace project counts against its workspace's plan.
      if (project.is_archived && project.workspace_id !== null) await requireWorkspaceProjectRoom(this.projects, context, project.workspace_id);
      else if (project.is_archived) await requireProjectRoom(this.projects, context, project.owner_id);
      await this.projects.setState(context.tx.manager, [project.id], { is_archived: false }, context.version);
      await recordObjectEvents(context, [projectChange({ ...project, is_archived: false }, 'unarchived')]);
      context.touch(project.id);
      if (project.workspace_id !== null) context.touchWorkspace(project.workspace_id);
    });
  }
}

/** project_delete: the project, its sub-projects and everything in them (sections, tasks) become tombstones. */
@Injectable()
export class ProjectDeleteCommand implements CommandHandler {
  readonly type = 'project_delete';
  readonly policy = inProject('delete', { scopes: PROJECT_DELETE, membership: 'projects' });

  constructor(
    private readonly projects: ProjectRepository,
    private readonly sections: SectionRepository,
    private readonly items: ItemRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    // Sub-projects an earlier id of the same command deleted with their parent: done, not missing.
    const deleted = new Set<string>();
    return forEachId(context, parseArgs(argsSchema, rawArgs), async (id) => {
      if (deleted.has(await context.resolveId(id, 'id'))) return;
      const project = await loadProject(this.projects, context, id);
      refuseInbox(project, 'deleted');
      const projects = await accessibleSubtree(this.projects, context, project.id);
      const subtree = projects.map((candidate) => candidate.id);
      const itemIds = await this.items.idsInProjects(context.tx.manager, subtree);
      await this.items.setState(context.tx.manager, itemIds, { is_deleted: true }, context.version);
      await this.sections.update(context.tx.manager, await this.sections.idsInProjects(context.tx.manager, subtree), { is_deleted: true }, context.version);
      await this.projects.setState(context.tx.manager, subtree, { is_deleted: true }, context.version);
      // One event per project deleted (its sub-projects went too); the tasks and sections in
      // them are not announced one by one: they went with their project.
      await recordObjectEvents(context, projects.map((candidate) => projectChange({ ...candidate, is_deleted: true }, 'deleted')));
      context.touch(...subtree);
      subtree.forEach((projectId) => deleted.add(projectId));
    });
  }
}
