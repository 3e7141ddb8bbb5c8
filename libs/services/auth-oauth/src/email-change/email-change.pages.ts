import type { EdgeReply } from '@doable/contracts-common';
import { Injectable } from '@nestjs/common';
import type { WebExchange } from '../exchange/web-exchange';
import { OAuthService } from '../oauth/oauth.service';
import { resetError } from '../password-reset/password-reset.html';
import { AccountPages } from '../web/account-pages';
import { type FormError, settingsPage } from '../web/pages';
import { confirmEmailPage, emailChangedPage, emailLinkInvalidPage } from './email-change.html';
import { EmailChangeService } from './email-change.service';
import { AddressConfirmationService } from '../address-confirmation/address-confirmation.service';
import { addressVerifiedPage, verifyAddressPage } from '../web/address-confirmation.html';

const STATUS_OF: Readonly<Record<string, number>> = { ALREADY_REGISTERED: 409, RATE_LIMITED: 429, PASSWORD_LOGIN_DISABLED: 403 };

/** The settings page's address change and the confirmation page its mailed link opens. */
@Injectable()
export class EmailChangePages {
  constructor(
    private readonly changes: EmailChangeService,
    private readonly pages: AccountPages,
    private readonly oauth: OAuthService,
  ) {}

  async request(web: WebExchange): Promise<EdgeReply> {
    const user = await this.pages.currentUser(web);
    if (!user) return this.pages.loginRedirect(web, '/auth/settings');
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const outcome = await this.changes.request(user.userId, web.field('new_email') ?? '', web.field('current_password') ?? '');
    const authorized = await this.oauth.authorizedApps(user.userId);
    const page = (options: { notice?: string; emailError?: FormError }) => settingsPage({ csrf: web.csrf(), email: user.email, fullName: user.fullName, authorized, ...options });
    if (outcome.sent) return web.html(200, page({ notice: `We sent a confirmation link to ${outcome.email}. Your address changes when you follow it.` }));
    return web.html(STATUS_OF[outcome.tag] ?? 400, page({ emailError: emailError(outcome.tag) }));
  }

  /** The link's page asks before it changes anything: mail scanners open links, and must not confirm them. */
  async confirmForm(web: WebExchange): Promise<EdgeReply> {
    const token = web.query('token') ?? '';
    const pending = await this.changes.pendingOf(token);
    if (!pending) return web.html(400, emailLinkInvalidPage());
    return web.html(200, confirmEmailPage({ csrf: web.csrf(), token, newEmail: pending }));
  }

  async confirm(web: WebExchange): Promise<EdgeReply> {
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const outcome = await this.changes.confirm(web.field('token') ?? '');
    if (outcome.done) return web.html(200, emailChangedPage(outcome.email));
    if (outcome.tag === 'ALREADY_REGISTERED') return web.html(409, emailLinkInvalidPage(emailError('ALREADY_REGISTERED')));
    return web.html(400, emailLinkInvalidPage());
  }
}

/** A sign-up's confirmation link (issue #44): its page and its button. */
@Injectable()
export class AddressConfirmationPages {
  constructor(
    private readonly confirmations: AddressConfirmationService,
    private readonly pages: AccountPages,
  ) {}

  /** The link's page asks before it changes anything: mail scanners open links, and must not confirm them. */
  async verifyForm(web: WebExchange): Promise<EdgeReply> {
    const token = web.query('token') ?? '';
    const email = await this.confirmations.pendingOf(token);
    if (email === undefined) return web.html(400, emailLinkInvalidPage());
    return web.html(200, verifyAddressPage({ csrf: web.csrf(), token, email }));
  }

  async verify(web: WebExchange): Promise<EdgeReply> {
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const outcome = await this.confirmations.confirm(web.field('token') ?? '');
    if (outcome.done) return web.html(200, addressVerifiedPage(outcome.email));
    return web.html(400, emailLinkInvalidPage());
  }
}

const EMAIL_MESSAGES: Readonly<Record<string, string>> = {
  AUTHENTICATION_ERROR: 'The current password is not correct.',
  EMAIL_UNCHANGED: 'This is already your address.',
  ALREADY_REGISTERED: 'Another account uses this address.',
  RATE_LIMITED: 'Too many address changes were asked for lately. Try again in an hour.',
  PASSWORD_LOGIN_DISABLED: 'Accounts of this email domain sign in with single sign-on; an account cannot move to it.',
};

function emailError(tag: string): FormError {
  return EMAIL_MESSAGES[tag] ? { tag, message: EMAIL_MESSAGES[tag] } : resetError(tag);
}
