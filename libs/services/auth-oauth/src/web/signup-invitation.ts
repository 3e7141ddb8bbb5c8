import { html, type SafeHtml } from './html';

/**
 * The invitation a stranger's invitation mail carries to the sign-up page (the notifications
 * service's invitation link: `invitation_id`, `invitation_secret`), kept through the form in
 * hidden fields and handed, with the new account, to sync in the userCreated event: sync accepts
 * it when the secret is the invitation's, so the account starts as a collaborator. The secret is
 * never checked or kept here (sync holds its hash); a malformed pair is dropped, as a wrong one
 * leaves the invitation waiting (it is still offered to the account as a live notification).
 */
export interface SignupInvitation {
  readonly id: string;
  readonly secret: string;
}

/** The pair from a query or form, when both are well formed. */
export function signupInvitationOf(id: string | undefined, secret: string | undefined): SignupInvitation | undefined {
  if (id === undefined || secret === undefined) return undefined;
  if (!/^[0-9]{1,19}$/.test(id) || !/^[A-Za-z0-9_-]{16,200}$/.test(secret)) return undefined;
  return { id, secret };
}

/** The hidden fields that carry it through the form. */
export function signupInvitationFields(invitation: SignupInvitation | undefined): SafeHtml | string {
  if (!invitation) return '';
  return html`<input type="hidden" name="invitation_id" value="${invitation.id}"><input type="hidden" name="invitation_secret" value="${invitation.secret}">`;
}
