import { html, layout, type SafeHtml } from './html';
import type { SsoRefusal } from '../sso/sso-accounts';
import type { SsoProvider } from '../sso/sso-config';

/** What each refusal says; the tag is in `data-error-tag` as on the other pages. */
export const SSO_MESSAGES: Readonly<Record<SsoRefusal | 'SSO_EXPIRED' | 'SSO_FAILED' | 'SSO_CANCELLED' | 'SSO_UNAVAILABLE' | 'SSO_PROVIDER_NOT_FOUND' | 'PASSWORD_LOGIN_DISABLED', string>> = {
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
};

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
