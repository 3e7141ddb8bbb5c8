import { type MailedInvitationRequest, type MailedWorkspaceInvitationReply, SyncEvents, workspaceRolesThat } from '@doable/contracts-sync';
import { Database } from '@doable/shared-runtime';
import {
  UserProfileRepository,
  type WorkspaceFacts,
  type WorkspaceInvitation,
  workspaceInvitationAnsweredPayload,
  WorkspaceInvitationsRepository,
  WorkspaceMembersRepository,
  WorkspaceRepository,
} from '@doable/sync-domain';
import { Injectable } from '@nestjs/common';
import { type MailedAnswer, MailedInvitationAnswers } from './mailed-invitation-answers';

/**
 * A workspace invitation to an address without an account, answered from its mail
 * (MailedInvitationAnswers): declining is what biz_reject_invitation does, with the address as
 * the one who declined. The invitation ends rejected; its inviter is told
 * (workspace_invitation_rejected, from the answered event); the workspace is stamped so its
 * admins' pending_invitations lose the address at their next sync.
 */
@Injectable()
export class MailedWorkspaceInvitations {
  private readonly answers: MailedInvitationAnswers<WorkspaceInvitation, WorkspaceFacts>;

  constructor(database: Database, invitations: WorkspaceInvitationsRepository, profiles: UserProfileRepository, members: WorkspaceMembersRepository, workspaces: WorkspaceRepository) {
    this.answers = new MailedInvitationAnswers(database, profiles, {
      invitations,
      // Locked for a decline, as biz_reject_invitation locks it: membership counts change under it.
      place: (manager, invitation, forDecline) => invitations.workspaceFacts(manager, invitation.workspace_id, forDecline),
      decline: async (tx, change, invitation, workspace, actor) => {
        await invitations.answer(tx.manager, invitation.id, 'rejected', change.version);
        await workspaces.touch(tx.manager, workspace.id, change.version);
        change.touchWorkspaces(workspace.id);
        const adminIds = await members.memberIds(tx.manager, workspace.id, workspaceRolesThat('administer'));
        await tx.emit(SyncEvents.workspaceInvitationAnswered, workspaceInvitationAnsweredPayload(invitation, workspace, actor, 'rejected', adminIds));
      },
    });
  }

  /** Where the invitation stands, and who invited to which workspace. Changes nothing. */
  async look(request: MailedInvitationRequest): Promise<MailedWorkspaceInvitationReply> {
    return workspaceReply(await this.answers.look(request));
  }

  /** Declines it, once (MailedInvitationAnswers.decline). */
  async decline(request: MailedInvitationRequest): Promise<MailedWorkspaceInvitationReply> {
    return workspaceReply(await this.answers.decline(request));
  }
}

function workspaceReply({ outcome, invitation }: MailedAnswer): MailedWorkspaceInvitationReply {
  if (!invitation) return { outcome };
  return { outcome, invitation: { inviterName: invitation.inviterName, inviterEmail: invitation.inviterEmail, workspaceName: invitation.placeName } };
}
