import { type MailedInvitationReply, type MailedInvitationRequest, type MailedWorkspaceInvitationReply, SyncSubjects } from '@doable/contracts-sync';
import { RpcController } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { MailedInvitations } from './mailed-invitations';
import { MailedWorkspaceInvitations } from './mailed-workspace-invitations';

/** The decline page of an invitation mail (auth-oauth's): the invitation by its id and secret, and its decline, for a project's and a workspace's. */
@RpcController()
export class MailedInvitationsRpcController {
  constructor(
    private readonly invitations: MailedInvitations,
    private readonly workspaceInvitations: MailedWorkspaceInvitations,
  ) {}

  @Handles(SyncSubjects.mailedInvitation)
  look(request: MailedInvitationRequest): Promise<MailedInvitationReply> {
    return this.invitations.look(request);
  }

  @Handles(SyncSubjects.declineMailedInvitation)
  decline(request: MailedInvitationRequest): Promise<MailedInvitationReply> {
    return this.invitations.decline(request);
  }

  @Handles(SyncSubjects.mailedWorkspaceInvitation)
  lookWorkspace(request: MailedInvitationRequest): Promise<MailedWorkspaceInvitationReply> {
    return this.workspaceInvitations.look(request);
  }

  @Handles(SyncSubjects.declineMailedWorkspaceInvitation)
  declineWorkspace(request: MailedInvitationRequest): Promise<MailedWorkspaceInvitationReply> {
    return this.workspaceInvitations.decline(request);
  }
}
