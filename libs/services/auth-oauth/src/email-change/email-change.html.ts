import { html, layout, type SafeHtml } from '../web/html';
import type { FormError } from '../web/pages';
import { EMAIL_CONFIRM_PATH } from './email-change.service';

function errorBox(error: FormError): SafeHtml {
  return html`<p class="error" role="alert" id="form-error" data-error-tag="${error.tag}">${error.message}</p>`;
}

export function confirmEmailPage(options: { csrf: string; token: string; newEmail: string }): string {
  return layout(
    'Confirm your new email',
    html`<p>Use <strong data-testid="new-email">${options.newEmail}</strong> as the address of your Doable account?</p>
<form method="post" action="${EMAIL_CONFIRM_PATH}"><input type="hidden" name="csrf" value="${options.csrf}"><input type="hidden" name="token" value="${options.token}">
<button type="submit">Confirm new email</button></form>`,
  );
}

export function emailChangedPage(email: string): string {
  return layout('Email changed', html`<p role="status" data-testid="email-changed">Your account's address is now <strong>${email}</strong>.</p><p><a href="/auth/settings">Settings</a></p>`);
}

export function emailLinkInvalidPage(error: FormError = { tag: 'RESET_LINK_INVALID', message: 'This link is not valid any more: it was used, replaced by a newer request, or it expired.' }): string {
  return layout('Link not valid', html`${errorBox(error)}<p><a href="/auth/settings">Settings</a></p>`);
}
