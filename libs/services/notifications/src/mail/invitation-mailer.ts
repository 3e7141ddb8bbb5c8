import { hashToken } from '@doable/contracts-auth';
import type { ShareInvitationSent } from '@doable/contracts-sync';
import type { Tx } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { MailOutbox } from './mail-outbox';
import { MAIL_SETTINGS, type MailSettings } from './mail-settings';

/**
 * Delivers an invitation to an address that has no account yet (share_project to a stranger).
 * Such an invitation waits in sync; its mail's link opens the sign-up page with the invitation,
 * and the account made there joins the project (sync accepts it when it makes the profile).
 * Called inside the consumer's transaction; a redelivered event calls it again.
 */
export interface InvitationMailer {
  /** The payload carries the secret, which the accept link needs; it must never be logged. */
  sendInvitation(invitation: ShareInvitationSent, tx: Tx): Promise<void>;
}

export const INVITATION_MAILER = Symbol('INVITATION_MAILER');

/** The sign-up page with the invitation: what the mail links to (a secret link). */
export function invitationLink(publicUrl: string, invitation: Pick<ShareInvitationSent, 'invitationId' | 'invitationSecret' | 'inviteeEmail'>): string {
  const query = new URLSearchParams({ invitation_id: invitation.invitationId, invitation_secret: invitation.invitationSecret, email: invitation.inviteeEmail });
  return `${publicUrl}/auth/signup?${query.toString()}`;
}

/**
 * Queues the invitation's mail. Keyed by the invitation and its secret's hash: a redelivered
 * event queues nothing more, while the same invitation sent again (a new secret) is mailed again.
 */
@Injectable()
export class QueueingInvitationMailer implements InvitationMailer {
  constructor(
    private readonly outbox: MailOutbox,
    @Inject(MAIL_SETTINGS) private readonly settings: MailSettings,
  ) {}

  async sendInvitation(invitation: ShareInvitationSent, tx: Tx): Promise<void> {
    await this.outbox.queue(tx, {
      key: `share-invitation:${invitation.invitationId}:${hashToken(invitation.invitationSecret).slice(0, 32)}`,
      kind: 'share-invitation',
      to: invitation.inviteeEmail,
      lang: 'en',
      data: {
        inviterName: invitation.inviter.full_name,
        inviterEmail: invitation.inviter.email,
        projectName: invitation.projectName,
        message: invitation.message,
        link: invitationLink(this.settings.publicUrl, invitation),
      },
    });
  }
}
