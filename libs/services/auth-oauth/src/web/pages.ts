import { WEBHOOK_EVENT_NAMES } from '@doable/contracts-auth';
import { type SignupInvitation, signupInvitationFields } from './signup-invitation';
import type { Scope } from '@doable/contracts-common';
import type { AppWebhook } from '../webhooks/app-webhook.repository';
import { SCOPE_DESCRIPTIONS } from '../oauth/oauth-scopes';
import type { OAuthApp } from '../oauth/oauth-app.service';
import type { AuthorizedApp } from '../oauth/oauth.service';
import { html, layout, SafeHtml } from './html';

/** A form error with its §7.4 tag (also in `data-error-tag`, for scripts and tests). */
export interface FormError {
  readonly tag: string;
  readonly message: string;
}

export const ERROR_MESSAGES: Readonly<Record<string, string>> = {
  PASSWORD_TOO_SHORT: 'The password must be at least 8 characters long.',
  COMMON_PASSWORD: 'This password is too common. Choose one that is harder to guess.',
  PASSWORD_CONTAINS_EMAIL: 'The password must not contain your email address.',
  INVALID_EMAIL: 'Enter a valid email address.',
  ALREADY_REGISTERED: 'An account with this email already exists. Log in instead.',
  NAME_REQUIRED: 'Enter your name.',
  AUTHENTICATION_ERROR: 'The email or password is not correct.',
  APP_NAME_REQUIRED: 'Enter a name for the application (at most 100 characters).',
  INVALID_TEXT: 'The form contains characters that cannot be saved (a NUL character or a broken emoji). Remove them and try again.',
  PASSWORD_LOGIN_DISABLED: 'Accounts of this email domain sign in with single sign-on, not a password.',
  INVALID_REDIRECT_URI: 'Each redirect URL must be an absolute http or https URL without a #fragment (at most 10).',
};

export function formError(tag: string): FormError {
  return { tag, message: ERROR_MESSAGES[tag] ?? 'Something went wrong.' };
}

function errorBox(error: FormError | undefined): SafeHtml | string {
  return error ? html`<p class="error" role="alert" id="form-error" data-error-tag="${error.tag}">${error.message}</p>` : '';
}

function csrfField(csrf: string): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${csrf}">`;
}

function nextField(next: string | undefined): SafeHtml | string {
  return next ? html`<input type="hidden" name="next" value="${next}">` : '';
}

/** The browser's zone the web app sent along (signup-timezone.ts), kept from the log-in page to the sign-up form. */
function timezoneField(timezone: string | undefined): SafeHtml | string {
  return timezone ? html`<input type="hidden" name="timezone" value="${timezone}">` : '';
}

function withNext(path: string, next: string | undefined, timezone?: string): string {
  const query = new URLSearchParams({ ...(next ? { next } : {}), ...(timezone ? { timezone } : {}) }).toString();
  return query ? `${path}?${query}` : path;
}

/** Where the gateway serves Doable's own web app (issue #35): a signed-in person's way to their tasks. */
export const WEB_APP_LINK = '/app/';

export function accountNav(csrf: string): SafeHtml {
  return html`<a href="${WEB_APP_LINK}" data-testid="open-app">Open Doable</a><a href="/auth/settings">Settings</a><a href="/auth/apps">Applications</a><form method="post" action="/auth/logout" style="display:inline">${csrfField(csrf)}<button type="submit" class="secondary">Log out</button></form>`;
}

export function signupPage(options: { csrf: string; next?: string; email?: string; fullName?: string; error?: FormError; invitation?: SignupInvitation; timezone?: string }): string {
  const { csrf, next, error } = options;
  const invalid = (field: string) => (error && fieldOf(error.tag) === field ? 'true' : 'false');
  return layout(
    'Create your account',
    html`${errorBox(error)}
<form method="post" action="/auth/signup" novalidate>
${csrfField(csrf)}${nextField(next)}${timezoneField(options.timezone)}${signupInvitationFields(options.invitation)}
<label for="full_name">Name</label><input id="full_name" name="full_name" autocomplete="name" required maxlength="255" value="${options.fullName ?? ''}" aria-invalid="${invalid('full_name')}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${options.email ?? ''}" aria-invalid="${invalid('email')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="password-hint" aria-invalid="${invalid('password')}">
<p class="hint" id="password-hint">At least 8 characters, not a common password, and not containing your email address.</p>
<button type="submit">Sign up</button>
</form>
<p>Already have an account? <a href="${withNext('/auth/login', next)}">Log in</a></p>`,
  );
}

function fieldOf(tag: string): string {
  if (tag.startsWith('PASSWORD') || tag === 'COMMON_PASSWORD') return 'password';
  if (tag === 'NAME_REQUIRED') return 'full_name';
  return 'email';
}

export function loginPage(options: { csrf: string; next?: string; email?: string; error?: FormError; sso?: SafeHtml | string; timezone?: string }): string {
  const { csrf, next, error } = options;
  return layout(
    'Log in',
    html`${errorBox(error)}
<form method="post" action="/auth/login" novalidate>
${csrfField(csrf)}${nextField(next)}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form>
${options.sso ?? ''}
<p>No account yet? <a href="${withNext('/auth/signup', next, options.timezone)}">Sign up</a></p>
<p><a href="/auth/password/forgot">Forgot your password?</a></p>`,
  );
}

export function settingsPage(options: { csrf: string; email: string; fullName: string; newToken?: string; authorized?: readonly AuthorizedApp[]; notice?: string; emailError?: FormError }): string {
  const { csrf, newToken } = options;
  const token = newToken
    ? html`<p class="notice" role="status">Copy your API token now: it is stored only as a hash and cannot be shown again.</p>
<p><label for="api-token">Your API token</label><code class="secret" id="api-token" data-testid="api-token">${newToken}</code></p>`
    : html`<p>Your API token is stored only as a hash, so it cannot be shown again. Reset it to get a new one.</p>`;
  return layout(
    'Settings',
    html`<p>Logged in as <strong>${options.fullName}</strong> (${options.email}).</p>
<p><a href="${WEB_APP_LINK}" data-testid="open-app-main">Open Doable</a> to see your tasks.</p>
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
<h2>API token</h2>${token}
<form method="post" action="/auth/settings/token">${csrfField(csrf)}
<p class="hint" id="reset-hint">The current token stops working at once.</p>
<button type="submit" aria-describedby="reset-hint">Reset API token</button></form>
<h2>Two-factor log-in</h2><p><a href="/auth/settings/two-factor">Two-factor log-in settings</a></p>
<h2>Authorized applications</h2>${authorizedApps(csrf, options.authorized ?? [])}
${emailChangeForm(csrf, options.emailError)}`,
    { nav: accountNav(csrf) },
  );
}

/** The address change (issue #33): it waits for the new address to confirm a mailed link. */
function emailChangeForm(csrf: string, error: FormError | undefined): SafeHtml {
  return html`<h2 id="change-email">Email address</h2>${errorBox(error)}
<form method="post" action="/auth/settings/email" novalidate aria-labelledby="change-email">${csrfField(csrf)}
<label for="new-email">New email</label><input id="new-email" name="new_email" type="email" autocomplete="email" required maxlength="254" aria-describedby="new-email-hint">
<p class="hint" id="new-email-hint">We mail a link to the new address; your address changes when you follow it.</p>
<label for="email-current-password">Current password</label><input id="email-current-password" name="current_password" type="password" autocomplete="current-password">
<button type="submit">Change email</button></form>`;
}

/** Applications holding the user's tokens, each with what it may do and a button to take access back. */
function authorizedApps(csrf: string, apps: readonly AuthorizedApp[]): SafeHtml | string {
  if (apps.length === 0) return html`<p>No application has access to your account.</p>`;
  return html`<ul class="authorized-apps">${apps.map(
    (app) => html`<li data-authorized-app-id="${app.appId}"><h3 id="authorized-${app.appId}">${app.name}</h3>
<p>Authorized on <time datetime="${app.grantedAt.toISOString()}">${app.grantedAt.toISOString().slice(0, 10)}</time>. It may:</p>
<ul>${app.scopes.map((scope) => html`<li>${SCOPE_DESCRIPTIONS[scope] ?? scope}</li>`)}</ul>
<form method="post" action="/auth/settings/apps/revoke">${csrfField(csrf)}<input type="hidden" name="app_id" value="${app.appId}"><button type="submit" class="secondary" aria-describedby="authorized-${app.appId}">Revoke access of ${app.name}</button></form></li>`,
  )}</ul>`;
}

/** What the owner typed into an app's webhook form, shown again with the error that refused it. */
export interface WebhookForm {
  readonly appId: string;
  readonly callbackUrl: string;
  readonly events: readonly string[];
  readonly error?: FormError;
}

export interface AppsPageOptions {
  readonly csrf: string;
  readonly apps: readonly OAuthApp[];
  /** Each app's webhook, by app id. */
  readonly webhooks?: ReadonlyMap<string, AppWebhook>;
  readonly revealed?: { appId: string; clientSecret: string };
  readonly error?: FormError;
  readonly name?: string;
  readonly redirectUris?: string;
  readonly webhookForm?: WebhookForm;
  readonly notice?: { appId: string; message: string };
}

/**
 * An app's webhook (public-api-facts §1.5: configured per app in the console): where it is sent,
 * which events, the object version; saved or removed by a CSRF-protected form.
 */
function webhookSection(csrf: string, app: OAuthApp, saved: AppWebhook | undefined, typed: WebhookForm | undefined): SafeHtml {
  const callbackUrl = typed ? typed.callbackUrl : (saved?.callbackUrl ?? '');
  const chosen = new Set<string>(typed ? typed.events : (saved?.events ?? []));
  const id = (name: string) => `webhook-${app.id}-${name.replace(':', '-')}`;
  const status = saved?.callbackUrl ? html`<p data-testid="webhook-status">Sending ${saved.events.length} event types to <code>${saved.callbackUrl}</code>.</p>` : html`<p data-testid="webhook-status">No webhook.</p>`;
  return html`<h3 id="webhook-${app.id}">Webhook</h3>${status}${errorBox(typed?.error)}
<form method="post" action="/auth/apps/webhook" novalidate aria-labelledby="webhook-${app.id}">${csrfField(csrf)}<input type="hidden" name="app_id" value="${app.id}">
<label for="${id('url')}">Callback URL</label><input id="${id('url')}" name="callback_url" type="url" maxlength="2000" value="${callbackUrl}" aria-describedby="${id('hint')}" aria-invalid="${typed?.error?.tag === 'WEBHOOK_URL_REFUSED' || typed?.error?.tag === 'ARGUMENT_MISSING' ? 'true' : 'false'}">
<p class="hint" id="${id('hint')}">An https URL without a custom port, e.g. https://example.com/todoist/webhook. Each delivery is signed with the client secret (X-Todoist-Hmac-SHA256).</p>
<fieldset><legend>Events</legend>${WEBHOOK_EVENT_NAMES.map(
    (name) => html`<label><input type="checkbox" name="events" value="${name}" id="${id(name)}"${chosen.has(name) ? new SafeHtml(' checked') : ''}> ${name}</label>`,
  )}</fieldset>
<label for="${id('version')}">Object version</label><select id="${id('version')}" name="version"><option value="1" selected>1 (api/v1 objects)</option></select>
<button type="submit" name="action" value="save">Save webhook of ${app.name}</button>
${saved?.callbackUrl ? html`<button type="submit" name="action" value="remove" class="secondary">Remove webhook of ${app.name}</button>` : ''}
</form>`;
}

export function appsPage(options: AppsPageOptions): string {
  const { csrf, apps, revealed, error } = options;
  const list = apps.length
    ? apps.map(
        (app) => html`<section aria-labelledby="app-${app.id}" data-app-id="${app.id}">
<h2 id="app-${app.id}">${app.name}</h2>
<dl><dt>Client ID</dt><dd><code data-testid="client-id">${app.clientId}</code></dd>
<dt>Redirect URLs</dt><dd>${app.redirectUris.length ? app.redirectUris.join(', ') : 'none'}</dd>
<dt>Status</dt><dd>${app.status}</dd></dl>
${options.notice?.appId === app.id ? html`<p class="notice" role="status">${options.notice.message}</p>` : ''}
${
  revealed?.appId === app.id
    ? html`<p class="notice" role="status">Copy the client secret now: it is stored only as a hash and cannot be shown again.</p><p><label for="secret-${app.id}">Client secret</label><code class="secret" id="secret-${app.id}" data-testid="client-secret">${revealed.clientSecret}</code></p>`
    : ''
}
<form method="post" action="/auth/apps/secret">${csrfField(csrf)}<input type="hidden" name="app_id" value="${app.id}"><button type="submit" class="secondary">Rotate client secret of ${app.name}</button></form>
${webhookSection(csrf, app, options.webhooks?.get(app.id), options.webhookForm?.appId === app.id ? options.webhookForm : undefined)}
</section>`,
      )
    : html`<p>You have not registered any application yet.</p>`;
  return layout(
    'Applications',
    html`${list}
<h2>Register an application</h2>${errorBox(error)}
<form method="post" action="/auth/apps" novalidate>${csrfField(csrf)}
<label for="app-name">Application name</label><input id="app-name" name="name" required maxlength="100" value="${options.name ?? ''}">
<label for="redirect-uris">Redirect URLs (one per line)</label><textarea id="redirect-uris" name="redirect_uris" rows="3" aria-describedby="redirect-hint">${options.redirectUris ?? ''}</textarea>
<p class="hint" id="redirect-hint">Where users are sent back after authorizing, e.g. https://example.com/oauth/callback.</p>
<button type="submit">Register application</button></form>`,
    { nav: accountNav(csrf) },
  );
}

export interface ConsentFields {
  readonly clientId: string;
  readonly scope: string;
  readonly state: string;
  readonly redirectUri?: string;
  readonly codeChallenge?: string;
  readonly codeChallengeMethod?: string;
}

export function consentPage(options: { csrf: string; app: OAuthApp; scopes: readonly Scope[]; userEmail: string; fields: ConsentFields; secondFactor?: { field: SafeHtml; error?: FormError } }): string {
  const { csrf, app, fields } = options;
  const hidden = (name: string, value: string | undefined) => (value === undefined ? '' : html`<input type="hidden" name="${name}" value="${value}">`);
  return layout(
    `Authorize ${app.name}`,
    html`<p><strong>${app.name}</strong> wants to access your Doable account (${options.userEmail}). It will be able to:</p>
<ul>${options.scopes.map((scope) => html`<li>${SCOPE_DESCRIPTIONS[scope]} <span class="hint">(${scope})</span></li>`)}</ul>
${publicClientNote(app, fields.redirectUri ?? app.redirectUris[0])}
${errorBox(options.secondFactor?.error)}<form method="post" action="/oauth/authorize">${csrfField(csrf)}${options.secondFactor?.field ?? ''}
${hidden('client_id', fields.clientId)}${hidden('scope', fields.scope)}${hidden('state', fields.state)}${hidden('redirect_uri', fields.redirectUri)}${hidden('code_challenge', fields.codeChallenge)}${hidden('code_challenge_method', fields.codeChallengeMethod)}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`,
  );
}

/**
 * A public client named itself: its name proves nothing, so the page says where the answer goes
 * (the redirect URL's host), which the user can judge.
 */
function publicClientNote(app: OAuthApp, redirectUri: string): SafeHtml | null {
  if (app.registration === 'console') return null;
  let host = redirectUri;
  try {
    host = new URL(redirectUri).host;
  } catch {
    // The authorization request was checked: a stored redirect URL is absolute.
  }
  return html`<p class="hint" data-testid="public-client">This application registered itself; its name is not verified. After you answer, you will be sent to <strong>${host}</strong>.</p>`;
}

export function messagePage(title: string, message: string): string {
  return layout(title, html`<p role="alert">${message}</p>`);
}
