import { AuthEvents, type ChangeCredentialsRequest, type CreateAccountReply, hashToken, type SignupInvitationKind } from '@doable/contracts-auth';
import { DomainError } from '@doable/shared-errors';
import { Database, type Tx } from '@doable/shared-runtime';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { hashPassword, verifyPassword } from '../passwords/password-hasher';
import { isPlausibleEmail, passwordProblem } from '../passwords/password-policy';
import { generatePersonalToken, PERSONAL_TOKEN_SCOPES } from '../tokens/personal-token';
import { NO_BARRIER, REVOCATION_BARRIER, type RevocationBarrier } from '../tokens/revocation-barrier';
import { CommandLogRepository } from './command-log.repository';
import { ADDRESS_CHANGES, type AddressChanges } from './address-changes';

export interface NewAccount {
  readonly email: string;
  readonly fullName: string;
  readonly password?: string;
  readonly timezone: string;
  /** The invitation the sign-up page was opened with (SignupInvitation), passed on to sync. */
  readonly invitation?: { readonly id: string; readonly secret: string; readonly kind: SignupInvitationKind };
  /**
   * Whether the address is proven from the start (issue #44): the operator vouches for the
   * accounts it makes (CLI, first-run account, the account RPC), and a single sign-on only makes
   * one for a provider-verified address. Absent: a self sign-up, unproven until its link is used.
   */
  readonly emailVerified?: boolean;
}

/** What a refused address change answers on the Sync API, by the change's refusal tag. */
const ADDRESS_CHANGE_ERRORS: Readonly<Record<string, () => DomainError>> = {
  ALREADY_REGISTERED: () => new DomainError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists', { argument: 'email' }),
  RATE_LIMITED: () => new DomainError('RATE_LIMITED', 'Too many address changes were asked for lately; try again in an hour', { argument: 'email' }),
};

const UNIQUE_VIOLATION = '23505';

/** What a credential change answers (its `email`), and whether it was a later copy of a change already run (`repeated`: nothing changed now). */
export interface CredentialChange {
  readonly email: string;
  readonly repeated: boolean;
}

let dummy: Promise<string> | undefined;
/** A hash of nothing anyone knows, made once, to spend the same time on unknown emails. */
function dummyHash(): Promise<string> {
  dummy ??= hashPassword(`no-account-${Math.random()}`);
  return dummy;
}

@Injectable()
export class AccountService {
  constructor(
    private readonly database: Database,
    private readonly commandLog: CommandLogRepository,
    @Optional() @Inject(REVOCATION_BARRIER) private readonly barrier: RevocationBarrier = NO_BARRIER,
    /** The Sync API's address change goes through it; absent where nothing changes addresses (the operator CLI). */
    @Optional() @Inject(ADDRESS_CHANGES) private readonly addressChanges?: AddressChanges,
  ) {}

  /**
   * Creates the account, its personal token and the user-created event in one transaction:
   * either all three exist or none does. The token is returned once and kept only as a hash.
   * `alsoInTransaction` runs in that transaction too (the sign-up's confirmation mail).
   */
  async create(account: NewAccount, alsoInTransaction?: (tx: Tx, userId: string) => Promise<void>): Promise<CreateAccountReply> {
    // The same policy as the sign-up page, for every way in (the page, the CLI, the RPC).
    if (!isPlausibleEmail(account.email)) throw new DomainError('INVALID_EMAIL', undefined, { argument: 'email' });
    if (account.password !== undefined) {
      const problem = passwordProblem(account.password, account.email);
      if (problem) throw new DomainError(problem, undefined, { argument: 'password' });
    }
    const passwordHash = account.password ? await hashPassword(account.password) : null;
    try {
      return await this.database.transaction(async (tx) => {
        const [row] = await tx.manager.query<Array<{ id: string; created_at: Date }>>(
          `INSERT INTO auth.accounts (email, full_name, password_hash, timezone, email_verified_at) VALUES ($1, $2, $3, $4, CASE WHEN $5 THEN now() END)
           RETURNING id::text AS id, created_at`,
          [account.email, account.fullName, passwordHash, account.timezone, account.emailVerified === true],
        );
        // Made once the id is known: the token ends with the user's home key.
        const token = generatePersonalToken(row.id);
        await tx.manager.query(`INSERT INTO auth.access_tokens (user_id, token_hash, kind, scopes) VALUES ($1, $2, 'personal', $3)`, [
          row.id,
          hashToken(token),
          PERSONAL_TOKEN_SCOPES,
        ]);
        await tx.emit(AuthEvents.userCreated, {
          userId: row.id,
          email: account.email,
          fullName: account.fullName,
          timezone: account.timezone,
          lang: 'en',
          joinedAt: new Date(row.created_at).toISOString(),
          hasPassword: passwordHash !== null,
          emailVerified: account.emailVerified === true,
          ...(account.invitation ? { invitation: account.invitation } : {}),
        });
        if (alsoInTransaction) await alsoInTransaction(tx, row.id);
        return { userId: row.id, token };
      });
    } catch (err) {
      if ((err as { driverError?: { code?: string } }).driverError?.code === UNIQUE_VIOLATION) {
        throw new DomainError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists', { argument: 'email' });
      }
      throw err;
    }
  }

  /** Replaces the user's personal token: the old one stops working at once (gateways drop it on the event). */
  async resetPersonalToken(email: string): Promise<{ userId: string; token: string; confirmed: boolean }> {
    const { revoked, ...reset } = await this.database.transaction(async (tx) => {
      const [account] = await tx.manager.query<Array<{ id: string }>>(`SELECT id::text AS id FROM auth.accounts WHERE lower(email) = lower($1) FOR UPDATE`, [email]);
      if (!account) throw new DomainError('USER_NOT_FOUND', 'No account with this email', { argument: 'email' });
      // TypeORM answers UPDATE ... RETURNING with [rows, affected].
      const revoked = await tx.manager.query<[Array<{ token_hash: string }>, number]>(
        `UPDATE auth.access_tokens SET revoked_at = now() WHERE user_id = $1 AND kind = 'personal' AND revoked_at IS NULL RETURNING token_hash`,
        [account.id],
      );
      for (const { token_hash } of revoked[0]) await tx.emit(AuthEvents.tokenRevoked, { tokenHash: token_hash, userId: account.id });
      const token = generatePersonalToken(account.id);
      await tx.manager.query(`INSERT INTO auth.access_tokens (user_id, token_hash, kind, scopes) VALUES ($1, $2, 'personal', $3)`, [
        account.id,
        hashToken(token),
        PERSONAL_TOKEN_SCOPES,
      ]);
      return { userId: account.id, token, revoked: revoked[0].map((row) => row.token_hash) };
    });
    // After the commit: returns once no gateway accepts the old token. Should that not be
    // confirmed (NATS unreachable), the new token is still handed out, said to be unconfirmed:
    // the old one is revoked all the same, and a gateway cache forgets it within AUTH_CACHE_TTL_MS.
    const confirmed = await this.barrier.revoked(revoked).then(
      () => true,
      () => false,
    );
    return { ...reset, confirmed };
  }

  /**
   * Revokes every token of the account, personal and OAuth alike (the second factor changed:
   * none of them was issued under it), with a token-revoked event each; returns once no gateway
   * accepts them (or, NATS unreachable, once they are revoked: caches forget them within
   * AUTH_CACHE_TTL_MS). Answers how many were revoked.
   */
  async revokeEveryToken(userId: string): Promise<number> {
    const revoked = await this.database.transaction(async (tx) => {
      const [rows] = await tx.manager.query<[Array<{ token_hash: string }>, number]>(
        `UPDATE auth.access_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL RETURNING token_hash`,
        [userId],
      );
      for (const { token_hash } of rows) await tx.emit(AuthEvents.tokenRevoked, { tokenHash: token_hash, userId });
      return rows.map((row) => row.token_hash);
    });
    await this.barrier.revoked(revoked).catch(() => undefined);
    return revoked.length;
  }

  /**
   * The account behind an email and password, or undefined. An unknown email costs a hash as
   * well, so timing does not tell which emails have accounts.
   */
  async authenticate(email: string, password: string): Promise<{ userId: string } | undefined> {
    const [row] = await this.database.query<Array<{ id: string; password_hash: string | null }>>(
      'SELECT id::text AS id, password_hash FROM auth.accounts WHERE lower(email) = lower($1)',
      [email.trim()],
    );
    const ok = await verifyPassword(password, row?.password_hash ?? (await dummyHash()));
    return ok && row?.password_hash ? { userId: row.id } : undefined;
  }

  /**
   * The Sync API's email and password change (sync-interface §4.3, §7.4 tags). With a password
   * on the account, the current one must be given and right. A new password takes effect at once;
   * a new email does not (issue #44): a confirmation link goes to it (and a notice to the current
   * address), and the account keeps, and answers, its current address until the link is used. Hashing happens before the
   * transaction; the row is locked while the change is checked and written. With the sync
   * command's `uuid`, it runs once: sync resends a request whose replica fell silent, both copies
   * may get here, and a late copy must not set the email back after a later change.
   */
  async changeCredentials(request: ChangeCredentialsRequest): Promise<CredentialChange> {
    const uuid = request.uuid;
    // Before the password and every other check: the change may itself have replaced the
    // password the copy carries (or the email it compares), and a copy refused for that would
    // answer a refusal for a change that was made (sync keeps whichever copy's answer commits first).
    if (uuid !== undefined) {
      const earlier = await this.commandLog.answerOf(this.database.dataSource.manager, request.userId, uuid);
      if (earlier) return { ...earlier, repeated: true };
    }
    const [account] = await this.database.query<Array<{ email: string; full_name: string; password_hash: string | null }>>('SELECT email, full_name, password_hash FROM auth.accounts WHERE id = $1', [
      request.userId,
    ]);
    if (!account) throw new DomainError('USER_NOT_FOUND');
    const newEmail = request.email?.trim().toLowerCase();
    const changesEmail = newEmail !== undefined && newEmail !== account.email.toLowerCase();
    if (!changesEmail && request.password === undefined) {
      // Recorded too: after a later change of the email, a late copy would no longer be a no-op.
      const manager = this.database.dataSource.manager;
      if (uuid !== undefined && !(await this.commandLog.claim(manager, request.userId, uuid, account.email))) return this.repeatedAnswer(manager, request.userId, uuid);
      return { email: account.email, repeated: false };
    }
    if (account.password_hash !== null) {
      if (!request.currentPassword) throw new DomainError('PASSWORD_REQUIRED', undefined, { argument: 'current_password' });
      if (!(await verifyPassword(request.currentPassword, account.password_hash))) throw new DomainError('AUTHENTICATION_ERROR', undefined, { argument: 'current_password' });
    }
    if (changesEmail && !isPlausibleEmail(newEmail)) throw new DomainError('INVALID_EMAIL', undefined, { argument: 'email' });
    const addressChanges = this.addressChanges;
    if (changesEmail && !addressChanges) throw new Error('AccountService: an address change needs the EmailChangeService');
    if (changesEmail && addressChanges?.ssoOnly(newEmail)) throw new DomainError('EMAIL_DOMAIN_SSO_ONLY', undefined, { argument: 'email' });
    // The address the account keeps (and answers) until the new one confirms.
    const email = account.email;
    if (request.password !== undefined) {
      // Checked against the new address too: it is the one the account is meant to have.
      const problem = passwordProblem(request.password, email) ?? (changesEmail ? passwordProblem(request.password, newEmail) : undefined);
      if (problem) throw new DomainError(problem, undefined, { argument: 'password' });
    }
    const passwordHash = request.password === undefined ? undefined : await hashPassword(request.password);
    try {
      return await this.database.transaction(async (tx): Promise<CredentialChange> => {
        const [locked] = await tx.manager.query<Array<{ password_hash: string | null }>>('SELECT password_hash FROM auth.accounts WHERE id = $1 FOR UPDATE', [request.userId]);
        // Under the row lock, and before the stale-password check below (the first copy's new
        // password would fail it): a copy that passed the look-up above while the first was
        // running waits for the lock, then finds the uuid taken and changes nothing.
        if (locked && uuid !== undefined && !(await this.commandLog.claim(tx.manager, request.userId, uuid, email))) return this.repeatedAnswer(tx.manager, request.userId, uuid);
        // A concurrent change got there first: the current password checked above may be stale.
        if (locked?.password_hash !== account.password_hash) throw new DomainError('AUTHENTICATION_ERROR', 'The password changed meanwhile; try again', { argument: 'current_password' });
        if (passwordHash !== undefined) await tx.manager.query('UPDATE auth.accounts SET password_hash = $2 WHERE id = $1', [request.userId, passwordHash]);
        if (changesEmail && addressChanges) {
          // In this transaction: a change refused (taken, rate-limited) leaves the password and the uuid as they were.
          const outcome = await addressChanges.issue(tx, request.userId, { email: account.email, fullName: account.full_name }, newEmail);
          if (!outcome.sent) throw (ADDRESS_CHANGE_ERRORS[outcome.tag] ?? (() => new DomainError('INVALID_EMAIL', undefined, { argument: 'email' })))();
        }
        return { email, repeated: false };
      });
    } catch (err) {
      if ((err as { driverError?: { code?: string } }).driverError?.code === UNIQUE_VIOLATION) {
        throw new DomainError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists', { argument: 'email' });
      }
      throw err;
    }
  }

  /** What the copy of `uuid` that ran first answered: it committed before this copy found the uuid taken. */
  private async repeatedAnswer(manager: EntityManager, userId: string, uuid: string): Promise<CredentialChange> {
    const earlier = await this.commandLog.answerOf(manager, userId, uuid);
    // Found taken, so committed: only pruning in between (the entry past its retention) could lose it.
    if (!earlier) throw new Error(`credential change ${uuid} of user ${userId} was taken but is no longer recorded`);
    return { ...earlier, repeated: true };
  }

  /** What a first-generation `login` answers about the account (beside its new token). */
  async summary(userId: string): Promise<{ email: string; fullName: string; timezone: string } | undefined> {
    const [row] = await this.database.query<Array<{ email: string; full_name: string; timezone: string }>>('SELECT email, full_name, timezone FROM auth.accounts WHERE id = $1', [userId]);
    return row ? { email: row.email, fullName: row.full_name, timezone: row.timezone } : undefined;
  }

  /** The id of the account with this email, if there is one. */
  async idOf(email: string): Promise<string | undefined> {
    return (await this.byEmail(email))?.id;
  }

  /** The account with this email and whether its address is proven (issue #44), if there is one. */
  async byEmail(email: string): Promise<{ id: string; verified: boolean } | undefined> {
    const [row] = await this.database.query<Array<{ id: string; verified: boolean }>>(
      'SELECT id::text AS id, email_verified_at IS NOT NULL AS verified FROM auth.accounts WHERE email = $1',
      [email.trim().toLowerCase()],
    );
    return row ? { id: row.id, verified: row.verified } : undefined;
  }

  /** Sets a password that passes the policy (sync-interface §7.4 tags otherwise). */
  async setPassword(userId: string, password: string): Promise<void> {
    const [account] = await this.database.query<Array<{ email: string }>>('SELECT email FROM auth.accounts WHERE id = $1', [userId]);
    if (!account) throw new DomainError('USER_NOT_FOUND', 'No such account', { argument: 'userId' });
    const problem = passwordProblem(password, account.email);
    if (problem) throw new DomainError(problem, undefined, { argument: 'password' });
    const hash = await hashPassword(password);
    await this.database.query('UPDATE auth.accounts SET password_hash = $2 WHERE id = $1', [userId, hash]);
  }

  async count(): Promise<number> {
    const [row] = await this.database.query<Array<{ count: string }>>('SELECT count(*) AS count FROM auth.accounts');
    return Number(row.count);
  }
}
