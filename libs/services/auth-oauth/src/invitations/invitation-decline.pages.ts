import type { EdgeReply } from '@doable/contracts-common';
import { type MailedInvitationReply, type MailedInvitationRequest, SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { ServiceClient } from '@doable/shared-transport';
import { Injectable } from '@nestjs/common';
import type { WebExchange } from '../exchange/web-exchange';
import { AccountPages } from '../web/account-pages';
import { signupInvitationOf } from '../web/signup-invitation';
import { declineInvitationPage, invitationDeclinedPage, invitationRefusedPage } from './invitation-decline.html';

/** The status of each way a link can answer nothing: gone for good (410), in a final state (409), or no such link (404). */
const REFUSED_STATUS = { withdrawn: 410, accepted: 409, invalid: 404 } as const;

/**
 * The decline page of a project invitation mailed to an address without an account (the mail's
 * "Decline the invitation"). No session: the mail's secret is the credential, and sync, which
 * holds the invitation, checks it and declines (SyncSubjects.mailedInvitation,
 * declineMailedInvitation). A GET only shows the invitation: mail scanners and link previews
 * open every link in a mail, and must not decline. The button posts the pair back with the
 * page's CSRF token, as every form here does.
 */
@Injectable()
export class InvitationDeclinePages {
  constructor(
    private readonly services: ServiceClient,
    private readonly pages: AccountPages,
  ) {}

  async declineForm(web: WebExchange): Promise<EdgeReply> {
    const request = mailedInvitationOf(web.query('invitation_id'), web.query('invitation_secret'));
    if (!request) return web.html(404, invitationRefusedPage('invalid'));
    const reply = await this.ask(() => this.services.request(SyncSubjects.mailedInvitation, request, { resendable: true }));
    if (reply === 'unavailable') return web.html(503, invitationRefusedPage('unavailable'));
    if (reply.outcome === 'open' && reply.invitation) {
      return web.html(200, declineInvitationPage({ csrf: web.csrf(), invitationId: request.invitationId, invitationSecret: request.invitationSecret, invitation: reply.invitation }));
    }
    return this.answered(web, reply);
  }

  async decline(web: WebExchange): Promise<EdgeReply> {
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const request = mailedInvitationOf(web.field('invitation_id'), web.field('invitation_secret'));
    if (!request) return web.html(404, invitationRefusedPage('invalid'));
    // Resendable: a decline run twice answers already_declined the second time, and declines once.
    const reply = await this.ask(() => this.services.request(SyncSubjects.declineMailedInvitation, request, { resendable: true }));
    if (reply === 'unavailable') return web.html(503, invitationRefusedPage('unavailable'));
    return this.answered(web, reply);
  }

  /** Every answer but the question. */
  private answered(web: WebExchange, reply: MailedInvitationReply): EdgeReply {
    switch (reply.outcome) {
      case 'declined':
      case 'already_declined':
        return web.html(200, invitationDeclinedPage({ already: reply.outcome === 'already_declined', ...(reply.invitation ? { invitation: reply.invitation } : {}) }));
      case 'withdrawn':
      case 'accepted':
      case 'invalid':
        return web.html(REFUSED_STATUS[reply.outcome], invitationRefusedPage(reply.outcome));
      case 'open':
        // Open without its facts cannot happen (sync names them while the project exists); say nothing of it.
        return web.html(404, invitationRefusedPage('invalid'));
    }
  }

  /** Sync's answer, or `unavailable` while sync cannot answer (a page saying so, never a 500). */
  private async ask(call: () => Promise<MailedInvitationReply>): Promise<MailedInvitationReply | 'unavailable'> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof DomainError && err.code === 'SERVICE_UNAVAILABLE') return 'unavailable';
      throw err;
    }
  }
}

/** The pair a mail's link carries, when well formed (the sign-up link's rule); undefined otherwise. */
function mailedInvitationOf(id: string | undefined, secret: string | undefined): MailedInvitationRequest | undefined {
  const invitation = signupInvitationOf(id, secret, undefined);
  return invitation ? { invitationId: invitation.id, invitationSecret: invitation.secret } : undefined;
}
