import type { SignupInvitationKind } from '@doable/contracts-auth';
import { html, type SafeHtml } from './html';

/**
 * The invitation a stranger's invitation mail carries to the sign-up page (the notifications
 * service's invitation link: `invitation_id`, `invitation_secret`, and `invitation_kind` for a
 * workspace's), kept through the form in hidden fields and handed, with the new account, to sync
 * in the userCreated event: sync accepts it when the secret is the invitation's, so the account
 * starts as a collaborator or workspace member. The secret is never checked or kept here (sync
 * holds its hash); a malformed pair is dropped, as a wrong one leaves the invitation waiting (it
 * is still offered to the account as a live notification).
 */
export interface SignupInvitation {
  readonly id: string;
  readonly secret: string;
  /** Which table the id is in: project and workspace invitations are numbered apart. */
  readonly kind: SignupInvitationKind;
}

/**
 * The invitation from a query or form, when its id and secret are well formed. No kind (links
 * mailed before workspace invitations were) is a project's; an unknown kind drops the whole.
 */
export function signupInvitationOf(id: string | undefined, secret: string | undefined, kind: string | undefined): SignupInvitation | undefined {
  if (id === undefined || secret === undefined) return undefined;
  if (!/^[0-9]{1,19}$/.test(id) || !/^[A-Za-z0-9_-]{16,200}$/.test(secret)) return undefined;
  if (kind !== undefined && kind !== 'project' && kind !== 'workspace') return undefined;
  return { id, secret, kind: kind ?? 'project' };
}

/** The hidden fields that carry it through the form. */
export function signupInvitationFields(invitation: SignupInvitation | undefined): SafeHtml | string {
  if (!invitation) return '';
  return html`<input type="hidden" name="invitation_id" value="${invitation.id}"><input type="hidden" name="invitation_secret" value="${invitation.secret}"><input type="hidden" name="invitation_kind" value="${invitation.kind}">`;
}
