import { AuthEvents, hashToken } from '@doable/contracts-auth';
import { Database, type Tx } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { AccountLinkRepository } from '../account-links/account-link.repository';
import { LINK_SETTINGS, type LinkSettings } from '../account-links/link-settings';
import { isTokenShaped } from '../account-links/link-token';

export const ADDRESS_VERIFY_PATH = '/auth/email/verify';

export type AddressConfirmOutcome = { readonly done: true; readonly email: string } | { readonly done: false; readonly tag: string };

/**
 * A self sign-up's address is unproven until its mailed link is used (issue #44): until then the
 * account works, but no single sign-on links to it on the email's word, and sync matches no
 * invitation or workspace domain to it. The link is the address change's machinery: a hashed
 * single-use secret in auth.account_links, a TTL, the per-address and per-account limits, and an
 * outbox event the notifications service mails.
 */
@Injectable()
export class AddressConfirmationService {
  constructor(
    private readonly database: Database,
    private readonly links: AccountLinkRepository,
    @Inject(LINK_SETTINGS) private readonly settings: LinkSettings,
  ) {}

  /**
   * Mails the account's confirmation link, in the caller's transaction (the sign-up's: no account
   * without its mail). Over the limits no mail goes (false): the account stays unproven, which only
   * means it is not linked or matched on its address (a confirmed address change proves one).
   */
  async issue(tx: Tx, account: { userId: string; email: string; fullName: string }): Promise<boolean> {
    if (!(await this.links.withinLinkLimits(tx.manager, 'email-verify', account.userId, account.email))) return false;
    const { token, expiresAt } = await this.links.issue(tx.manager, { userId: account.userId, kind: 'email-verify', ttlSeconds: this.settings.emailChangeTtlSeconds });
    await tx.emit(AuthEvents.addressConfirmationRequested, {
      userId: account.userId,
      email: account.email,
      fullName: account.fullName,
      lang: 'en',
      link: `${this.settings.publicUrl}${ADDRESS_VERIFY_PATH}?token=${token}`,
      expiresAt: expiresAt.toISOString(),
      reason: 'sign-up',
    });
    return true;
  }

  /** The address a live link would prove, or undefined. */
  async pendingOf(token: string): Promise<string | undefined> {
    if (!isTokenShaped(token)) return undefined;
    return (await this.links.findLive(this.database.dataSource.manager, 'email-verify', hashToken(token)))?.email;
  }

  /** Proves the account's address (links of an address it has left were ended when it moved). RESET_LINK_INVALID for an unknown, used or expired link. */
  async confirm(token: string): Promise<AddressConfirmOutcome> {
    if (!isTokenShaped(token)) return { done: false, tag: 'RESET_LINK_INVALID' };
    return this.database.transaction(async (tx): Promise<AddressConfirmOutcome> => {
      const link = await this.links.findLive(tx.manager, 'email-verify', hashToken(token), true);
      if (!link) return { done: false, tag: 'RESET_LINK_INVALID' };
      await this.links.markVerified(tx.manager, link.userId);
      await this.links.endAll(tx.manager, link.userId, 'email-verify');
      await tx.emit(AuthEvents.emailVerified, { userId: link.userId, email: link.email });
      return { done: true, email: link.email };
    });
  }
}
