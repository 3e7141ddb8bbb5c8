import { type EdgeReply, isStorableText } from '@doable/contracts-common';
import { Injectable } from '@nestjs/common';
import type { WebExchange } from '../exchange/web-exchange';
import { AccountPages } from './account-pages';
import { loginPage } from './pages';
import { safeNext } from './safe-next';
import { PendingLogin } from '../two-factor/pending-login';
import { type CodeVerdict, TwoFactorService } from '../two-factor/two-factor.service';
import { enrolmentPage, recoveryCodesPage, twoFactorError, twoFactorLoginPage, twoFactorSettingsPage } from './two-factor-views';

const SETTINGS = '/auth/settings/two-factor';
const MAX_CODE_LENGTH = 32;

/** A refused code: 401 when wrong, 429 while the account's second factor is locked. */
function refusal(verdict: Exclude<CodeVerdict, 'ok'>) {
  return verdict === 'locked' ? { status: 429, error: twoFactorError('TWO_FACTOR_LOCKED') } : { status: 401, error: twoFactorError('TWO_FACTOR_CODE_INVALID') };
}

/** A code as posted, or '' when missing or longer than any code (refused without a look-up). */
export function postedCode(web: WebExchange): string {
  const code = (web.field('otp') ?? '').trim();
  return code.length <= MAX_CODE_LENGTH ? code : '';
}

/** The pages of the second factor: the log-in's second step, enrolment and turning it off. */
@Injectable()
export class TwoFactorPages {
  constructor(
    private readonly pages: AccountPages,
    private readonly twoFactor: TwoFactorService,
    private readonly pending: PendingLogin,
  ) {}

  async loginForm(web: WebExchange): Promise<EdgeReply> {
    if (!(await this.pending.userOf(web))) return web.redirect('/auth/login');
    return web.html(200, twoFactorLoginPage({ csrf: web.csrf(), next: web.query('next') }));
  }

  /** The code for a pending log-in: a session only once it is right. */
  async login(web: WebExchange): Promise<EdgeReply> {
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const next = web.field('next');
    const userId = await this.pending.userOf(web);
    if (!userId) {
      this.pending.end(web);
      return web.html(401, loginPage({ csrf: web.csrf(), next: next && isStorableText(next) ? next : undefined, error: twoFactorError('TWO_FACTOR_EXPIRED') }));
    }
    const verdict = await this.twoFactor.verify(userId, postedCode(web));
    if (verdict !== 'ok') {
      const { status, error } = refusal(verdict);
      return web.html(status, twoFactorLoginPage({ csrf: web.csrf(), next, error }));
    }
    this.pending.end(web);
    await this.pages.startSession(web, userId);
    return web.redirect(safeNext(next, '/auth/settings'));
  }

  async settings(web: WebExchange): Promise<EdgeReply> {
    const user = await this.pages.currentUser(web);
    if (!user) return this.pages.loginRedirect(web, SETTINGS);
    return web.html(200, await this.settingsPage(web, user.userId));
  }

  async start(web: WebExchange): Promise<EdgeReply> {
    const user = await this.pages.currentUser(web);
    if (!user) return this.pages.loginRedirect(web, SETTINGS);
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const enrolment = await this.twoFactor.startEnrolment(user.userId, user.email);
    if (!enrolment) return web.html(409, await this.settingsPage(web, user.userId, { error: twoFactorError('TWO_FACTOR_ALREADY_ON') }));
    return web.html(200, enrolmentPage({ csrf: web.csrf(), ...enrolment }));
  }

  async confirm(web: WebExchange): Promise<EdgeReply> {
    const user = await this.pages.currentUser(web);
    if (!user) return this.pages.loginRedirect(web, SETTINGS);
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const { verdict, recoveryCodes } = await this.twoFactor.confirmEnrolment(user.userId, postedCode(web));
    if (verdict === 'ok' && recoveryCodes) {
      await this.pages.secondFactorChanged(web, user.userId);
      return web.html(200, recoveryCodesPage({ csrf: web.csrf(), codes: recoveryCodes }));
    }
    // A wrong code: the same key again (it is likely in the app already), with the error.
    const { status, error } = refusal(verdict === 'ok' ? 'wrong' : verdict);
    const enrolment = await this.twoFactor.pendingEnrolment(user.userId, user.email);
    if (!enrolment) return web.html(status, await this.settingsPage(web, user.userId, { error }));
    return web.html(status, enrolmentPage({ csrf: web.csrf(), ...enrolment, error }));
  }

  async disable(web: WebExchange): Promise<EdgeReply> {
    const user = await this.pages.currentUser(web);
    if (!user) return this.pages.loginRedirect(web, SETTINGS);
    if (!web.csrfValid()) return this.pages.csrfRejected(web);
    const verdict = await this.twoFactor.disable(user.userId, postedCode(web));
    if (verdict !== 'ok') {
      const { status, error } = refusal(verdict);
      return web.html(status, await this.settingsPage(web, user.userId, { error }));
    }
    await this.pages.secondFactorChanged(web, user.userId);
    return web.html(200, await this.settingsPage(web, user.userId, { notice: 'Two-factor log-in is off.' }));
  }

  private async settingsPage(web: WebExchange, userId: string, extra: { error?: ReturnType<typeof twoFactorError>; notice?: string } = {}): Promise<string> {
    const enabled = await this.twoFactor.isEnabled(userId);
    return twoFactorSettingsPage({ csrf: web.csrf(), enabled, recoveryLeft: enabled ? await this.twoFactor.recoveryCodesLeft(userId) : 0, ...extra });
  }
}
