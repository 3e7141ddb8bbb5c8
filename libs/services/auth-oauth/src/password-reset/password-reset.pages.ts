import type { EdgeReply } from '@doable/contracts-common';
import { Injectable } from '@nestjs/common';
import { REQUEST_ANSWER_FLOOR_MS } from '../account-links/link-settings';
import type { WebExchange } from '../exchange/web-exchange';
import { isPlausibleEmail } from '../passwords/password-policy';
import { AccountPages } from '../web/account-pages';
import { forgotPasswordPage, linkInvalidPage, passwordChangedPage, resetError, resetPasswordPage, resetRequestedPage } from './password-reset.html';
import { isTokenShaped } from '../account-links/link-token';
import { PasswordResetService } from './password-reset.service';

/** The "forgot password" and "choose a new password" pages (no session: the mailed link is the credential). */
@Injectable()
export class PasswordResetPages {
  constructor(
    private readonly resets: PasswordResetService,
    private readonly pages: AccountPages,
  ) {}

  forgotForm(web: WebExchange): EdgeReply {
    return web.html(200, forgotPasswordPage({ csrf: web.csrf() }));
  }

  /**
   * The same page, status and (at least REQUEST_ANSWER_FLOOR_MS) time for every plausible
   * address: whether it has an account, or is over its rate limit, does not show.
   */
  async requestReset(web: WebExchange): Promise<EdgeReply> {
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const email = (web.field('email') ?? '').trim().toLowerCase();
    if (!isPlausibleEmail(email)) return web.html(400, forgotPasswordPage({ csrf: web.csrf(), error: resetError('INVALID_EMAIL') }));
    const floor = delay(REQUEST_ANSWER_FLOOR_MS);
    await this.resets.request(email);
    await floor;
    return web.html(200, resetRequestedPage());
  }

  /** The mailed link's page: a form carrying the link's secret, or a page saying the link is spent. */
  async resetForm(web: WebExchange): Promise<EdgeReply> {
    const token = web.query('token') ?? '';
    if (!isTokenShaped(token) || !(await this.resets.accountOf(token))) return web.html(400, linkInvalidPage());
    return web.html(200, resetPasswordPage({ csrf: web.csrf(), token }));
  }

  async reset(web: WebExchange): Promise<EdgeReply> {
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const token = web.field('token') ?? '';
    const outcome = await this.resets.complete(token, web.field('password') ?? '', { signOutEverywhere: web.field('sign_out_everywhere') === 'on' });
    if (outcome.done) return web.html(200, passwordChangedPage(outcome.revokedTokens));
    if (outcome.tag === 'RESET_LINK_INVALID') return web.html(400, linkInvalidPage());
    return web.html(400, resetPasswordPage({ csrf: web.csrf(), token, error: resetError(outcome.tag) }));
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
