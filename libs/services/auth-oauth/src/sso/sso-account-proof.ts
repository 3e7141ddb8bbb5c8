import { AuthEvents, hashToken } from '@doable/contracts-auth';
import { Database } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { AccountLinkRepository, type LinkIdentity } from '../account-links/account-link.repository';
import { LINK_SETTINGS, type LinkSettings } from '../account-links/link-settings';
import { verifyPassword } from '../passwords/password-hasher';
import { isTokenShaped } from '../account-links/link-token';
import { signOutEverywhere } from '../tokens/sign-out-everywhere';
import { storeIdentity } from './sso-accounts';
import type { SsoProvider } from './sso-config';
import { SSO_LOGIN_TTL_SECONDS } from './sso-logins';
import { SSO_PROVIDERS } from './sso-providers.token';

export const SSO_LINK_CONFIRM_PATH = '/auth/sso/link/confirm';

export type SsoProofOutcome = { readonly userId: string } | { readonly tag: 'SSO_EXPIRED' | 'AUTHENTICATION_ERROR' | 'ALREADY_LINKED' | 'RESET_LINK_INVALID' };
export type SsoMailOutcome = { readonly sent: true; readonly email: string } | { readonly sent: false; readonly tag: 'SSO_EXPIRED' | 'RATE_LIMITED' };

/**
 * A single sign-on whose verified email names an account with an unproven address (issue #44):
 * the account may have been made by someone else, waiting for this person to sign on. It is
 * linked only on proof that the person may have it:
 * - its password (the person made it; the provider's verified email now proves the address), or
 * - a confirmation mail to its address. Whoever set the account's credentials never proved the
 *   address, so confirming ends them all: the password, two-factor log-in, every session and
 *   token. The mailbox's owner keeps the account; the one who made it keeps nothing.
 * Each step is an auth.account_links row holding the provider's person: `sso-link` is the
 * browser's (a cookie, the sign-in's lifetime), `sso-link-mail` the mailed one.
 */
@Injectable()
export class SsoAccountProof {
  constructor(
    private readonly database: Database,
    private readonly links: AccountLinkRepository,
    @Inject(LINK_SETTINGS) private readonly settings: LinkSettings,
    @Inject(SSO_PROVIDERS) private readonly providers: readonly SsoProvider[],
  ) {}

  /** The browser's handle (the cookie's value) on this person's pending link to the account. */
  async begin(identity: LinkIdentity, userId: string): Promise<string> {
    return (await this.links.issue(this.database.dataSource.manager, { userId, kind: 'sso-link', identity, ttlSeconds: SSO_LOGIN_TTL_SECONDS })).token;
  }

  /** The address of the account a live handle would link, or undefined. */
  async pendingOf(handle: string | undefined, kind: 'sso-link' | 'sso-link-mail' = 'sso-link'): Promise<string | undefined> {
    if (!handle || !isTokenShaped(handle)) return undefined;
    return (await this.links.findLive(this.database.dataSource.manager, kind, hashToken(handle)))?.email;
  }

  /** Links with the account's password: the account becomes proven (the provider vouched for its address). */
  async withPassword(handle: string | undefined, password: string): Promise<SsoProofOutcome> {
    if (!handle || !isTokenShaped(handle)) return { tag: 'SSO_EXPIRED' };
    const seen = await this.links.findLive(this.database.dataSource.manager, 'sso-link', hashToken(handle));
    if (!seen?.identity) return { tag: 'SSO_EXPIRED' };
    // An account without a password cannot be claimed this way; the mail is its way.
    if (seen.passwordHash === null || !(await verifyPassword(password, seen.passwordHash))) return { tag: 'AUTHENTICATION_ERROR' };
    return this.database.transaction(async (tx): Promise<SsoProofOutcome> => {
      const link = await this.links.findLive(tx.manager, 'sso-link', hashToken(handle), true);
      // The password changed meanwhile (or the handle was used): the one checked is stale.
      if (!link?.identity || link.passwordHash !== seen.passwordHash) return { tag: 'SSO_EXPIRED' };
      if (await this.identityTaken(tx.manager, link.identity, link.userId)) return { tag: 'ALREADY_LINKED' };
      await storeIdentity(tx.manager, link.identity, link.userId);
      await this.links.markVerified(tx.manager, link.userId);
      await this.links.end(tx.manager, link.id);
      await tx.emit(AuthEvents.emailVerified, { userId: link.userId, email: link.email });
      return { userId: link.userId };
    });
  }

  /** Mails the account's address a link that links the person (rate-limited as every mailed link). */
  async mail(handle: string | undefined): Promise<SsoMailOutcome> {
    if (!handle || !isTokenShaped(handle)) return { sent: false, tag: 'SSO_EXPIRED' };
    return this.database.transaction(async (tx): Promise<SsoMailOutcome> => {
      const link = await this.links.findLive(tx.manager, 'sso-link', hashToken(handle), true);
      if (!link?.identity) return { sent: false, tag: 'SSO_EXPIRED' };
      if (!(await this.links.withinLinkLimits(tx.manager, 'sso-link-mail', link.userId, link.email))) return { sent: false, tag: 'RATE_LIMITED' };
      const { token, expiresAt } = await this.links.issue(tx.manager, { userId: link.userId, kind: 'sso-link-mail', identity: link.identity, ttlSeconds: this.settings.emailChangeTtlSeconds });
      await tx.emit(AuthEvents.addressConfirmationRequested, {
        userId: link.userId,
        email: link.email,
        fullName: link.fullName,
        lang: 'en',
        link: `${this.settings.publicUrl}${SSO_LINK_CONFIRM_PATH}?token=${token}`,
        expiresAt: expiresAt.toISOString(),
        reason: 'sso-link',
        providerName: this.providers.find((provider) => provider.id === link.identity?.providerId)?.name ?? link.identity.providerId,
      });
      return { sent: true, email: link.email };
    });
  }

  /**
   * The mailed link used: the person is linked, the address proven, and every credential the
   * account had before ends (they were set by someone who never proved the address). Answers the
   * revoked tokens' hashes for the caller's revocation barrier.
   */
  async confirmMail(token: string): Promise<SsoProofOutcome & { revoked?: string[] }> {
    if (!isTokenShaped(token)) return { tag: 'RESET_LINK_INVALID' };
    return this.database.transaction(async (tx) => {
      const link = await this.links.findLive(tx.manager, 'sso-link-mail', hashToken(token), true);
      if (!link?.identity) return { tag: 'RESET_LINK_INVALID' as const };
      if (await this.identityTaken(tx.manager, link.identity, link.userId)) return { tag: 'ALREADY_LINKED' as const };
      await this.links.account(tx.manager, link.userId, true);
      await storeIdentity(tx.manager, link.identity, link.userId);
      await this.links.markVerified(tx.manager, link.userId);
      // Every other mailed link ends too: a reset or change asked for by the one who made the account.
      await this.links.dropCredentials(tx.manager, link.userId);
      const revoked = await signOutEverywhere(tx, link.userId);
      await tx.emit(AuthEvents.emailVerified, { userId: link.userId, email: link.email });
      return { userId: link.userId, revoked };
    });
  }

  /** Whether the person is linked elsewhere already, or the account holds another person of the issuer (one per issuer). */
  private identityTaken(manager: Parameters<typeof storeIdentity>[0], identity: LinkIdentity, userId: string): Promise<boolean> {
    return this.links.identityTaken(manager, identity, userId);
  }
}
