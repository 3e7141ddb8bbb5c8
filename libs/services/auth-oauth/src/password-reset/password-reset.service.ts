import { AuthEvents, hashToken } from '@doable/contracts-auth';
import { DomainError } from '@doable/shared-errors';
import { Database } from '@doable/shared-runtime';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { isTokenShaped } from '../account-links/link-token';
import { AccountLinkRepository } from '../account-links/account-link.repository';
import { LINK_RATE_WINDOW_SECONDS, LINK_REQUESTS_PER_ADDRESS, LINK_SETTINGS, LINKS_PER_ACCOUNT, type LinkSettings } from '../account-links/link-settings';
import { hashPassword } from '../passwords/password-hasher';
import { isPlausibleEmail, passwordProblem } from '../passwords/password-policy';
import { NO_BARRIER, REVOCATION_BARRIER, type RevocationBarrier } from '../tokens/revocation-barrier';
import { signOutEverywhere } from '../tokens/sign-out-everywhere';

export const PASSWORD_RESET_PATH = '/auth/password/reset';

/**
 * What a reset did: done (with how many tokens "sign out everywhere" revoked), or refused with the
 * form's tag (the link unknown, used or expired; or the new password against the policy).
 */
export type ResetOutcome = { readonly done: true; readonly userId: string; readonly revokedTokens: number } | { readonly done: false; readonly tag: string };

/**
 * Forgotten passwords: a request mails (through the password-reset-requested event) a link with
 * a single-use secret kept here only as its sha256; the link sets a new password once.
 */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly database: Database,
    private readonly links: AccountLinkRepository,
    @Inject(LINK_SETTINGS) private readonly settings: LinkSettings,
    @Optional() @Inject(REVOCATION_BARRIER) private readonly barrier: RevocationBarrier = NO_BARRIER,
  ) {}

  /**
   * Asks for a reset link for `email`. Answers nothing either way: whether the address has an
   * account, or was over its rate limit, must not show (the caller answers the same page). A
   * link is made only for an existing account within both limits (per address, per account).
   */
  async request(email: string): Promise<void> {
    const address = email.trim().toLowerCase();
    if (!isPlausibleEmail(address)) throw new DomainError('INVALID_EMAIL', undefined, { argument: 'email' });
    await this.database.transaction(async (tx) => {
      if (!(await this.links.countRequest(tx.manager, 'password-reset', address, LINK_REQUESTS_PER_ADDRESS, LINK_RATE_WINDOW_SECONDS))) return;
      const account = await this.links.lockAccountByEmail(tx.manager, address);
      if (!account) return;
      if ((await this.links.issuedRecently(tx.manager, account.id, 'password-reset', LINK_RATE_WINDOW_SECONDS)) >= LINKS_PER_ACCOUNT) return;
      const { token, expiresAt } = await this.links.issue(tx.manager, { userId: account.id, kind: 'password-reset', ttlSeconds: this.settings.passwordResetTtlSeconds });
      await tx.emit(AuthEvents.passwordResetRequested, {
        userId: account.id,
        email: account.email,
        fullName: account.fullName,
        lang: 'en',
        link: `${this.settings.publicUrl}${PASSWORD_RESET_PATH}?token=${token}`,
        expiresAt: expiresAt.toISOString(),
      });
    });
  }

  /** The account a live link opens (its email, for the password policy), or undefined. */
  async accountOf(token: string): Promise<{ userId: string; email: string } | undefined> {
    if (!isTokenShaped(token)) return undefined;
    const link = await this.links.findLive(this.database.dataSource.manager, 'password-reset', hashToken(token));
    return link ? { userId: link.userId, email: link.email } : undefined;
  }

  /**
   * Sets the new password through a live link, which then stops working, with every other reset
   * link of the account. Every browser session ends (as any password change here does); with
   * `signOutEverywhere`, every API and OAuth token is revoked too, and this returns once no
   * gateway accepts them.
   */
  async complete(token: string, password: string, options: { signOutEverywhere: boolean }): Promise<ResetOutcome> {
    const account = await this.accountOf(token);
    if (!account) return { done: false, tag: 'RESET_LINK_INVALID' };
    const problem = passwordProblem(password, account.email);
    if (problem) return { done: false, tag: problem };
    // Hashed before the transaction: scrypt is slow, and a transaction is kept short.
    const passwordHash = await hashPassword(password);
    const outcome = await this.database.transaction(async (tx) => {
      // Again under the row lock: a concurrent use of the same link waits here and finds it used.
      const link = await this.links.findLive(tx.manager, 'password-reset', hashToken(token), true);
      if (!link) return undefined;
      await this.links.setPasswordHash(tx.manager, link.userId, passwordHash);
      await this.links.endAll(tx.manager, link.userId, 'password-reset');
      if (options.signOutEverywhere) return { userId: link.userId, revoked: await signOutEverywhere(tx, link.userId) };
      await this.links.endSessions(tx.manager, link.userId);
      return { userId: link.userId, revoked: [] as string[] };
    });
    if (!outcome) return { done: false, tag: 'RESET_LINK_INVALID' };
    // After the commit: the tokens are revoked whatever happens; this waits until gateways agree
    // (a gateway that cannot confirm forgets them within its cache TTL).
    await this.barrier.revoked(outcome.revoked).catch(() => undefined);
    return { done: true, userId: outcome.userId, revokedTokens: outcome.revoked.length };
  }
}

