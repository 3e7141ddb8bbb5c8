import { html, layout, type SafeHtml } from './html';
import type { SsoRefusal } from '../sso/sso-accounts';
import type { SsoProvider } from '../sso/sso-config';

/** What each refusal says; the tag is in `data-error-tag` as on the other pages. */
export const SSO_MESSAGES: Readonly<
  Record<
    SsoRefusal | 'SSO_EXPIRED' | 'SSO_FAILED' | 'SSO_CANCELLED' | 'SSO_UNAVAILABLE' | 'SSO_PROVIDER_NOT_FOUND' | 'PASSWORD_LOGIN_DISABLED' | 'ACCOUNT_NOT_VERIFIED' | 'RESET_LINK_INVALID' | 'AUTHENTICATION_ERROR' | 'RATE_LIMITED',
    string
  >
> = {
  DOMAIN_NOT_ALLOWED: 'Your email address is not of a domain allowed to sign in with this provider.',
  EMAIL_NOT_VERIFIED: 'Your provider has not verified your email address, so it cannot be linked to an account here.',
  NO_ACCOUNT: 'There is no account for you here, and this provider does not create one on first sign-in. Ask your administrator for an account.',
  ALREADY_LINKED: 'The account with your email address is already linked to another person of this provider.',
  INVALID_EMAIL: 'Your provider gave an email address that cannot be used here.',
  SSO_EXPIRED: 'This sign-in has expired or was started in another browser. Start again from the log-in page.',
  SSO_FAILED: 'The answer of the sign-in provider could not be verified. Start again from the log-in page.',
  SSO_CANCELLED: 'The sign-in provider did not sign you in.',
  SSO_UNAVAILABLE: 'The sign-in provider cannot be reached at the moment. Try again later.',
  SSO_PROVIDER_NOT_FOUND: 'There is no such sign-in provider.',
  PASSWORD_LOGIN_DISABLED: 'Accounts of your email domain sign in with single sign-on: use the button below.',
  ACCOUNT_NOT_VERIFIED: "The account with your email address has not confirmed its address; it is linked once you show it is yours.",
  RESET_LINK_INVALID: 'This link is not valid any more: it was used, replaced by a newer one, or it expired.',
  AUTHENTICATION_ERROR: 'The password is not correct.',
  RATE_LIMITED: 'Too many mails were asked for lately. Try again in an hour.',
};

/**
 * A single sign-on whose email names an account with an unproven address (issue #44): the
 * account's password links it here; a confirmation mail to the address links it too (and ends
 * the account's other credentials, see sso-account-proof.ts). The tag ACCOUNT_NOT_VERIFIED is in
 * `data-error-tag` as on the refusals.
 */
export function ssoProofPage(options: { csrf: string; email: string; next?: string; error?: { tag: string; message: string }; notice?: string }): string {
  const next = options.next ? html`<input type="hidden" name="next" value="${options.next}">` : '';
  const csrf = html`<input type="hidden" name="csrf" value="${options.csrf}">`;
  return layout(
    'Link your account',
    html`<p class="error" role="alert" id="form-error" data-error-tag="${options.error?.tag ?? 'ACCOUNT_NOT_VERIFIED'}">${options.error?.message ?? ''}</p>
<p data-testid="sso-proof">An account with <strong>${options.email}</strong> exists here, but its address was never confirmed, so it is not linked on your provider's word. Show that it is yours:</p>
<form method="post" action="/auth/sso/link">${csrf}${next}
<label for="password">The account's password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Link with the password</button></form>
${options.notice ? html`<p role="status" data-testid="sso-proof-mailed">${options.notice}</p>` : html`<form method="post" action="/auth/sso/link/mail">${csrf}${next}<p>No password? We can mail a confirmation link to ${options.email}. Confirming it links your sign-in and ends every other way into the account (its password, two-factor log-in, sessions and tokens).</p><button type="submit" class="secondary">Mail a confirmation link</button></form>`}
<p><a href="/auth/login">Back to log-in</a></p>`,
  );
}

/** The mailed link's page: a button, since mail scanners open links and must not confirm them. */
export function ssoLinkConfirmPage(options: { csrf: string; token: string; email: string }): string {
  return layout(
    'Confirm the link',
    html`<p>Link your single sign-on to the account <strong data-testid="sso-link-email">${options.email}</strong>? Its password, two-factor log-in, sessions and tokens stop working: from now on you sign in with your provider.</p>
<form method="post" action="/auth/sso/link/confirm"><input type="hidden" name="csrf" value="${options.csrf}"><input type="hidden" name="token" value="${options.token}">
<button type="submit">Confirm and link</button></form>`,
  );
}

export function ssoLinkedPage(email: string): string {
  return layout('Account linked', html`<p role="status" data-testid="sso-linked">Your single sign-on is linked to <strong>${email}</strong>. Sign in with your provider.</p><p><a href="/auth/login">Log in</a></p>`);
}

/** The page a refused or failed single sign-on answers, with its tag and the way back. */
export function ssoRefusedPage(tag: keyof typeof SSO_MESSAGES): string {
  return layout(
    'Sign-in refused',
    html`<p class="error" role="alert" id="form-error" data-error-tag="${tag}">${SSO_MESSAGES[tag]}</p>
<p><a href="/auth/login">Back to log-in</a></p>`,
  );
}

/** The log-in page's buttons, one per provider, each carrying the `next` the page was given. */
export function ssoButtons(providers: readonly SsoProvider[], next: string | undefined): SafeHtml | string {
  if (providers.length === 0) return '';
  const href = (provider: SsoProvider) => `/auth/sso/start?provider=${encodeURIComponent(provider.id)}${next ? `&next=${encodeURIComponent(next)}` : ''}`;
  return html`<section aria-labelledby="sso-heading" class="sso"><h2 id="sso-heading">Single sign-on</h2>
${providers.map((provider) => html`<p><a class="button" role="button" data-sso-provider="${provider.id}" href="${href(provider)}">Sign in with ${provider.name}</a></p>`)}</section>`;
}
