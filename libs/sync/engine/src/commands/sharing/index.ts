import { DeleteCollaboratorCommand, ProjectLeaveCommand } from './collaborator-removal.command';
import { DeleteInvitationCommand } from './delete-invitation.command';
import { AcceptInvitationCommand, RejectInvitationCommand } from './invitation-answer.command';
import { ProjectChangeRoleCommand } from './project-change-role.command';
import { ShareProjectCommand } from './share-project.command';

/** Every sharing command: invitations, and the memberships and roles they lead to. */
export const SHARING_COMMANDS = [ShareProjectCommand, AcceptInvitationCommand, RejectInvitationCommand, DeleteInvitationCommand, DeleteCollaboratorCommand, ProjectLeaveCommand, ProjectChangeRoleCommand];
