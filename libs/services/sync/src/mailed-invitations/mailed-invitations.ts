import type { MailedInvitationReply, MailedInvitationRequest } from '@doable/contracts-sync';
import { Database } from '@doable/shared-runtime';
import { type ProjectInvitation, ProjectInvitationsRepository, UserProfileRepository } from '@doable/sync-domain';
import { recordInvitationAnswer } from '@doable/sync-engine';
import { Injectable } from '@nestjs/common';
import { type MailedAnswer, MailedInvitationAnswers } from './mailed-invitation-answers';

/**
 * A project invitation to an address without an account, answered from its mail
 * (MailedInvitationAnswers): declining is what reject_invitation does (recordInvitationAnswer:
 * the rejected state, the answered event the sender's share_invitation_rejected notification is
 * made from, the members' views), with the address as the one who declined.
 */
@Injectable()
export class MailedInvitations {
  private readonly answers: MailedInvitationAnswers<ProjectInvitation, { readonly name: string }>;

  constructor(database: Database, invitations: ProjectInvitationsRepository, profiles: UserProfileRepository) {
    this.answers = new MailedInvitationAnswers(database, profiles, {
      invitations,
      place: async (manager, invitation) => {
        const name = await invitations.projectName(manager, invitation.project_id);
        return name === undefined ? undefined : { name };
      },
      decline: (tx, change, invitation, project, actor) =>
        recordInvitationAnswer({ tx, version: change.version, touch: change.touch }, invitations, invitation, project.name, 'rejected', actor),
    });
  }

  /** Where the invitation stands, and who invited to which project. Changes nothing. */
  async look(request: MailedInvitationRequest): Promise<MailedInvitationReply> {
    return projectReply(await this.answers.look(request));
  }

  /** Declines it, once (MailedInvitationAnswers.decline). */
  async decline(request: MailedInvitationRequest): Promise<MailedInvitationReply> {
    return projectReply(await this.answers.decline(request));
  }
}

function projectReply({ outcome, invitation }: MailedAnswer): MailedInvitationReply {
  if (!invitation) return { outcome };
  return { outcome, invitation: { inviterName: invitation.inviterName, inviterEmail: invitation.inviterEmail, projectName: invitation.placeName } };
}
