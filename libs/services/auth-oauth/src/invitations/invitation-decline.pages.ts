import type { SignupInvitationKind } from '@doable/contracts-auth';
import type { EdgeReply } from '@doable/contracts-common';
import { type MailedInvitationOutcome, type MailedInvitationRequest, SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { ServiceClient } from '@doable/shared-transport';
import { Injectable } from '@nestjs/common';
import type { WebExchange } from '../exchange/web-exchange';
import { AccountPages } from '../web/account-pages';
import { signupInvitationOf } from '../web/signup-invitation';
import { declineInvitationPage, type InvitationFacts, invitationDeclinedPage, invitationRefusedPage } from './invitation-decline.html';

/** The status of each way a link can answer nothing: gone for good (410), in a final state (409), or no such link (404). */
const REFUSED_STATUS = { withdrawn: 410, accepted: 409, invalid: 404 } as const;

/** A mail's decline link: the invitation's id and secret, and which kind of invitation it is (their ids are numbered apart). */
export interface MailedLink {
  readonly request: MailedInvitationRequest;
  readonly kind: SignupInvitationKind;
}

/** Sync's answer, whatever the invitation is to. */
interface MailedStanding {
  readonly outcome: MailedInvitationOutcome;
  readonly invitation?: InvitationFacts;
}

/**
 * The decline page of a project or workspace invitation mailed to an address without an account
 * (the mail's "Decline the invitation"; a workspace's link says `invitation_kind=workspace`). No
 * session: the mail's secret is the credential, and sync, which holds the invitation, checks it
 * and declines (SyncSubjects.mailedInvitation and declineMailedInvitation for a project's,
 * mailedWorkspaceInvitation and declineMailedWorkspaceInvitation for a workspace's). A GET only
 * shows the invitation: mail scanners and link previews open every link in a mail, and must not
 * decline. The button posts the link's fields back with the page's CSRF token, as every form here does.
 */
@Injectable()
export class InvitationDeclinePages {
  constructor(
    private readonly services: ServiceClient,
    private readonly pages: AccountPages,
  ) {}

  async declineForm(web: WebExchange): Promise<EdgeReply> {
    const link = mailedLinkOf(web.query('invitation_id'), web.query('invitation_secret'), web.query('invitation_kind'));
    if (!link) return web.html(404, invitationRefusedPage('invalid'));
    const reply = await this.ask(() => this.sync(link, 'look'));
    if (reply === 'unavailable') return web.html(503, invitationRefusedPage('unavailable'));
    if (reply.outcome === 'open' && reply.invitation) return web.html(200, declineInvitationPage({ csrf: web.csrf(), link, invitation: reply.invitation }));
    return this.answered(web, reply);
  }

  async decline(web: WebExchange): Promise<EdgeReply> {
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const link = mailedLinkOf(web.field('invitation_id'), web.field('invitation_secret'), web.field('invitation_kind'));
    if (!link) return web.html(404, invitationRefusedPage('invalid'));
    const reply = await this.ask(() => this.sync(link, 'decline'));
    if (reply === 'unavailable') return web.html(503, invitationRefusedPage('unavailable'));
    return this.answered(web, reply);
  }

  /**
   * Sync's answer for the link's kind of invitation: where it stands (`look`, which reads only),
   * or its decline (resendable: a decline run twice answers already_declined the second time,
   * and declines once). The facts are named alike whatever the invitation is to.
   */
  private async sync({ request, kind }: MailedLink, action: 'look' | 'decline'): Promise<MailedStanding> {
    const facts = (inviter: { inviterName: string; inviterEmail: string }, placeName: string): InvitationFacts => ({ kind, inviterName: inviter.inviterName, inviterEmail: inviter.inviterEmail, placeName });
    if (kind === 'workspace') {
      const subject = action === 'look' ? SyncSubjects.mailedWorkspaceInvitation : SyncSubjects.declineMailedWorkspaceInvitation;
      const { outcome, invitation } = await this.services.request(subject, request, { resendable: true });
      return { outcome, ...(invitation ? { invitation: facts(invitation, invitation.workspaceName) } : {}) };
    }
    const subject = action === 'look' ? SyncSubjects.mailedInvitation : SyncSubjects.declineMailedInvitation;
    const { outcome, invitation } = await this.services.request(subject, request, { resendable: true });
    return { outcome, ...(invitation ? { invitation: facts(invitation, invitation.projectName) } : {}) };
  }

  /** Every answer but the question. */
  private answered(web: WebExchange, reply: MailedStanding): EdgeReply {
    switch (reply.outcome) {
      case 'declined':
      case 'already_declined':
        return web.html(200, invitationDeclinedPage({ already: reply.outcome === 'already_declined', ...(reply.invitation ? { invitation: reply.invitation } : {}) }));
      case 'withdrawn':
      case 'accepted':
      case 'invalid':
        return web.html(REFUSED_STATUS[reply.outcome], invitationRefusedPage(reply.outcome));
      case 'open':
        // Open without its facts cannot happen (sync names them while the project or workspace exists); say nothing of it.
        return web.html(404, invitationRefusedPage('invalid'));
    }
  }

  /** Sync's answer, or `unavailable` while sync cannot answer (a page saying so, never a 500). */
  private async ask(call: () => Promise<MailedStanding>): Promise<MailedStanding | 'unavailable'> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof DomainError && err.code === 'SERVICE_UNAVAILABLE') return 'unavailable';
      throw err;
    }
  }
}

/** The link's fields, when well formed (the sign-up link's rule: no kind is a project's); undefined otherwise. */
function mailedLinkOf(id: string | undefined, secret: string | undefined, kind: string | undefined): MailedLink | undefined {
  const invitation = signupInvitationOf(id, secret, kind);
  return invitation ? { request: { invitationId: invitation.id, invitationSecret: invitation.secret }, kind: invitation.kind } : undefined;
}
