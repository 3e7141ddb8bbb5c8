import type { ItemRepository, ProjectInvitationsRepository, ProjectMembersRepository, ProjectRepository, UserProfileRepository } from '@doable/sync-domain';
import type { CommandHandler } from '../../command-handler';
import { DeleteCollaboratorCommand, ProjectLeaveCommand } from './collaborator-removal.command';
import { DeleteInvitationCommand } from './delete-invitation.command';
import { AcceptInvitationCommand, RejectInvitationCommand } from './invitation-answer.command';
import { ProjectChangeRoleCommand } from './project-change-role.command';
import { ShareProjectCommand } from './share-project.command';
import { DEFAULT_INVITATION_BUDGET, type InvitationBudget } from './invitation-budget';
import { defaultGuestRepositories, type GuestRepositories } from './workspace-guests';

export interface SharingRepositories {
  readonly projects: ProjectRepository;
  readonly members: ProjectMembersRepository;
  readonly invitations: ProjectInvitationsRepository;
  readonly items: ItemRepository;
  readonly profiles: UserProfileRepository;
  /** A workspace project's workspace (guests); stateless, fresh ones when not given. */
  readonly guests?: GuestRepositories;
  /** Invitations per sender per window (DEFAULT_INVITATION_BUDGET when not given). */
  readonly invitationBudget?: InvitationBudget;
}

/** Every sharing command: invitations, and the memberships and roles they lead to. */
export function sharingCommands({ projects, members, invitations, items, profiles, guests = defaultGuestRepositories(), invitationBudget = DEFAULT_INVITATION_BUDGET }: SharingRepositories): CommandHandler[] {
  const membership = { projects, members, items };
  return [
    new ShareProjectCommand(projects, members, invitations, profiles, guests, invitationBudget),
    new AcceptInvitationCommand(invitations, profiles, members, projects, guests),
    new RejectInvitationCommand(invitations, profiles),
    new DeleteInvitationCommand(invitations, members, profiles),
    new DeleteCollaboratorCommand(membership, invitations, profiles),
    new ProjectLeaveCommand(membership),
    new ProjectChangeRoleCommand(projects, members),
  ];
}
