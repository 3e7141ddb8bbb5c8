import type { ItemRepository } from '../../../items/item.repository';
import type { ProjectRepository } from '../../../projects/project.repository';
import type { SectionRepository } from '../../../sections/section.repository';
import type { UserProfileRepository } from '../../../users/user-profile.repository';
import type { WorkspaceMembersRepository } from '../../../workspaces/workspace-members.repository';
import type { WorkspaceRepository } from '../../../workspaces/workspace.repository';
import { FolderRepository } from '../../../workspaces/folder.repository';
import type { CommandHandler } from '../command-handler';
import { folderCommands } from './folder-commands';
import { WorkspaceAddCommand, WorkspaceDeleteCommand, WorkspaceLeaveCommand, WorkspaceUpdateCommand } from './workspace-lifecycle.command';

export interface WorkspaceRepositories {
  readonly workspaces: WorkspaceRepository;
  readonly members: WorkspaceMembersRepository;
  readonly projects: ProjectRepository;
  readonly sections: SectionRepository;
  readonly items: ItemRepository;
  readonly profiles: UserProfileRepository;
  /** Stateless; a fresh one when not given. */
  readonly folders?: FolderRepository;
}

/** Every workspace command: the workspace itself, its members and invitations. */
export function workspaceCommands({ workspaces, members, projects, sections, items, profiles, folders = new FolderRepository() }: WorkspaceRepositories): CommandHandler[] {
  return [
    new WorkspaceAddCommand(workspaces),
    new WorkspaceUpdateCommand(workspaces, members),
    new WorkspaceDeleteCommand(workspaces, members, projects, sections, items, profiles),
    new WorkspaceLeaveCommand(workspaces, members),
    ...folderCommands(folders, projects),
  ];
}
