import { FolderRepository, type ItemRepository, type ProjectRepository, type SectionRepository, type UserProfileRepository, WorkspaceInvitationsRepository, type WorkspaceMembersRepository, type WorkspaceRepository } from '@doable/sync-domain';
import type { CommandHandler } from '../../command-handler';
import { DEFAULT_INVITATION_BUDGET, type InvitationBudget } from '../sharing/invitation-budget';
import { folderCommands } from './folder-commands';
import { WorkspaceAcceptInvitationCommand, WorkspaceRejectInvitationCommand } from './workspace-invitation-answer.command';
import { WorkspaceDeleteInvitationCommand, WorkspaceInviteCommand, WorkspaceResendInviteCommand } from './workspace-invite.command';
import { WorkspaceJoinCommand } from './workspace-join.command';
export { workspaceFilterCommands } from './workspace-filter-commands';
import { WorkspaceAddCommand, WorkspaceDeleteCommand, WorkspaceLeaveCommand, WorkspaceUpdateCommand } from './workspace-lifecycle.command';
import { WorkspaceDeleteUserCommand, WorkspaceUpdateUserCommand } from './workspace-members.command';

export interface WorkspaceRepositories {
  readonly workspaces: WorkspaceRepository;
  readonly members: WorkspaceMembersRepository;
  readonly projects: ProjectRepository;
  readonly sections: SectionRepository;
  readonly items: ItemRepository;
  readonly profiles: UserProfileRepository;
  /** Stateless; made here when not given (the service and the harness need not know of them). */
  readonly invitations?: WorkspaceInvitationsRepository;
  readonly folders?: FolderRepository;
  /** Invitations per sender per window (DEFAULT_INVITATION_BUDGET when not given). */
  readonly invitationBudget?: InvitationBudget;
}

/** Every workspace command: the workspace itself, its members, invitations and folders (workspace filters: workspaceFilterCommands). */
export function workspaceCommands({
  workspaces,
  members,
  projects,
  sections,
  items,
  profiles,
  invitations = new WorkspaceInvitationsRepository(),
  folders = new FolderRepository(),
  invitationBudget = DEFAULT_INVITATION_BUDGET,
}: WorkspaceRepositories): CommandHandler[] {
  const invitationRepositories = { workspaces, members, invitations, profiles };
  return [
    new WorkspaceAddCommand(workspaces),
    new WorkspaceUpdateCommand(workspaces, members),
    new WorkspaceDeleteCommand(workspaces, members, projects, sections, items, profiles, invitations),
    new WorkspaceLeaveCommand(workspaces, members),
    new WorkspaceInviteCommand(invitationRepositories, invitationBudget),
    new WorkspaceResendInviteCommand(invitationRepositories, invitationBudget),
    new WorkspaceDeleteInvitationCommand(invitationRepositories),
    new WorkspaceAcceptInvitationCommand(invitationRepositories),
    new WorkspaceRejectInvitationCommand(invitationRepositories),
    new WorkspaceUpdateUserCommand(invitationRepositories),
    new WorkspaceDeleteUserCommand(invitationRepositories),
    new WorkspaceJoinCommand(invitationRepositories),
    ...folderCommands(folders, projects),
  ];
}
