import { html, layout, type SafeHtml } from '../web/html';
import { type FormError, formError } from '../web/pages';

export const FORGOT_PASSWORD_PATH = '/auth/password/forgot';

const MESSAGES: Readonly<Record<string, string>> = {
  RESET_LINK_INVALID: 'This link is not valid any more: it was used, replaced by a newer one, or it expired. Ask for a new one.',
};

/** The form error of a tag: this feature's own messages first, then the pages' shared ones. */
export function resetError(tag: string): FormError {
  return MESSAGES[tag] ? { tag, message: MESSAGES[tag] } : formError(tag);
}

function errorBox(error: FormError | undefined): SafeHtml | string {
  return error ? html`<p class="error" role="alert" id="form-error" data-error-tag="${error.tag}">${error.message}</p>` : '';
}

export function forgotPasswordPage(options: { csrf: string; email?: string; error?: FormError }): string {
  return layout(
    'Forgot your password?',
    html`${errorBox(options.error)}
<p>Enter the email address of your account. If it has one, we send it a link to choose a new password.</p>
<form method="post" action="${FORGOT_PASSWORD_PATH}" novalidate><input type="hidden" name="csrf" value="${options.csrf}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${options.email ?? ''}" aria-invalid="${options.error ? 'true' : 'false'}">
<button type="submit">Send reset link</button></form>
<p><a href="/auth/login">Back to log in</a></p>`,
  );
}

/** The same page for every address, known or not (only the account's owner learns more, from the mail). */
export function resetRequestedPage(): string {
  return layout(
    'Check your email',
    html`<p role="status" data-testid="reset-requested">If an account uses this address, a link to choose a new password is on its way. It works once, for a limited time.</p>
<p><a href="/auth/login">Back to log in</a></p>`,
  );
}

export function resetPasswordPage(options: { csrf: string; token: string; error?: FormError }): string {
  return layout(
    'Choose a new password',
    html`${errorBox(options.error)}
<form method="post" action="/auth/password/reset" novalidate><input type="hidden" name="csrf" value="${options.csrf}"><input type="hidden" name="token" value="${options.token}">
<label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="password-hint" aria-invalid="${options.error ? 'true' : 'false'}">
<p class="hint" id="password-hint">At least 8 characters, not a common password, and not containing your email address.</p>
<label><input type="checkbox" name="sign_out_everywhere" value="on" id="sign-out-everywhere"> Sign out everywhere: end every session and revoke every API token and application access of this account</label>
<button type="submit">Set new password</button></form>`,
  );
}

export function linkInvalidPage(): string {
  const error = resetError('RESET_LINK_INVALID');
  return layout('Link not valid', html`${errorBox(error)}<p><a href="${FORGOT_PASSWORD_PATH}">Ask for a new link</a></p>`);
}

export function passwordChangedPage(revokedTokens: number): string {
  return layout(
    'Password changed',
    html`<p role="status" data-testid="password-changed">Your password was changed and every browser was signed out.${revokedTokens > 0 ? ` ${revokedTokens} API and application tokens were revoked.` : ''}</p>
<p><a href="/auth/login">Log in</a></p>`,
  );
}
