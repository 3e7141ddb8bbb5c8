import { AuthEvents } from '@doable/contracts-auth';
import { SyncEvents } from '@doable/contracts-sync';
import { EventConsumers, type Tx } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { invitationSentPayload } from '../projects/project-invitations.events';
import { ProjectInvitationsRepository } from '../projects/project-invitations.repository';
import { newInvitationSecret } from '../projects/project-invitations.secret';
import { workspaceInvitationSentPayload } from '../workspaces/workspace-invitations.events';
import { tellUsersChanged } from '../push/users-changed';
import { WorkspaceInvitationsRepository } from '../workspaces/workspace-invitations.repository';
import type { UserProfile } from './user-profile.model';
import { UserProfileRepository } from './user-profile.repository';

/**
 * A new account gets its sync profile and Inbox project, and the invitations that waited for
 * its address are offered to it.
 */
@Injectable()
export class UserCreatedConsumer {
  constructor(
    consumers: EventConsumers,
    private readonly profiles: UserProfileRepository,
    private readonly invitations: ProjectInvitationsRepository,
    private readonly workspaceInvitations: WorkspaceInvitationsRepository = new WorkspaceInvitationsRepository(),
  ) {
    consumers.on('create-profile', AuthEvents.userCreated, async (user, tx) => {
      const created = await profiles.createWithInbox(tx.manager, {
        id: user.userId,
        email: user.email,
        fullName: user.fullName,
        timezone: user.timezone,
        lang: user.lang,
        joinedAt: user.joinedAt,
        hasPassword: user.hasPassword,
      });
      // A redelivered event finds the profile made: its invitations were offered the first time.
      if (!created) return;
      const profile = await profiles.find(tx.manager, user.userId);
      if (profile) {
        await this.offerWaitingInvitations(tx, profile);
        await this.offerWaitingWorkspaceInvitations(tx, profile);
      }
    });
  }

  /**
   * share_project to an address without an account left the invitation waiting (invitee_id
   * null); it is now addressed to this account and sent again, as a shareInvitationSent event
   * with the new inviteeId, which the notifications service turns into the account's
   * share_invitation_sent notification. The secret is made anew: the old one's hash was never
   * given to anyone (no email is sent by sync; a mail sender would hook the notifications
   * service's handling of shareInvitationSent with inviteeId null, its InvitationMailer), so
   * rotating it loses nothing. Stamped with the profile's creation version: the account's first
   * sync is a full one, and the members of each project see the invitee's collaborator record
   * (their open sockets are told, usersChanged, in the same transaction as any other change).
   */
  async offerWaitingInvitations(tx: Tx, profile: UserProfile): Promise<void> {
    const waiting = await this.invitations.waitingFor(tx.manager, profile.email);
    const projectIds = new Set<string>();
    for (const invitation of waiting) {
      const inviter = await this.profiles.find(tx.manager, invitation.inviter_id);
      // The foreign key keeps the inviter's profile.
      if (!inviter) throw new Error(`invitation ${invitation.id} has no inviter profile`);
      const { secret, hash } = newInvitationSecret();
      const offered = await this.invitations.attachInvitee(tx.manager, invitation.id, profile.id, hash, profile.version);
      await tx.emit(SyncEvents.shareInvitationSent, invitationSentPayload(offered, invitation.project_name, inviter, secret));
      projectIds.add(invitation.project_id);
    }
    if (projectIds.size === 0) return;
    const told = await this.profiles.raiseHighWater(tx.manager, profile.id, [...projectIds], profile.version);
    await tellUsersChanged(tx, told, profile.version);
  }

  /**
   * The same for workspace_invite's waiting invitations: addressed to the account, each sent
   * again (workspaceInvitationSent, a new secret) for its workspace_invitation_created
   * notification. No member's view changes (the invitee is no member until they accept).
   */
  async offerWaitingWorkspaceInvitations(tx: Tx, profile: UserProfile): Promise<void> {
    for (const invitation of await this.workspaceInvitations.waitingFor(tx.manager, profile.email)) {
      const inviter = await this.profiles.find(tx.manager, invitation.inviter_id);
      if (!inviter) throw new Error(`workspace invitation ${invitation.id} has no inviter profile`);
      const { secret, hash } = newInvitationSecret();
      const offered = await this.workspaceInvitations.attachInvitee(tx.manager, invitation.id, profile.id, hash, profile.version);
      await tx.emit(SyncEvents.workspaceInvitationSent, workspaceInvitationSentPayload(offered, invitation.workspace_name, inviter, secret));
    }
  }
}
