import { html, layout, SafeHtml } from './html';
import { accountNav, type FormError } from './pages';

/** The refusals a code form shows, by tag (also in `data-error-tag`). */
export const TWO_FACTOR_ERRORS: Readonly<Record<string, string>> = {
  TWO_FACTOR_CODE_INVALID: 'The code is not correct or was already used. Enter the current code from your app, or a recovery code.',
  TWO_FACTOR_LOCKED: 'Too many wrong codes. Two-factor log-in for this account is locked for a while; try again later.',
  TWO_FACTOR_EXPIRED: 'Your log-in took too long. Enter your email and password again.',
  TWO_FACTOR_ALREADY_ON: 'Two-factor log-in is already on.',
};

export function twoFactorError(tag: string): FormError {
  return { tag, message: TWO_FACTOR_ERRORS[tag] ?? 'Something went wrong.' };
}

function errorBox(error: FormError | undefined): SafeHtml | string {
  return error ? html`<p class="error" role="alert" id="form-error" data-error-tag="${error.tag}">${error.message}</p>` : '';
}

const csrfField = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`;

/** The code field every step shares: a TOTP code or a recovery code. */
export function codeField(error?: FormError): SafeHtml {
  return html`<label for="otp">Authentication code</label><input id="otp" name="otp" autocomplete="one-time-code" inputmode="text" maxlength="32" aria-describedby="code-hint" aria-invalid="${error ? 'true' : 'false'}">
<p class="hint" id="code-hint">The 6-digit code from your authenticator app, or one of your recovery codes.</p>`;
}

/** The second step of a log-in: the password was right; the code is asked before any session. */
export function twoFactorLoginPage(options: { csrf: string; next?: string; error?: FormError }): string {
  return layout(
    'Two-factor log-in',
    html`${errorBox(options.error)}
<form method="post" action="/auth/login/two-factor" novalidate>${csrfField(options.csrf)}${options.next ? html`<input type="hidden" name="next" value="${options.next}">` : ''}
${codeField(options.error)}
<button type="submit">Verify</button>
</form>
<p><a href="/auth/login">Start again</a></p>`,
  );
}

/** Settings of the second factor: on (with a form to turn it off) or off (with a button to start). */
export function twoFactorSettingsPage(options: { csrf: string; enabled: boolean; recoveryLeft: number; error?: FormError; notice?: string; status?: number }): string {
  const body = options.enabled
    ? html`<p data-testid="two-factor-status">Two-factor log-in is <strong>on</strong>. ${options.recoveryLeft} recovery codes left.</p>
<h2>Turn off</h2>
<form method="post" action="/auth/settings/two-factor/disable" novalidate>${csrfField(options.csrf)}
${codeField(options.error)}
<button type="submit" class="secondary">Turn off two-factor log-in</button></form>`
    : html`<p data-testid="two-factor-status">Two-factor log-in is <strong>off</strong>. With it on, logging in and authorizing applications also asks for a code from an authenticator app.</p>
<form method="post" action="/auth/settings/two-factor/start">${csrfField(options.csrf)}<button type="submit">Set up two-factor log-in</button></form>`;
  return layout(
    'Two-factor log-in',
    html`${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}${errorBox(options.error)}${body}`,
    { nav: accountNav(options.csrf) },
  );
}

/** Enrolment: the QR code (inline SVG from qrcode), the secret as text, and a code to confirm. */
export function enrolmentPage(options: { csrf: string; secret: string; uri: string; qrSvg: string; error?: FormError }): string {
  return layout(
    'Set up two-factor log-in',
    html`${errorBox(options.error)}<p>Scan this QR code with an authenticator app, or enter the key below by hand.</p>
<figure role="img" aria-label="QR code of the key" data-testid="totp-qr">${new SafeHtml(options.qrSvg)}</figure>
<p><label for="totp-secret">Key</label><code class="secret" id="totp-secret" data-testid="totp-secret">${options.secret}</code></p>
<p class="hint">Account: the email you log in with; issuer: Doable; 6 digits every 30 seconds.</p>
<form method="post" action="/auth/settings/two-factor/confirm" novalidate>${csrfField(options.csrf)}
<label for="otp">Code from the app</label><input id="otp" name="otp" autocomplete="one-time-code" inputmode="numeric" required maxlength="32" aria-invalid="${options.error ? 'true' : 'false'}">
<button type="submit">Turn on two-factor log-in</button></form>`,
    { nav: accountNav(options.csrf) },
  );
}

/** The recovery codes, shown once when 2FA is turned on. */
export function recoveryCodesPage(options: { csrf: string; codes: readonly string[] }): string {
  return layout(
    'Two-factor log-in is on',
    html`<p class="notice" role="status">Save these recovery codes now: each works once, in place of a code, and they cannot be shown again.</p>
<ul data-testid="recovery-codes">${options.codes.map((code) => html`<li><code>${code}</code></li>`)}</ul>
<p><a href="/auth/settings">Back to settings</a></p>`,
    { nav: accountNav(options.csrf) },
  );
}
