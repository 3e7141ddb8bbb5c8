import type { ShareInvitationSent } from '@doable/contracts-sync';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { Inject, Injectable } from '@nestjs/common';

/**
 * Delivers an invitation to an address that has no account yet (share_project to a stranger).
 * Such an invitation waits in sync and is offered, as a live notification, when an account with
 * the address is created; a mail is how its receiver would hear of it before then.
 *
 * To plug a real sender: implement this interface (an SMTP or mail-API client whose settings
 * come from the notifications service's env schema, secrets marked), and provide it in place of
 * LoggingInvitationMailer under INVITATION_MAILER in notifications.service-definition.ts. It is
 * called inside the consumer's transaction, and a redelivered event (after a failed commit) calls
 * it again: send idempotently (the invitation id and secret make a natural key), or queue.
 */
export interface InvitationMailer {
  /** The payload carries the secret, which the accept link needs; it must never be logged. */
  sendInvitation(invitation: ShareInvitationSent): Promise<void>;
}

export const INVITATION_MAILER = Symbol('INVITATION_MAILER');

/** The default: no mail is sent (this server has no mail sender); says so, without the secret or the message. */
@Injectable()
export class LoggingInvitationMailer implements InvitationMailer {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  sendInvitation(invitation: ShareInvitationSent): Promise<void> {
    this.logger.info(
      { invitationId: invitation.invitationId, projectId: invitation.projectId },
      'invitation to an address without an account: no mail sender is configured, so no mail is sent; it is offered when the account is created',
    );
    return Promise.resolve();
  }
}
