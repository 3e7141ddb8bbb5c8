import { randomBytes } from 'node:crypto';
import type { ChangeCredentialsRequest } from '@doable/contracts-auth';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { CommandLogRetention, Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { authMigrations } from '../src/migrations';
import { AppSecretBox } from '../src/secrets/app-secret-box';
import { AuthRpcController } from '../src/rpc/auth.rpc-controller';
import { SessionService } from '../src/sessions/session.service';
import { TokenService } from '../src/tokens/token.service';
import { AppWebhookRepository } from '../src/webhooks/app-webhook.repository';
import { AppWebhookService } from '../src/webhooks/app-webhook.service';
import { AccountService } from '../src/accounts/account.service';
import { CommandLogRepository } from '../src/accounts/command-log.repository';
import { AccountLinkRepository } from '../src/account-links/account-link.repository';
import { EmailChangeService } from '../src/email-change/email-change.service';

const PASSWORD = 'a sturdy passphrase';

/**
 * Sync resends a request whose replica fell silent; both copies may pass sync's own command log
 * before either commits, so both reach this service, and the late one may arrive after the
 * user's next user_update. A credential change carrying its command uuid runs once, whenever its
 * copies arrive: a late copy of u1 = {email: a@} after u2 = {email: b@} must not make a@ the
 * pending address again. (Since issue #44 an email change only mails a link to the new address;
 * the account keeps, and the change answers, its current address until the link is used.)
 */
describe('user_update credential changes run once per uuid (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let db: Database;
  let accounts: AccountService;
  let sessions: SessionService;
  let controller: AuthRpcController;

  beforeAll(async () => {
    database = await createTestDatabase('credential_change_once');
    // The lock holder, two queued copies and the test's own reads.
    dataSource = createServiceDataSource({ schema: 'auth', url: database.url, poolSize: 6, applicationName: 'test', migrations: authMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    // The relay never runs here: the events an address change emits stay in the outbox.
    db = new Database(dataSource, 'auth', new OutboxRelay(dataSource, 'auth', { publish: () => Promise.resolve() }, createLogger('test', 'silent'), 3_600_000));
    const links = { publicUrl: 'http://localhost:8080', passwordResetTtlSeconds: 3600, emailChangeTtlSeconds: 3600 };
    accounts = new AccountService(db, new CommandLogRepository(), undefined, new EmailChangeService(db, new AccountLinkRepository(), links, []));
    sessions = new SessionService(db);
    const webhooks = new AppWebhookService(db, new AppWebhookRepository(), new AppSecretBox(db, ''), { allowHttp: false, allowPrivate: false });
    controller = new AuthRpcController(new TokenService(db), accounts, sessions, webhooks);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const address = (label: string) => `${label}-${randomBytes(3).toString('hex')}@example.test`;

  async function newAccount(label: string): Promise<{ userId: string; email: string }> {
    const email = address(label);
    const { userId } = await accounts.create({ email, fullName: label, password: PASSWORD, timezone: 'UTC' });
    return { userId, email };
  }

  const change = (userId: string, uuid: string | undefined, changes: Omit<ChangeCredentialsRequest, 'userId' | 'currentPassword' | 'uuid'> & { currentPassword?: string }) =>
    controller.changeCredentials({ userId, uuid, currentPassword: changes.currentPassword ?? null, email: changes.email, password: changes.password });
  const emailOf = async (userId: string) => (await dataSource.query<Array<{ email: string }>>(`SELECT email FROM auth.accounts WHERE id = $1`, [userId]))[0].email;
  /** The address a live change link would move the account to, and how many change links it was sent. */
  const pendingOf = async (userId: string) =>
    (await dataSource.query<Array<{ new_email: string }>>(`SELECT new_email FROM auth.account_links WHERE user_id = $1 AND kind = 'email-change' AND used_at IS NULL`, [userId]))[0]?.new_email;
  const linksSent = async (userId: string) => (await dataSource.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM auth.account_links WHERE user_id = $1 AND kind = 'email-change'`, [userId]))[0].count;
  const sessionCount = async (userId: string) => (await dataSource.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM auth.sessions WHERE user_id = $1`, [userId]))[0].count;

  /** Waits until this many of this database's connections wait for a lock (the account's row). */
  async function waitForLockWaiters(count: number): Promise<void> {
    for (;;) {
      // A row lock's waiters wait on a transaction id or a tuple, which pg_locks does not tie to a database: their sessions are.
      const [{ waiting }] = await dataSource.query<Array<{ waiting: number }>>(
        `SELECT count(DISTINCT l.pid)::int AS waiting FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.datname = current_database()`,
      );
      if (waiting >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('changes the password on the first delivery and ends the browser sessions; the email waits for its link', async () => {
    const user = await newAccount('first');
    await sessions.start(user.userId);
    const moved = address('moved');
    await expect(change(user.userId, 'u-first', { currentPassword: PASSWORD, email: moved, password: 'a fresh long passphrase' })).resolves.toEqual({ email: user.email });
    expect(await emailOf(user.userId)).toBe(user.email);
    expect(await pendingOf(user.userId)).toBe(moved);
    await expect(accounts.authenticate(user.email, 'a fresh long passphrase')).resolves.toEqual({ userId: user.userId });
    expect(await sessionCount(user.userId)).toBe(0);
  });

  it('changes nothing when a copy of an email change arrives after a later change, and answers what the first copy did', async () => {
    const user = await newAccount('late');
    const [a, b] = [address('a'), address('b')];
    await expect(change(user.userId, 'u1', { currentPassword: PASSWORD, email: a })).resolves.toEqual({ email: user.email });
    await expect(change(user.userId, 'u2', { currentPassword: PASSWORD, email: b })).resolves.toEqual({ email: user.email });

    // The resent request's late copy of u1: sync's prepare succeeds the same way, auth keeps b@ pending and mails nothing.
    await expect(change(user.userId, 'u1', { currentPassword: PASSWORD, email: a })).resolves.toEqual({ email: user.email });
    expect(await pendingOf(user.userId)).toBe(b);
    expect(await linksSent(user.userId)).toBe(2);
  });

  it('answers a late copy of a password change without asking for the password it replaced, and ends no session again', async () => {
    const user = await newAccount('password');
    await expect(change(user.userId, 'p1', { currentPassword: PASSWORD, password: 'second long passphrase' })).resolves.toEqual({ email: user.email });
    await expect(change(user.userId, 'p2', { currentPassword: 'second long passphrase', password: 'third long passphrase' })).resolves.toEqual({ email: user.email });
    // Logged in with the newest password after both changes.
    await sessions.start(user.userId);

    // Its current_password is no longer right: a refusal here would answer an error for a change that was made.
    await expect(change(user.userId, 'p1', { currentPassword: PASSWORD, password: 'second long passphrase' })).resolves.toEqual({ email: user.email });
    await expect(accounts.authenticate(user.email, 'third long passphrase')).resolves.toEqual({ userId: user.userId });
    expect(await sessionCount(user.userId)).toBe(1);
  });

  it('keeps a late copy of a change that changed nothing from replacing the change a later one asked for', async () => {
    const user = await newAccount('same');
    const b = address('b');
    // u1 names the email the account has: nothing changes, but the uuid is recorded.
    await expect(change(user.userId, 'same-1', { currentPassword: PASSWORD, email: user.email })).resolves.toEqual({ email: user.email });
    await expect(change(user.userId, 'same-2', { currentPassword: PASSWORD, email: b })).resolves.toEqual({ email: user.email });
    await expect(change(user.userId, 'same-1', { currentPassword: PASSWORD, email: user.email })).resolves.toEqual({ email: user.email });
    expect(await pendingOf(user.userId)).toBe(b);
  });

  it('changes once when both copies are in flight together, and ends the sessions once', async () => {
    const user = await newAccount('racing');
    const a = address('a');
    // Hold the account's row lock, then queue both copies behind it, as two replicas' calls would.
    const holder = dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query(`SELECT 1 FROM auth.accounts WHERE id = $1 FOR UPDATE`, [user.userId]);
    const copies: Array<Promise<{ email: string }>> = [];
    for (let copy = 0; copy < 2; copy++) {
      copies.push(change(user.userId, 'racing-1', { currentPassword: PASSWORD, email: a, password: 'racing long passphrase' }));
      await waitForLockWaiters(copies.length);
    }
    await holder.commitTransaction();
    await holder.release();

    // The second copy found the uuid taken under the lock: no stale-password refusal, the same answer.
    await expect(Promise.all(copies)).resolves.toEqual([{ email: user.email }, { email: user.email }]);
    // A session started once the first copy ended them: the second must not end it.
    await sessions.start(user.userId);
    expect(await sessionCount(user.userId)).toBe(1);
    await expect(accounts.authenticate(user.email, 'racing long passphrase')).resolves.toEqual({ userId: user.userId });
    const logged = await dataSource.query<Array<{ uuid: string; email: string }>>(`SELECT uuid, email FROM auth.command_log WHERE user_id = $1`, [user.userId]);
    expect(logged).toEqual([{ uuid: 'racing-1', email: user.email }]);
    expect([await pendingOf(user.userId), await linksSent(user.userId)]).toEqual([a, 1]);
  });

  it("keeps one user's uuids apart from another's", async () => {
    const [mine, theirs] = [await newAccount('mine'), await newAccount('theirs')];
    const [myNew, theirNew] = [address('mine-new'), address('theirs-new')];
    await change(mine.userId, 'same-uuid', { currentPassword: PASSWORD, email: myNew });
    await expect(change(theirs.userId, 'same-uuid', { currentPassword: PASSWORD, email: theirNew })).resolves.toEqual({ email: theirs.email });
    expect([await pendingOf(mine.userId), await pendingOf(theirs.userId)]).toEqual([myNew, theirNew]);
  });

  it('runs a change without a uuid every time it arrives, as callers that predate the uuid expect', async () => {
    const user = await newAccount('old-caller');
    const [a, b] = [address('a'), address('b')];
    await change(user.userId, undefined, { currentPassword: PASSWORD, email: a });
    await change(user.userId, undefined, { currentPassword: PASSWORD, email: b });
    await change(user.userId, undefined, { currentPassword: PASSWORD, email: a });
    expect([await pendingOf(user.userId), await linksSent(user.userId)]).toEqual([a, 3]);
  });

  it('records nothing for a refused change, so a copy is checked afresh', async () => {
    const user = await newAccount('refused');
    await expect(change(user.userId, 'refused-1', { currentPassword: 'not it at all', email: address('a') })).rejects.toMatchObject({ code: 'AUTHENTICATION_ERROR' });
    await expect(change(user.userId, 'refused-1', { currentPassword: 'not it at all', email: address('a') })).rejects.toMatchObject({ code: 'AUTHENTICATION_ERROR' });
    expect(await emailOf(user.userId)).toBe(user.email);
    expect(await pendingOf(user.userId)).toBeUndefined();
  });

  it('forgets uuids older than the retention, in batches, and keeps the recent ones', async () => {
    await dataSource.query(
      `INSERT INTO auth.command_log (user_id, uuid, email, executed_at)
       SELECT 600, 'old-' || n, 'old@example.test', now() - interval '31 days' FROM generate_series(1, 5100) n
       UNION ALL SELECT 600, 'recent', 'recent@example.test', now() - interval '29 days'
       UNION ALL SELECT 601, 'today', 'today@example.test', now()`,
    );
    const retention = new CommandLogRetention(db, 'auth.command_log', 30, createLogger('test', 'silent'));
    // More than one batch of expired rows: the loop must go round until none are left.
    await expect(retention.prune()).resolves.toBe(5100);
    const left = await dataSource.query<Array<{ uuid: string }>>(`SELECT uuid FROM auth.command_log WHERE user_id IN (600, 601) ORDER BY uuid`);
    expect(left.map((row) => row.uuid)).toEqual(['recent', 'today']);
    await expect(retention.prune()).resolves.toBe(0);
  });
});
