import { hashToken, INVITATION_DECLINE_PATH, type SignupInvitationKind } from '@doable/contracts-auth';
import type { ShareInvitationSent, WorkspaceInvitationSent } from '@doable/contracts-sync';
import type { Tx } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { MailOutbox } from './mail-outbox';
import { MAIL_SETTINGS, type MailSettings } from './mail-settings';

/**
 * Delivers an invitation to an address that has no account yet (share_project or
 * workspace_invite to a stranger). Such an invitation waits in sync; its mail's link opens the
 * sign-up page with the invitation, and the account made there joins the project or workspace
 * (sync accepts it when it makes the profile). The mail also links to its decline page.
 * Called inside the consumer's transaction; a redelivered event calls it again.
 */
export interface InvitationMailer {
  /** The payload carries the secret, which the accept link needs; it must never be logged. */
  sendInvitation(invitation: ShareInvitationSent, tx: Tx): Promise<void>;
  /** The same for a workspace's invitation. */
  sendWorkspaceInvitation(invitation: WorkspaceInvitationSent, tx: Tx): Promise<void>;
}

export const INVITATION_MAILER = Symbol('INVITATION_MAILER');

/**
 * The sign-up page with the invitation: what the mail links to (a secret link). A workspace's
 * says its kind (`invitation_kind`); a project's says none, as the links mailed before did.
 */
export function invitationLink(
  publicUrl: string,
  invitation: Pick<ShareInvitationSent, 'invitationId' | 'invitationSecret' | 'inviteeEmail'>,
  kind: SignupInvitationKind = 'project',
): string {
  const query = new URLSearchParams({ invitation_id: invitation.invitationId, invitation_secret: invitation.invitationSecret, email: invitation.inviteeEmail });
  if (kind !== 'project') query.set('invitation_kind', kind);
  return `${publicUrl}/auth/signup?${query.toString()}`;
}

/**
 * The decline page of an invitation mailed to a stranger (auth-oauth's): it shows the invitation
 * and declines it only when its button is pressed, so a mail scanner following the link declines
 * nothing. A secret link, like the sign-up one, and like it naming a workspace's kind (a
 * project's names none, as the links mailed before did).
 */
export function invitationDeclineLink(publicUrl: string, invitation: Pick<ShareInvitationSent, 'invitationId' | 'invitationSecret'>, kind: SignupInvitationKind = 'project'): string {
  const query = new URLSearchParams({ invitation_id: invitation.invitationId, invitation_secret: invitation.invitationSecret });
  if (kind !== 'project') query.set('invitation_kind', kind);
  return `${publicUrl}${INVITATION_DECLINE_PATH}?${query.toString()}`;
}

/** A mail key per invitation and secret: the same invitation sent again (a new secret) is mailed again. */
const invitationKey = (prefix: string, invitation: { readonly invitationId: string; readonly invitationSecret: string }): string =>
  `${prefix}:${invitation.invitationId}:${hashToken(invitation.invitationSecret).slice(0, 32)}`;

/**
 * Queues the invitation's mail. Keyed by the invitation and its secret's hash: a redelivered
 * event queues nothing more, while the same invitation sent again (a new secret, as
 * workspace_resend_invite makes) is mailed again.
 */
@Injectable()
export class QueueingInvitationMailer implements InvitationMailer {
  constructor(
    private readonly outbox: MailOutbox,
    @Inject(MAIL_SETTINGS) private readonly settings: MailSettings,
  ) {}

  async sendInvitation(invitation: ShareInvitationSent, tx: Tx): Promise<void> {
    await this.outbox.queue(tx, {
      key: invitationKey('share-invitation', invitation),
      kind: 'share-invitation',
      to: invitation.inviteeEmail,
      lang: 'en',
      data: {
        inviterName: invitation.inviter.full_name,
        inviterEmail: invitation.inviter.email,
        projectName: invitation.projectName,
        message: invitation.message,
        link: invitationLink(this.settings.publicUrl, invitation),
        declineLink: invitationDeclineLink(this.settings.publicUrl, invitation),
      },
    });
  }

  async sendWorkspaceInvitation(invitation: WorkspaceInvitationSent, tx: Tx): Promise<void> {
    await this.outbox.queue(tx, {
      // Its own prefix: workspace and project invitations are numbered apart.
      key: invitationKey('workspace-invitation', invitation),
      kind: 'workspace-invitation',
      to: invitation.inviteeEmail,
      lang: 'en',
      data: {
        inviterName: invitation.inviter.full_name,
        inviterEmail: invitation.inviter.email,
        workspaceName: invitation.workspaceName,
        role: invitation.role,
        link: invitationLink(this.settings.publicUrl, invitation, 'workspace'),
        declineLink: invitationDeclineLink(this.settings.publicUrl, invitation, 'workspace'),
      },
    });
  }
}
