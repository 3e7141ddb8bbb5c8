import { FolderRepository, type ItemRepository, ProjectInvitationsRepository, ProjectMembersRepository, type ProjectRepository, type SectionRepository, UserProfileRepository, WorkspaceMembersRepository, WorkspaceRepository } from '@doable/sync-domain';
import type { CommandHandler } from '../../command-handler';
import { ProjectAddCommand } from './project-add.command';
import { ProjectAddFlatCommand, ProjectUpdateOrdersIndentsCommand } from './project-flat-place.command';
import { ProjectArchiveCommand, ProjectDeleteCommand, ProjectUnarchiveCommand } from './project-lifecycle.command';
import { ProjectMoveCommand } from './project-move.command';
import { ProjectReorderCommand } from './project-reorder.command';
import { ProjectUpdateCommand } from './project-update.command';
import { ProjectJoinCommand } from './project-join.command';
import { ProjectMoveToPersonalCommand, ProjectMoveToWorkspaceCommand } from './project-workspace-move.command';
import type { ProjectWorkspaceRepositories } from './workspace-project';

/**
 * What the workspace project commands need besides the project repositories. The repositories
 * hold no state (each method runs on the caller's transaction), so callers that do not give
 * them (specs of personal projects) get fresh ones.
 */
export interface ProjectCommandExtras extends ProjectWorkspaceRepositories {
  readonly members: ProjectMembersRepository;
  readonly invitations: ProjectInvitationsRepository;
  readonly profiles: UserProfileRepository;
}

function defaultExtras(): ProjectCommandExtras {
  return {
    workspaces: new WorkspaceRepository(),
    workspaceMembers: new WorkspaceMembersRepository(),
    folders: new FolderRepository(),
    members: new ProjectMembersRepository(),
    invitations: new ProjectInvitationsRepository(),
    profiles: new UserProfileRepository(),
  };
}

/** Every project command. */
export function projectCommands(projects: ProjectRepository, sections: SectionRepository, items: ItemRepository, extras: ProjectCommandExtras = defaultExtras()): CommandHandler[] {
  const add = new ProjectAddCommand(projects, extras);
  return [
    add,
    // Placing by Sync v7's flat positions: see project-flat-place.command.ts.
    new ProjectAddFlatCommand(projects, add),
    new ProjectUpdateOrdersIndentsCommand(projects),
    new ProjectUpdateCommand(projects, extras),
    new ProjectMoveCommand(projects),
    new ProjectReorderCommand(projects),
    new ProjectArchiveCommand(projects, extras.profiles),
    new ProjectUnarchiveCommand(projects),
    new ProjectDeleteCommand(projects, sections, items),
    // Workspace projects: joining one, moving one between personal and a workspace.
    new ProjectJoinCommand(projects, extras.members, extras.invitations, extras),
    new ProjectMoveToWorkspaceCommand(projects, extras.invitations, extras),
    new ProjectMoveToPersonalCommand(projects, extras.members, extras.invitations, extras),
  ];
}
