import { type MailedInvitationReply, type MailedInvitationRequest, SyncSubjects } from '@doable/contracts-sync';
import { RpcController } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { MailedInvitations } from './mailed-invitations';

/** The decline page of an invitation mail (auth-oauth's): the invitation by its id and secret, and its decline. */
@RpcController()
export class MailedInvitationsRpcController {
  constructor(private readonly invitations: MailedInvitations) {}

  @Handles(SyncSubjects.mailedInvitation)
  look(request: MailedInvitationRequest): Promise<MailedInvitationReply> {
    return this.invitations.look(request);
  }

  @Handles(SyncSubjects.declineMailedInvitation)
  decline(request: MailedInvitationRequest): Promise<MailedInvitationReply> {
    return this.invitations.decline(request);
  }
}
