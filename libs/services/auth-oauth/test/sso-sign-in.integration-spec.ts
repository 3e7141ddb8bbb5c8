import { randomBytes } from 'node:crypto';
import { AuthEvents } from '@doable/contracts-auth';
import type { EdgeReply, EdgeRequest } from '@doable/contracts-common';
import { createServiceDataSource, migrateUp, type OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { type AccountService } from '../src/accounts/account.service';
import { WebExchange } from '../src/exchange/web-exchange';
import { authMigrations } from '../src/migrations';
import { authEdgeFixture, pageRequest, TEST_CSRF } from '../testing/auth-edge.fixture';
import { type LegacyLogin } from '../src/oauth/legacy-login';
import { type AccountPages } from '../src/web/account-pages';
import { OidcClient } from '../src/sso/oidc-client';
import { type SsoClaims, SsoAccounts } from '../src/sso/sso-accounts';
import { parseSsoProviders, type SsoProvider } from '../src/sso/sso-config';
import { SsoLogins } from '../src/sso/sso-logins';
import { SSO_COOKIE, SSO_LINK_COOKIE, SsoPages } from '../src/web/sso-pages';
import { type SsoAccountProof } from '../src/sso/sso-account-proof';
import { type EmailChangeService } from '../src/email-change/email-change.service';

const ISSUER = 'https://id.acme.example';
const base = { issuer: ISSUER, clientId: 'doable', clientSecret: 'a-secret' };

/**
 * The linking rules (sso-accounts.ts) and single sign-on's page rules (password refused for an
 * SSO-only domain, the log-in page's buttons, the start and callback's refusals) against a real
 * PostgreSQL. The flow through a real provider is e2e/single-sign-on.e2e-spec.ts.
 */
describe('single sign-on: linking and page rules (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let accounts: AccountService;
  let sso: SsoAccounts;
  let pages: AccountPages;
  let ssoPages: SsoPages;
  let legacy: LegacyLogin;
  let open: SsoProvider;
  let acme: SsoProvider;
  let invite: SsoProvider;
  let db: Database;
  let proof: SsoAccountProof;
  let emailChanges: EmailChangeService;

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => dataSource.query<T[]>(text, params);
  const unique = (local: string, domain = 'acme.example') => `${local}-${randomBytes(3).toString('hex')}@${domain}`;
  const person = (email: string, more: Partial<SsoClaims> = {}): SsoClaims => ({ issuer: ISSUER, subject: randomBytes(6).toString('hex'), email, emailVerified: true, name: 'Pat Person', ...more });

  beforeAll(async () => {
    database = await createTestDatabase('auth_sso');
    dataSource = createServiceDataSource({ schema: 'auth', url: database.url, poolSize: 2, applicationName: 'test', migrations: authMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    db = new Database(dataSource, 'auth', { nudge: () => undefined } as unknown as OutboxRelay);
    [open, acme, invite] = parseSsoProviders(
      JSON.stringify([
        { ...base, id: 'open', name: 'Open', createAccounts: true },
        { ...base, id: 'acme', name: 'Acme <ID>', allowedDomains: ['acme.example'], createAccounts: true, allowPasswords: false },
        { ...base, id: 'invite', name: 'Invite only', allowedDomains: ['invite.example'] },
      ]),
    );
    ({ pages, sso: ssoPages, legacyLogin: legacy, accounts, proof, emailChanges } = authEdgeFixture(db, { ssoProviders: [open, acme, invite] }));
    sso = new SsoAccounts(db, accounts);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  describe('linking', () => {
    it('makes an account on first sign-in when allowed, as sign-up does: no password, a personal token, userCreated', async () => {
      const email = unique('new');
      const claims = person(email);
      const outcome = await sso.signIn(acme, claims);
      expect(outcome).toEqual({ userId: expect.any(String), how: 'created' });
      const userId = (outcome as { userId: string }).userId;
      await expect(sql('SELECT email, full_name, password_hash FROM auth.accounts WHERE id = $1', [userId])).resolves.toEqual([{ email, full_name: 'Pat Person', password_hash: null }]);
      await expect(sql(`SELECT count(*)::int AS n FROM auth.access_tokens WHERE user_id = $1 AND kind = 'personal'`, [userId])).resolves.toEqual([{ n: 1 }]);
      const [event] = await sql<{ payload: Record<string, unknown> }>('SELECT payload FROM auth.outbox WHERE subject = $1 AND payload->>\'userId\' = $2', [AuthEvents.userCreated.name, userId]);
      expect(event.payload).toMatchObject({ email, fullName: 'Pat Person', hasPassword: false });
      await expect(sql('SELECT issuer, subject, provider_id FROM auth.sso_identities WHERE user_id = $1', [userId])).resolves.toEqual([{ issuer: ISSUER, subject: claims.subject, provider_id: 'acme' }]);
    });

    it('finds the account by (issuer, subject) afterwards, whatever email the provider now says', async () => {
      const claims = person(unique('moving'));
      const first = { ...((await sso.signIn(acme, claims)) as { userId: string }), email: claims.email };
      await expect(sso.signIn(acme, { ...claims, email: unique('moved') })).resolves.toEqual({ userId: first.userId, how: 'identity' });
      // The same subject of another issuer is another identity: linked by its verified email, as any first sign-in.
      await expect(sso.signIn(open, { ...claims, email: first.email, issuer: 'https://other.example' })).resolves.toEqual({ userId: first.userId, how: 'linked' });
      await expect(sql('SELECT count(*)::int AS n FROM auth.sso_identities WHERE user_id = $1', [first.userId])).resolves.toEqual([{ n: 2 }]);
    });

    it('links an existing account with a proven address by verified email once, storing the subject', async () => {
      const email = unique('existing');
      const { userId } = await accounts.create({ email, fullName: 'Existing', password: 'a sturdy passphrase', timezone: 'UTC', emailVerified: true });
      const claims = person(email.toUpperCase());
      await expect(sso.signIn(acme, claims)).resolves.toEqual({ userId, how: 'linked' });
      await expect(sso.signIn(acme, claims)).resolves.toEqual({ userId, how: 'identity' });
      // Another person of that issuer with the same email is not let into the account.
      await expect(sso.signIn(acme, person(email))).resolves.toEqual({ refused: 'ALREADY_LINKED' });
    });

    it('never links or creates on an unverified or missing email', async () => {
      const email = unique('unverified', 'anywhere.example');
      await accounts.create({ email, fullName: 'Target', password: 'a sturdy passphrase', timezone: 'UTC' });
      await expect(sso.signIn(open, person(email, { emailVerified: false }))).resolves.toEqual({ refused: 'EMAIL_NOT_VERIFIED' });
      await expect(sso.signIn(open, person(email, { emailVerified: undefined }))).resolves.toEqual({ refused: 'EMAIL_NOT_VERIFIED' });
      await expect(sso.signIn(open, person(unique('nobody', 'anywhere.example'), { emailVerified: false }))).resolves.toEqual({ refused: 'EMAIL_NOT_VERIFIED' });
      await expect(sso.signIn(open, { issuer: ISSUER, subject: 'no-email' })).resolves.toEqual({ refused: 'EMAIL_NOT_VERIFIED' });
    });

    it('refuses a domain not allowed, at every sign-in, and an unverified email where domains are listed', async () => {
      await expect(sso.signIn(acme, person(unique('outsider', 'other.example')))).resolves.toEqual({ refused: 'DOMAIN_NOT_ALLOWED' });
      await expect(sso.signIn(acme, person(unique('sub', 'sub.acme.example')))).resolves.toEqual({ refused: 'DOMAIN_NOT_ALLOWED' });
      await expect(sso.signIn(acme, { issuer: ISSUER, subject: 'no-email' })).resolves.toEqual({ refused: 'DOMAIN_NOT_ALLOWED' });
      await expect(sso.signIn(acme, person(unique('unsure'), { emailVerified: false }))).resolves.toEqual({ refused: 'EMAIL_NOT_VERIFIED' });
      const claims = person(unique('leaver'));
      await sso.signIn(acme, claims);
      await expect(sso.signIn(acme, { ...claims, email: 'leaver@elsewhere.example' })).resolves.toEqual({ refused: 'DOMAIN_NOT_ALLOWED' });
    });

    it('refuses an unknown person where the provider makes no accounts, and still links a known one', async () => {
      await expect(sso.signIn(invite, person(unique('stranger', 'invite.example')))).resolves.toEqual({ refused: 'NO_ACCOUNT' });
      const email = unique('invited', 'invite.example');
      const { userId } = await accounts.create({ email, fullName: 'Invited', password: 'a sturdy passphrase', timezone: 'UTC', emailVerified: true });
      await expect(sso.signIn(invite, person(email))).resolves.toEqual({ userId, how: 'linked' });
    });

    it('makes the account it creates a proven one: the provider verified the address', async () => {
      const outcome = (await sso.signIn(acme, person(unique('made')))) as { userId: string };
      await expect(sql('SELECT email_verified_at IS NOT NULL AS verified FROM auth.accounts WHERE id = $1', [outcome.userId])).resolves.toEqual([{ verified: true }]);
    });

    it('makes one account when the same person signs in twice at once', async () => {
      const claims = person(unique('twice'));
      const both = await Promise.all([sso.signIn(acme, claims), sso.signIn(acme, claims)]);
      const ids = new Set(both.map((outcome) => (outcome as { userId: string }).userId));
      expect(ids.size).toBe(1);
      await expect(sql('SELECT count(*)::int AS n FROM auth.accounts WHERE email = $1', [claims.email])).resolves.toEqual([{ n: 1 }]);
    });

    it('names the account after the email when the provider gives no usable name', async () => {
      const email = unique('nameless');
      const { userId } = (await sso.signIn(acme, person(email, { name: 'bad\u0000name' }))) as { userId: string };
      await expect(sql('SELECT full_name FROM auth.accounts WHERE id = $1', [userId])).resolves.toEqual([{ full_name: email.split('@')[0] }]);
    });
  });

  describe('pages', () => {
    function web(method: EdgeRequest['method'], path: string, options: { query?: Record<string, string>; body?: Record<string, string>; cookies?: Record<string, string> } = {}): WebExchange {
      return new WebExchange(pageRequest(method, path, { ...options, body: options.body ? { csrf: TEST_CSRF, ...options.body } : null, origin: 'http://doable.test' }));
    }
    const tag = (reply: EdgeReply) => /data-error-tag="([A-Z_]+)"/.exec(String(reply.body))?.[1];

    it('shows one escaped button per provider on the log-in page, carrying next', async () => {
      const reply = await pages.loginForm(web('GET', '/auth/login', { query: { next: '/oauth/authorize?client_id=a&state=b' } }));
      const body = String(reply.body);
      expect(body.match(/data-sso-provider="/g)).toHaveLength(3);
      expect(body).toContain('Sign in with Acme &lt;ID&gt;');
      expect(body).toContain(`href="/auth/sso/start?provider=acme&amp;next=${encodeURIComponent('/oauth/authorize?client_id=a&state=b').replace(/&/g, '&amp;')}"`);
    });

    it('shows no single sign-on section without providers', async () => {
      const plain = authEdgeFixture(db).pages;
      expect(String((await plain.loginForm(web('GET', '/auth/login'))).body)).not.toContain('Single sign-on');
    });

    it('refuses password log-in and sign-up for a domain that must use single sign-on, whatever the password', async () => {
      const email = unique('sso-only');
      await accounts.create({ email, fullName: 'Only SSO', password: 'a sturdy passphrase', timezone: 'UTC' });
      const login = await pages.login(web('POST', '/auth/login', { body: { email: email.toUpperCase(), password: 'a sturdy passphrase' } }));
      expect([login.status, tag(login)]).toEqual([403, 'PASSWORD_LOGIN_DISABLED']);
      expect(String(login.body)).toContain('data-sso-provider="acme"');
      const signup = await pages.signup(web('POST', '/auth/signup', { body: { email: unique('newcomer'), full_name: 'New', password: 'a sturdy passphrase' } }));
      expect([signup.status, tag(signup)]).toEqual([403, 'PASSWORD_LOGIN_DISABLED']);
      const first = await legacy.login(web('POST', '/API/login', { body: { email, password: 'a sturdy passphrase' } }));
      expect([first.status, first.body]).toEqual([403, 'LOGIN_ERROR']);
      // Other domains log in with passwords as before.
      const elsewhere = unique('elsewhere', 'invite.example');
      await accounts.create({ email: elsewhere, fullName: 'Elsewhere', password: 'a sturdy passphrase', timezone: 'UTC' });
      expect((await pages.login(web('POST', '/auth/login', { body: { email: elsewhere, password: 'a sturdy passphrase' } }))).status).toBe(303);
    });

    it('answers an unknown provider 404, an unreachable one 502, and a callback without its sign-in 400', async () => {
      const unknown = await ssoPages.start(web('GET', '/auth/sso/start', { query: { provider: 'nobody' } }));
      expect([unknown.status, tag(unknown)]).toEqual([404, 'SSO_PROVIDER_NOT_FOUND']);
      const [down] = parseSsoProviders(JSON.stringify([{ ...base, id: 'down', name: 'Down', issuer: 'http://127.0.0.1:9' }]));
      const unreachable = await new SsoPages([down], new OidcClient(), new SsoLogins(db), sso, pages, createLogger('auth-oauth', 'silent'), proof).start(web('GET', '/auth/sso/start', { query: { provider: 'down' } }));
      expect([unreachable.status, tag(unreachable)]).toEqual([502, 'SSO_UNAVAILABLE']);
      const stray = await ssoPages.callback(web('GET', '/auth/sso/callback', { query: { code: 'x', state: 'y' } }));
      expect([stray.status, tag(stray)]).toEqual([400, 'SSO_EXPIRED']);
      const forged = await ssoPages.callback(web('GET', '/auth/sso/callback', { query: { code: 'x', state: 'y' }, cookies: { [SSO_COOKIE]: 'made-up' } }));
      expect([forged.status, tag(forged)]).toEqual([400, 'SSO_EXPIRED']);
      expect(forged.cookies?.some((cookie) => cookie.startsWith(`${SSO_COOKIE}=;`))).toBe(true);
    });
  });

  /**
   * Issue #44, finding 3: with acme.example single-sign-on only, an account of another domain
   * moved its address to boss@acme.example at once (user_update), and the boss's first sign-on
   * then landed in it.
   */
  describe("an address change to a single-sign-on-only domain, or to anyone's address", () => {
    const PASSWORD = 'a sturdy passphrase';

    it('refuses the Sync API change to that domain with a code, and the settings page change with its tag', async () => {
      const email = unique('outsider', 'elsewhere.example');
      const { userId } = await accounts.create({ email, fullName: 'Outsider', password: PASSWORD, timezone: 'UTC', emailVerified: true });
      const boss = unique('boss');
      await expect(accounts.changeCredentials({ userId, currentPassword: PASSWORD, email: boss })).rejects.toMatchObject({ code: 'EMAIL_DOMAIN_SSO_ONLY' });
      await expect(emailChanges.request(userId, boss, PASSWORD)).resolves.toEqual({ sent: false, tag: 'PASSWORD_LOGIN_DISABLED' });
      await expect(sql('SELECT email FROM auth.accounts WHERE id = $1', [userId])).resolves.toEqual([{ email }]);
      await expect(sql(`SELECT 1 FROM auth.account_links WHERE user_id = $1 AND kind = 'email-change'`, [userId])).resolves.toEqual([]);
      // The boss's first sign-on makes the boss's own account.
      await expect(sso.signIn(acme, person(boss))).resolves.toEqual({ userId: expect.not.stringMatching(`^${userId}$`), how: 'created' });
    });

    it('keeps the address until the new one confirms, so a sign-on of the new address never lands in the account', async () => {
      const email = unique('mover', 'elsewhere.example');
      const { userId } = await accounts.create({ email, fullName: 'Mover', password: PASSWORD, timezone: 'UTC', emailVerified: true });
      const target = unique('target', 'open.example');
      await expect(accounts.changeCredentials({ userId, currentPassword: PASSWORD, email: target })).resolves.toEqual({ email, repeated: false });
      await expect(sql('SELECT email FROM auth.accounts WHERE id = $1', [userId])).resolves.toEqual([{ email }]);
      const [event] = await sql<{ payload: { email: string; previousEmail: string } }>(`SELECT payload FROM auth.outbox WHERE subject = $1 AND payload->>'userId' = $2`, [
        AuthEvents.emailChangeRequested.name,
        userId,
      ]);
      expect(event.payload).toMatchObject({ email: target, previousEmail: email });
      const outcome = (await sso.signIn(open, person(target))) as { userId: string };
      expect(outcome.userId).not.toBe(userId);
    });
  });

  /**
   * Issue #44, finding 2: someone signs up with a victim's address and waits; the victim's first
   * sign-on must not land in that account, nor leave its maker a way in.
   */
  describe('an account whose address was never proven', () => {
    const PASSWORD = 'a sturdy passphrase';
    function web(method: EdgeRequest['method'], path: string, options: { query?: Record<string, string>; body?: Record<string, string>; cookies?: Record<string, string> } = {}): WebExchange {
      return new WebExchange(pageRequest(method, path, { ...options, body: options.body ? { csrf: TEST_CSRF, ...options.body } : null, origin: 'http://doable.test' }));
    }
    const tag = (reply: EdgeReply) => /data-error-tag="([A-Z_]+)"/.exec(String(reply.body))?.[1];
    const identities = (userId: string) => sql('SELECT issuer, subject FROM auth.sso_identities WHERE user_id = $1', [userId]);

    /** What the attacker has: an account of the victim's address made by sign-up, its token and password. */
    async function premade(local: string, domain = 'anywhere.example') {
      const email = unique(local, domain);
      const { userId, token } = await accounts.create({ email, fullName: 'Attacker', password: PASSWORD, timezone: 'UTC' });
      return { email, userId, token };
    }

    it('is not linked on a verified email: the sign-on asks for proof and stores nothing', async () => {
      const made = await premade('victim');
      await expect(sso.signIn(open, person(made.email))).resolves.toEqual({ proofNeeded: { userId: made.userId, email: made.email } });
      await expect(identities(made.userId)).resolves.toEqual([]);
    });

    it("links with the account's password, and proves the address; a wrong password links nothing", async () => {
      const made = await premade('own');
      const claims = person(made.email);
      const handle = await proof.begin({ providerId: 'open', issuer: claims.issuer, subject: claims.subject }, made.userId);
      const wrong = await ssoPages.linkWithPassword(web('POST', '/auth/sso/link', { body: { password: 'not the password' }, cookies: { [SSO_LINK_COOKIE]: handle } }));
      expect([wrong.status, tag(wrong)]).toEqual([401, 'AUTHENTICATION_ERROR']);
      await expect(identities(made.userId)).resolves.toEqual([]);
      const right = await ssoPages.linkWithPassword(web('POST', '/auth/sso/link', { body: { password: PASSWORD }, cookies: { [SSO_LINK_COOKIE]: handle } }));
      expect(right.status).toBe(303);
      await expect(identities(made.userId)).resolves.toEqual([{ issuer: ISSUER, subject: claims.subject }]);
      await expect(sql('SELECT email_verified_at IS NOT NULL AS verified FROM auth.accounts WHERE id = $1', [made.userId])).resolves.toEqual([{ verified: true }]);
      await expect(sso.signIn(open, claims)).resolves.toEqual({ userId: made.userId, how: 'identity' });
      // The handle was single-use.
      const again = await ssoPages.linkWithPassword(web('POST', '/auth/sso/link', { body: { password: PASSWORD }, cookies: { [SSO_LINK_COOKIE]: handle } }));
      expect([again.status, tag(again)]).toEqual([400, 'SSO_EXPIRED']);
    });

    it("links through a mail to the address, and ends every credential of the account's maker", async () => {
      const made = await premade('mailbox');
      const claims = person(made.email);
      const handle = await proof.begin({ providerId: 'open', issuer: claims.issuer, subject: claims.subject }, made.userId);
      const asked = await ssoPages.linkByMail(web('POST', '/auth/sso/link/mail', { body: {}, cookies: { [SSO_LINK_COOKIE]: handle } }));
      expect(asked.status).toBe(200);
      expect(String(asked.body)).toContain('data-testid="sso-proof-mailed"');
      const [event] = await sql<{ payload: { email: string; link: string; reason: string; providerName: string } }>(
        `SELECT payload FROM auth.outbox WHERE subject = $1 AND payload->>'userId' = $2`,
        [AuthEvents.addressConfirmationRequested.name, made.userId],
      );
      expect(event.payload).toMatchObject({ email: made.email, reason: 'sso-link', providerName: 'Open' });
      const token = new URL(event.payload.link).searchParams.get('token') ?? '';
      // Opening the link changes nothing (mail scanners open links): a button confirms.
      const form = await ssoPages.linkConfirmForm(web('GET', '/auth/sso/link/confirm', { query: { token } }));
      expect(form.status).toBe(200);
      await expect(identities(made.userId)).resolves.toEqual([]);
      const confirmed = await ssoPages.linkConfirm(web('POST', '/auth/sso/link/confirm', { body: { token } }));
      expect(confirmed.status).toBe(200);
      await expect(identities(made.userId)).resolves.toEqual([{ issuer: ISSUER, subject: claims.subject }]);
      await expect(sso.signIn(open, claims)).resolves.toEqual({ userId: made.userId, how: 'identity' });
      // The maker's password no longer logs in, and their token is revoked.
      await expect(accounts.authenticate(made.email, PASSWORD)).resolves.toBeUndefined();
      await expect(sql(`SELECT count(*)::int AS n FROM auth.access_tokens WHERE user_id = $1 AND revoked_at IS NULL`, [made.userId])).resolves.toEqual([{ n: 0 }]);
      const used = await ssoPages.linkConfirm(web('POST', '/auth/sso/link/confirm', { body: { token } }));
      expect([used.status, tag(used)]).toEqual([400, 'RESET_LINK_INVALID']);
    });

    it('answers the proof page from the callback with its handle cookie, and a stale handle SSO_EXPIRED', async () => {
      const stale = await ssoPages.linkWithPassword(web('POST', '/auth/sso/link', { body: { password: PASSWORD }, cookies: { [SSO_LINK_COOKIE]: 'made-up' } }));
      expect([stale.status, tag(stale)]).toEqual([400, 'SSO_EXPIRED']);
      const mail = await ssoPages.linkByMail(web('POST', '/auth/sso/link/mail', { body: {} }));
      expect([mail.status, tag(mail)]).toEqual([400, 'SSO_EXPIRED']);
    });
  });
});
