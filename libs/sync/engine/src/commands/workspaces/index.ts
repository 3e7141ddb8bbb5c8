import { FOLDER_COMMANDS } from './folder-commands';
import { WorkspaceAcceptInvitationCommand, WorkspaceRejectInvitationCommand } from './workspace-invitation-answer.command';
import { WorkspaceDeleteInvitationCommand, WorkspaceInviteCommand, WorkspaceResendInviteCommand } from './workspace-invite.command';
import { WorkspaceJoinCommand } from './workspace-join.command';
import { WorkspaceAddCommand, WorkspaceDeleteCommand, WorkspaceLeaveCommand, WorkspaceUpdateCommand } from './workspace-lifecycle.command';
import { WorkspaceDeleteUserCommand, WorkspaceUpdateUserCommand } from './workspace-members.command';
export { WORKSPACE_FILTER_COMMANDS } from './workspace-filter-commands';

/** Every workspace command: the workspace itself, its members, invitations and folders (workspace filters: WORKSPACE_FILTER_COMMANDS). */
export const WORKSPACE_COMMANDS = [
  WorkspaceAddCommand,
  WorkspaceUpdateCommand,
  WorkspaceDeleteCommand,
  WorkspaceLeaveCommand,
  WorkspaceInviteCommand,
  WorkspaceResendInviteCommand,
  WorkspaceDeleteInvitationCommand,
  WorkspaceAcceptInvitationCommand,
  WorkspaceRejectInvitationCommand,
  WorkspaceUpdateUserCommand,
  WorkspaceDeleteUserCommand,
  WorkspaceJoinCommand,
  ...FOLDER_COMMANDS,
];
