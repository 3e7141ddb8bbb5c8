import { AuthEvents, hashToken } from '@doable/contracts-auth';
import { Database, type Tx } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import type { AddressChanges } from '../accounts/address-changes';
import { AccountLinkRepository } from '../account-links/account-link.repository';
import { LINK_SETTINGS, type LinkSettings } from '../account-links/link-settings';
import { verifyPassword } from '../passwords/password-hasher';
import { isPlausibleEmail } from '../passwords/password-policy';
import { isTokenShaped } from '../account-links/link-token';
import { passwordForbiddenBy, type SsoProvider } from '../sso/sso-config';
import { SSO_PROVIDERS } from '../sso/sso-providers.token';

export const EMAIL_CONFIRM_PATH = '/auth/email/confirm';

const UNIQUE_VIOLATION = '23505';

/** A request's answer: sent (to `email`), or refused with the form's tag. */
export type EmailChangeRequestOutcome = { readonly sent: true; readonly email: string } | { readonly sent: false; readonly tag: string };
export type EmailConfirmOutcome = { readonly done: true; readonly email: string } | { readonly done: false; readonly tag: string };

/**
 * Every address change (the settings page's and the Sync API's `user_update`, issue #44): pending
 * until the NEW address confirms it through a mailed single-use link (the email-change-requested
 * event, which also tells the old address); only then does the account's address change, here and
 * (the email-changed event) in sync's profile, and count as proven.
 */
@Injectable()
export class EmailChangeService implements AddressChanges {
  constructor(
    private readonly database: Database,
    private readonly links: AccountLinkRepository,
    @Inject(LINK_SETTINGS) private readonly settings: LinkSettings,
    @Inject(SSO_PROVIDERS) private readonly ssoProviders: readonly SsoProvider[],
  ) {}

  /**
   * Asks to move the account to `newEmail`: the current password must be right (when the account
   * has one). A newer request replaces a pending one. Rate-limited per account and per new address
   * (RATE_LIMITED); an address another account uses is ALREADY_REGISTERED.
   */
  async request(userId: string, newEmail: string, currentPassword: string): Promise<EmailChangeRequestOutcome> {
    const email = newEmail.trim().toLowerCase();
    if (!isPlausibleEmail(email)) return { sent: false, tag: 'INVALID_EMAIL' };
    const account = await this.links.account(this.database.dataSource.manager, userId);
    if (!account) return { sent: false, tag: 'AUTHENTICATION_ERROR' };
    if (account.passwordHash !== null && !(await verifyPassword(currentPassword, account.passwordHash))) return { sent: false, tag: 'AUTHENTICATION_ERROR' };
    if (email === account.email.toLowerCase()) return { sent: false, tag: 'EMAIL_UNCHANGED' };
    if (this.ssoOnly(email)) return { sent: false, tag: 'PASSWORD_LOGIN_DISABLED' };
    return this.database.transaction((tx) => this.issue(tx, userId, account, email));
  }

  /**
   * Whether `email` is of a domain whose accounts must sign in with single sign-on: no account
   * moves there by a change (it would be one the domain's provider never vouched for, and the
   * person's first sign-on would then land in it).
   */
  ssoOnly(email: string): boolean {
    return passwordForbiddenBy(this.ssoProviders, email) !== undefined;
  }

  /**
   * Mails the confirmation link of a change to `email` (lower-cased, checked plausible and not
   * the current address by the caller), in the caller's transaction: the caller's other writes
   * (the Sync API's password change) commit with it or not at all. A newer request replaces a
   * pending one. Rate-limited per account and per new address (RATE_LIMITED); an address another
   * account uses is ALREADY_REGISTERED.
   */
  async issue(tx: Tx, userId: string, account: { email: string; fullName: string }, email: string): Promise<EmailChangeRequestOutcome> {
    if (await this.links.emailTaken(tx.manager, email)) return { sent: false, tag: 'ALREADY_REGISTERED' };
    // Locked: two requests of the account count against its limit one after the other.
    await this.links.account(tx.manager, userId, true);
    if (!(await this.links.withinLinkLimits(tx.manager, 'email-change', userId, email))) return { sent: false, tag: 'RATE_LIMITED' };
    // One pending change at a time: the newest request is the one the user means.
    await this.links.endAll(tx.manager, userId, 'email-change');
    const { token, expiresAt } = await this.links.issue(tx.manager, { userId, kind: 'email-change', newEmail: email, ttlSeconds: this.settings.emailChangeTtlSeconds });
    await tx.emit(AuthEvents.emailChangeRequested, {
      userId,
      email,
      previousEmail: account.email,
      fullName: account.fullName,
      lang: 'en',
      link: `${this.settings.publicUrl}${EMAIL_CONFIRM_PATH}?token=${token}`,
      expiresAt: expiresAt.toISOString(),
    });
    return { sent: true, email };
  }

  /** The new address a live link confirms, or undefined. */
  async pendingOf(token: string): Promise<string | undefined> {
    if (!isTokenShaped(token)) return undefined;
    const link = await this.links.findLive(this.database.dataSource.manager, 'email-change', hashToken(token));
    return link?.newEmail ?? undefined;
  }

  /**
   * Confirms the change a live link names: the account takes the new address, the link (and any
   * other pending change) stops working, and sync is told (email-changed). RESET_LINK_INVALID for
   * an unknown, used or expired link; ALREADY_REGISTERED when another account took the address meanwhile.
   */
  async confirm(token: string): Promise<EmailConfirmOutcome> {
    if (!isTokenShaped(token)) return { done: false, tag: 'RESET_LINK_INVALID' };
    try {
      return await this.database.transaction(async (tx): Promise<EmailConfirmOutcome> => {
        const link = await this.links.findLive(tx.manager, 'email-change', hashToken(token), true);
        if (!link?.newEmail) return { done: false, tag: 'RESET_LINK_INVALID' };
        // The new address just proved itself: whatever the old one's standing, this one is proven.
        await this.links.setEmail(tx.manager, link.userId, link.newEmail);
        await this.links.markVerified(tx.manager, link.userId);
        await this.links.endAll(tx.manager, link.userId, 'email-change');
        // A reset link mailed to the previous address would open the account from a mailbox it left.
        await this.links.endAll(tx.manager, link.userId, 'password-reset');
        // A sign-up's confirmation names the address left: it must not prove the new one.
        await this.links.endAll(tx.manager, link.userId, 'email-verify');
        await tx.emit(AuthEvents.emailChanged, { userId: link.userId, email: link.newEmail, previousEmail: link.email });
        await tx.emit(AuthEvents.emailVerified, { userId: link.userId, email: link.newEmail });
        return { done: true, email: link.newEmail };
      });
    } catch (err) {
      if ((err as { driverError?: { code?: string } }).driverError?.code === UNIQUE_VIOLATION) return { done: false, tag: 'ALREADY_REGISTERED' };
      throw err;
    }
  }
}
