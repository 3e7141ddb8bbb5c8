import { INVITATION_DECLINE_PATH, type SignupInvitationKind } from '@doable/contracts-auth';
import { html, layout, type SafeHtml } from '../web/html';
import type { FormError } from '../web/pages';

/** What the page shows of an invitation, whatever it is to: who invited, and the project's or workspace's name. */
export interface InvitationFacts {
  readonly kind: SignupInvitationKind;
  readonly inviterName: string;
  readonly inviterEmail: string;
  readonly placeName: string;
}

/** The link the page was opened from, posted back by its button. */
interface LinkFields {
  readonly request: { readonly invitationId: string; readonly invitationSecret: string };
  readonly kind: SignupInvitationKind;
}

function errorBox(error: FormError): SafeHtml {
  return html`<p class="error" role="alert" id="form-error" data-error-tag="${error.tag}">${error.message}</p>`;
}

/** Who invited to what, as the mail said it. */
function invitedBy(invitation: InvitationFacts): SafeHtml {
  return invitation.kind === 'workspace'
    ? html`<p><strong>${invitation.inviterName}</strong> (${invitation.inviterEmail}) invited you to join the team workspace <strong data-testid="invitation-workspace">${invitation.placeName}</strong> in Doable.</p>`
    : html`<p><strong>${invitation.inviterName}</strong> (${invitation.inviterEmail}) invited you to work together on the project <strong data-testid="invitation-project">${invitation.placeName}</strong> in Doable.</p>`;
}

/** The question: nothing is declined until the button is pressed (the link alone answers nothing). */
export function declineInvitationPage(options: { csrf: string; link: LinkFields; invitation: InvitationFacts }): string {
  const { request, kind } = options.link;
  const join = kind === 'workspace' ? 'Join the workspace' : 'Join the project';
  return layout(
    'Decline the invitation?',
    html`${invitedBy(options.invitation)}
<p>Declining tells ${options.invitation.inviterName}, and the invitation ends. To join instead, follow the mail's "${join}" link.</p>
<form method="post" action="${INVITATION_DECLINE_PATH}"><input type="hidden" name="csrf" value="${options.csrf}"><input type="hidden" name="invitation_id" value="${request.invitationId}"><input type="hidden" name="invitation_secret" value="${request.invitationSecret}"><input type="hidden" name="invitation_kind" value="${kind}">
<button type="submit">Decline the invitation</button></form>`,
  );
}

/** Declined, now or before (a second press changes nothing and says so). */
export function invitationDeclinedPage(options: { already: boolean; invitation?: InvitationFacts }): string {
  const place = options.invitation ? html` to <strong>${options.invitation.placeName}</strong>` : '';
  const told = options.invitation && !options.already ? html` ${options.invitation.inviterName} is told.` : '';
  return layout(
    'Invitation declined',
    options.already
      ? html`<p role="status" data-testid="invitation-already-declined">You already declined this invitation${place}. Nothing more happens.</p>`
      : html`<p role="status" data-testid="invitation-declined">You declined the invitation${place}.${told}</p>`,
  );
}

/** Why this link answers nothing: the tag a test or a support question names, and a sentence. */
const REFUSALS: Readonly<Record<'withdrawn' | 'accepted' | 'invalid' | 'unavailable', FormError>> = {
  // One page for an unknown id, a wrong secret, a link a newer invitation replaced, and an address that has an account now: a guess learns nothing.
  invalid: {
    tag: 'INVITATION_LINK_INVALID',
    message: 'This invitation link is not valid. If you have a Doable account for this address, sign in to see your invitations.',
  },
  withdrawn: { tag: 'INVITATION_WITHDRAWN', message: 'This invitation was withdrawn: there is nothing to decline.' },
  accepted: { tag: 'INVITATION_ACCEPTED', message: 'This invitation was accepted already.' },
  unavailable: { tag: 'SERVICE_UNAVAILABLE', message: 'Doable cannot answer this right now. Try again in a minute.' },
};

export function invitationRefusedPage(reason: keyof typeof REFUSALS): string {
  return layout('Invitation', errorBox(REFUSALS[reason]));
}
