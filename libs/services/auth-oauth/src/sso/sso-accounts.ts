import { isStorableText } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { Database } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { LinkIdentity } from '../account-links/account-link.repository';
import { AccountService } from '../accounts/account.service';
import { isPlausibleEmail } from '../passwords/password-policy';
import { domainAllowed, type SsoProvider } from './sso-config';

/** What a provider said about the person, after openid-client validated the ID token. */
export interface SsoClaims {
  readonly issuer: string;
  readonly subject: string;
  readonly email?: string;
  /** Only `true` counts: a missing claim is not a verified email. */
  readonly emailVerified?: boolean;
  readonly name?: string;
}

/** Why a sign-in is refused; each has its page (web/sso-pages.ts). */
export type SsoRefusal = 'DOMAIN_NOT_ALLOWED' | 'EMAIL_NOT_VERIFIED' | 'NO_ACCOUNT' | 'ALREADY_LINKED' | 'INVALID_EMAIL';

/**
 * A verified email names an account whose own address was never proven (issue #44): it may be one
 * made by someone else to wait for this person, so it is linked only once the person shows the
 * account's password or confirms a mail to that address (web/sso-link-pages.ts).
 */
export interface SsoProofNeeded {
  readonly proofNeeded: { readonly userId: string; readonly email: string };
}

export type SsoOutcome = { readonly userId: string; readonly how: 'identity' | 'linked' | 'created' } | { readonly refused: SsoRefusal } | SsoProofNeeded;

const UNIQUE_VIOLATION = '23505';

export function uniqueViolation(err: unknown): boolean {
  return (err as { driverError?: { code?: string } }).driverError?.code === UNIQUE_VIOLATION;
}

/**
 * The linking rules: who a provider's person is here.
 * 1. With a domain list, the person's email must be verified and of a listed domain, at every
 *    sign-in (an unverified email says nothing about the domain).
 * 2. A stored (issuer, subject) names the account.
 * 3. Otherwise a verified email (`email_verified: true`) names an account once, if that
 *    account's own address is proven (issue #44): the subject is stored, and from then on the
 *    subject decides (the email at the provider may change). An account holds one identity per
 *    issuer, so a second person of the same issuer with that email is refused rather than let in.
 *    An account whose address was never proven is not linked on the email's word: the person
 *    proves it is theirs first (its password, or a confirmation mail).
 * 4. Otherwise, when the provider allows it, an account is made the way sign-up makes one (same
 *    transaction, same userCreated event, no password), its address proven by the provider, and
 *    the identity stored.
 */
@Injectable()
export class SsoAccounts {
  constructor(
    private readonly database: Database,
    private readonly accounts: AccountService,
  ) {}

  async signIn(provider: SsoProvider, claims: SsoClaims): Promise<SsoOutcome> {
    const email = claims.email?.trim().toLowerCase();
    const verified = email !== undefined && claims.emailVerified === true;
    if (provider.allowedDomains.length > 0 && !(verified && domainAllowed(provider, email))) {
      return { refused: verified || email === undefined ? 'DOMAIN_NOT_ALLOWED' : 'EMAIL_NOT_VERIFIED' };
    }
    const known = await this.identity(claims);
    if (known) return { userId: known, how: 'identity' };
    if (!verified) return { refused: 'EMAIL_NOT_VERIFIED' };
    if (!isPlausibleEmail(email)) return { refused: 'INVALID_EMAIL' };
    // Twice at most: a first sign-in of the same person in another tab may create the account
    // between the look-up and the creation here; the second round links to it.
    for (let round = 0; round < 2; round++) {
      const existing = await this.accounts.byEmail(email);
      if (existing?.verified) return this.link(provider, claims, existing.id, 'linked');
      if (existing) return { proofNeeded: { userId: existing.id, email } };
      if (!provider.createAccounts) return { refused: 'NO_ACCOUNT' };
      try {
        const created = await this.accounts.create({ email, fullName: fullNameOf(claims, email), timezone: 'UTC', emailVerified: true });
        return this.link(provider, claims, created.userId, 'created');
      } catch (err) {
        if (!(err instanceof DomainError && err.code === 'EMAIL_ALREADY_EXISTS')) throw err;
      }
    }
    throw new Error('single sign-on: the account was neither found nor created');
  }

  /** The account a stored identity names; its last sign-in noted. */
  private async identity(claims: SsoClaims): Promise<string | undefined> {
    const [rows] = await this.database.query<[Array<{ user_id: string }>, number]>(
      'UPDATE auth.sso_identities SET last_sign_in_at = now() WHERE issuer = $1 AND subject = $2 RETURNING user_id::text AS user_id',
      [claims.issuer, claims.subject],
    );
    return rows[0]?.user_id;
  }

  private async link(provider: SsoProvider, claims: SsoClaims, userId: string, how: 'linked' | 'created'): Promise<SsoOutcome> {
    try {
      await storeIdentity(this.database.dataSource.manager, { providerId: provider.id, issuer: claims.issuer, subject: claims.subject }, userId);
      return { userId, how };
    } catch (err) {
      if (!uniqueViolation(err)) throw err;
      // The same person's other tab stored it first: the subject decides, as it will from now on.
      const known = await this.identity(claims);
      if (known) return { userId: known, how: 'identity' };
      return { refused: 'ALREADY_LINKED' };
    }
  }
}

/** Stores a provider's person as the account's identity; PostgreSQL refuses a second one of the issuer (23505). */
export async function storeIdentity(manager: EntityManager, identity: LinkIdentity, userId: string): Promise<void> {
  await manager.query('INSERT INTO auth.sso_identities (issuer, subject, user_id, provider_id) VALUES ($1, $2, $3, $4)', [identity.issuer, identity.subject, userId, identity.providerId]);
}

/** The account's name: the provider's `name`, else the email's local part. */
function fullNameOf(claims: SsoClaims, email: string): string {
  const name = claims.name?.trim();
  if (name && isStorableText(name)) return [...name].slice(0, 255).join('');
  return email.slice(0, email.lastIndexOf('@')).slice(0, 255);
}
