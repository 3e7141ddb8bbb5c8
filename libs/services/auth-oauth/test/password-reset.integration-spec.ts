import { randomBytes } from 'node:crypto';
import { AuthEvents, hashToken } from '@doable/contracts-auth';
import type { EdgeReply, EdgeRequest } from '@doable/contracts-common';
import { createServiceDataSource, migrateUp, type OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { AccountLinkRepository } from '../src/account-links/account-link.repository';
import { REQUEST_ANSWER_FLOOR_MS } from '../src/account-links/link-settings';
import { type AccountService } from '../src/accounts/account.service';
import { WebExchange } from '../src/exchange/web-exchange';
import { authMigrations } from '../src/migrations';
import { authEdgeFixture, pageRequest, TEST_CSRF } from '../testing/auth-edge.fixture';
import { type OAuthAppService } from '../src/oauth/oauth-app.service';
import { type OAuthService } from '../src/oauth/oauth.service';
import { type AuthEdgeRpcController } from '../src/rpc/auth-edge.rpc-controller';
import { type SessionService } from '../src/sessions/session.service';
import { TokenService } from '../src/tokens/token.service';
import { PasswordResetService } from '../src/password-reset/password-reset.service';

/**
 * Password reset and the confirmed address change through the edge handler the gateway reaches,
 * against a real PostgreSQL: the links' secrets, their single use, expiry and storage, the same
 * answer for unknown addresses, the rate limits, and "sign out everywhere".
 */
const ORIGIN = 'http://doable.test';
const PUBLIC_URL = 'https://todo.example.org';
const PASSWORD = 'a sturdy passphrase';
const NEW_PASSWORD = 'another sturdy phrase';

describe('password reset and address change (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let db: Database;
  let edge: AuthEdgeRpcController;
  let accounts: AccountService;
  let tokens: TokenService;
  let sessions: SessionService;
  let oauth: OAuthService;
  let apps: OAuthAppService;

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => dataSource.query<T[]>(text, params);
  const html = (reply: EdgeReply) => String(reply.body);
  const errorTag = (reply: EdgeReply) => /data-error-tag="([A-Z_]+)"/.exec(html(reply))?.[1];

  function call(method: EdgeRequest['method'], path: string, options: { query?: Record<string, string>; body?: Record<string, string>; cookies?: Record<string, string> } = {}): Promise<EdgeReply> {
    return edge.edge(pageRequest(method, path, { ...options, origin: ORIGIN }));
  }
  const post = (path: string, body: Record<string, string>, cookies?: Record<string, string>) => call('POST', path, { body: { csrf: TEST_CSRF, ...body }, cookies });

  /** The events of a subject written to the outbox for this user, oldest first. */
  async function outboxEvents<P>(subject: { name: string }, userId: string): Promise<P[]> {
    const rows = await sql<{ payload: P }>(`SELECT payload FROM auth.outbox WHERE subject = $1 AND payload->>'userId' = $2 ORDER BY id`, [subject.name, userId]);
    return rows.map((row) => row.payload);
  }
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

  async function newAccount(label: string): Promise<{ userId: string; email: string; token: string }> {
    const email = `${label}-${randomBytes(3).toString('hex')}@example.test`;
    const { userId, token } = await accounts.create({ email, fullName: label, password: PASSWORD, timezone: 'UTC' });
    return { userId, email, token };
  }
  async function logIn(email: string, password: string): Promise<EdgeReply> {
    return post('/auth/login', { email, password });
  }
  const sessionOf = (reply: EdgeReply) => /doable_session=([^;]+)/.exec(reply.cookies?.find((cookie) => cookie.startsWith('doable_session=')) ?? '')?.[1];

  /** Asks for a reset of `email` and answers the link the event carries. */
  async function resetLink(account: { userId: string; email: string }): Promise<string> {
    const before = (await outboxEvents(AuthEvents.passwordResetRequested, account.userId)).length;
    expect((await post('/auth/password/forgot', { email: account.email })).status).toBe(200);
    const events = await outboxEvents<{ link: string }>(AuthEvents.passwordResetRequested, account.userId);
    expect(events).toHaveLength(before + 1);
    return events[events.length - 1].link;
  }

  beforeAll(async () => {
    database = await createTestDatabase('auth_reset');
    dataSource = createServiceDataSource({ schema: 'auth', url: database.url, poolSize: 2, applicationName: 'test', migrations: authMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    db = new Database(dataSource, 'auth', { nudge: () => undefined } as unknown as OutboxRelay);
    ({ edge, accounts, apps, sessions, oauth } = authEdgeFixture(db, { links: { publicUrl: PUBLIC_URL } }));
    tokens = new TokenService(db);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  describe('asking for a link', () => {
    it('answers the same page and status, no sooner than the floor, whether or not the address has an account', async () => {
      const account = await newAccount('known');
      const timed = async (email: string) => {
        const started = Date.now();
        const reply = await post('/auth/password/forgot', { email });
        return { reply, ms: Date.now() - started };
      };
      const known = await timed(account.email.toUpperCase());
      const unknown = await timed(`nobody-${randomBytes(3).toString('hex')}@example.test`);
      expect(known.reply.status).toBe(200);
      expect(unknown.reply.status).toBe(200);
      expect(html(known.reply)).toBe(html(unknown.reply));
      expect(known.ms).toBeGreaterThanOrEqual(REQUEST_ANSWER_FLOOR_MS - 5);
      expect(unknown.ms).toBeGreaterThanOrEqual(REQUEST_ANSWER_FLOOR_MS - 5);
      // Only the account got an event; an unknown address leaves no trace of itself in clear.
      const [event] = await outboxEvents<{ email: string; link: string; expiresAt: string; fullName: string }>(AuthEvents.passwordResetRequested, account.userId);
      expect(event).toMatchObject({ email: account.email, fullName: 'known' });
      expect(event.link).toMatch(new RegExp(`^${PUBLIC_URL}/auth/password/reset\\?token=[A-Za-z0-9_-]{43}$`));
      expect(new Date(event.expiresAt).getTime() - Date.now()).toBeGreaterThan(3500_000);
      expect(new Date(event.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(3600_000);
      const requests = await sql<{ address_hash: string }>('SELECT address_hash FROM auth.link_requests');
      expect(JSON.stringify(requests)).not.toContain('nobody-');
    });

    it('keeps only the hash of the secret', async () => {
      const account = await newAccount('hashed');
      const token = tokenOf(await resetLink(account));
      const rows = await sql<Record<string, unknown>>('SELECT * FROM auth.account_links WHERE user_id = $1', [account.userId]);
      expect(rows).toHaveLength(1);
      expect(rows[0]['token_hash']).toBe(hashToken(token));
      expect(JSON.stringify(rows)).not.toContain(token);
    });

    it('refuses an implausible address (400 INVALID_EMAIL) and a post without its CSRF token (403)', async () => {
      const bad = await post('/auth/password/forgot', { email: 'not-an-address' });
      expect(bad.status).toBe(400);
      expect(errorTag(bad)).toBe('INVALID_EMAIL');
      const forged = await call('POST', '/auth/password/forgot', { body: { email: 'a@example.test' } });
      expect(forged.status).toBe(403);
    });

    it('rate-limits per address and per account, answering the same page all the same', async () => {
      const account = await newAccount('limited');
      for (let i = 0; i < 5; i++) expect((await post('/auth/password/forgot', { email: account.email })).status).toBe(200);
      const over = await post('/auth/password/forgot', { email: account.email });
      expect(over.status).toBe(200);
      expect(await outboxEvents(AuthEvents.passwordResetRequested, account.userId)).toHaveLength(5);
      // The address's count forgotten (another spelling of it would share it anyway): the account's own limit still holds.
      await sql('DELETE FROM auth.link_requests');
      expect((await post('/auth/password/forgot', { email: account.email })).status).toBe(200);
      expect(await outboxEvents(AuthEvents.passwordResetRequested, account.userId)).toHaveLength(5);
    });
  });

  describe('using a link', () => {
    it('sets the new password once: the old password and the used link stop working, sessions end, tokens stay', async () => {
      const account = await newAccount('reset');
      const session = sessionOf(await logIn(account.email, PASSWORD))!;
      const token = tokenOf(await resetLink(account));

      const form = await call('GET', '/auth/password/reset', { query: { token } });
      expect(form.status).toBe(200);
      expect(html(form)).toContain('name="sign_out_everywhere"');

      const weak = await post('/auth/password/reset', { token, password: 'password123' });
      expect(weak.status).toBe(400);
      expect(errorTag(weak)).toBe('COMMON_PASSWORD');

      const done = await post('/auth/password/reset', { token, password: NEW_PASSWORD });
      expect(done.status).toBe(200);
      expect(html(done)).toContain('data-testid="password-changed"');

      expect((await logIn(account.email, PASSWORD)).status).toBe(401);
      expect((await logIn(account.email, NEW_PASSWORD)).status).toBe(303);
      await expect(sessions.find(session)).resolves.toBeUndefined();
      await expect(tokens.verify(hashToken(account.token))).resolves.toMatchObject({ userId: account.userId });

      const again = await post('/auth/password/reset', { token, password: 'yet another phrase' });
      expect(again.status).toBe(400);
      expect(errorTag(again)).toBe('RESET_LINK_INVALID');
      expect((await call('GET', '/auth/password/reset', { query: { token } })).status).toBe(400);
      expect((await logIn(account.email, NEW_PASSWORD)).status).toBe(303);
    });

    it('ends older links when one is used', async () => {
      const account = await newAccount('older');
      const first = tokenOf(await resetLink(account));
      const second = tokenOf(await resetLink(account));
      expect((await post('/auth/password/reset', { token: second, password: NEW_PASSWORD })).status).toBe(200);
      const stale = await post('/auth/password/reset', { token: first, password: 'yet another phrase' });
      expect(stale.status).toBe(400);
      expect(errorTag(stale)).toBe('RESET_LINK_INVALID');
    });

    it('refuses an expired link', async () => {
      const account = await newAccount('expired');
      const shortLived = new PasswordResetService(db, new AccountLinkRepository(), { publicUrl: PUBLIC_URL, passwordResetTtlSeconds: 1, emailChangeTtlSeconds: 1 });
      await shortLived.request(account.email);
      const [event] = await outboxEvents<{ link: string }>(AuthEvents.passwordResetRequested, account.userId);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const late = await post('/auth/password/reset', { token: tokenOf(event.link), password: NEW_PASSWORD });
      expect(late.status).toBe(400);
      expect(errorTag(late)).toBe('RESET_LINK_INVALID');
      expect((await logIn(account.email, PASSWORD)).status).toBe(303);
    });

    it("stops working when the Sync API's user_update moves the account to another address (once the new one confirms)", async () => {
      const account = await newAccount('synced');
      const token = tokenOf(await resetLink(account));
      await accounts.changeCredentials({ userId: account.userId, currentPassword: PASSWORD, email: `elsewhere-${randomBytes(3).toString('hex')}@example.test` });
      const [change] = await outboxEvents<{ link: string }>(AuthEvents.emailChangeRequested, account.userId);
      expect((await post('/auth/email/confirm', { token: tokenOf(change.link) })).status).toBe(200);
      const stale = await post('/auth/password/reset', { token, password: NEW_PASSWORD });
      expect(stale.status).toBe(400);
      expect(errorTag(stale)).toBe('RESET_LINK_INVALID');
    });

    it.each([
      ['an unknown secret', { token: randomBytes(32).toString('base64url') }],
      ['a malformed secret', { token: '../../etc' }],
      ['no secret', {}],
    ])('refuses %s (400 RESET_LINK_INVALID)', async (_label, body) => {
      const reply = await post('/auth/password/reset', { ...body, password: NEW_PASSWORD });
      expect(reply.status).toBe(400);
      expect(errorTag(reply)).toBe('RESET_LINK_INVALID');
    });

    it('with "sign out everywhere", revokes every API and OAuth token (one token-revoked event each)', async () => {
      const account = await newAccount('everywhere');
      const ownerLogin = sessionOf(await logIn(account.email, PASSWORD))!;
      const created = await post('/auth/apps', { name: 'Reset app', redirect_uris: 'https://app.example/cb' }, { doable_session: ownerLogin });
      expect(created.status).toBe(201);
      const [app] = await apps.listForOwner(account.userId);
      const legacy = await oauth.issueLegacyLoginToken(app, account.userId);
      expect(legacy).toBeDefined();
      const token = tokenOf(await resetLink(account));
      const done = await post('/auth/password/reset', { token, password: NEW_PASSWORD, sign_out_everywhere: 'on' });
      expect(done.status).toBe(200);
      await expect(tokens.verify(hashToken(account.token))).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
      await expect(tokens.verify(hashToken(legacy!))).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
      const revoked = await outboxEvents<{ tokenHash: string }>(AuthEvents.tokenRevoked, account.userId);
      expect(revoked.map((event) => event.tokenHash).sort()).toEqual([hashToken(account.token), hashToken(legacy!)].sort());
      const unauthorised = await outboxEvents<{ appId: string; authorized: boolean }>(AuthEvents.appAuthorizationChanged, account.userId);
      expect(unauthorised[unauthorised.length - 1]).toMatchObject({ appId: app.id, authorized: false });
    });
  });

  describe('changing the address', () => {
    it('waits for the new address to confirm; then the account uses it, and the link works once', async () => {
      const account = await newAccount('mover');
      const session = sessionOf(await logIn(account.email, PASSWORD))!;
      const newEmail = `moved-${randomBytes(3).toString('hex')}@example.test`;

      const wrong = await post('/auth/settings/email', { new_email: newEmail, current_password: 'not the password' }, { doable_session: session });
      expect(wrong.status).toBe(400);
      expect(errorTag(wrong)).toBe('AUTHENTICATION_ERROR');
      const taken = await post('/auth/settings/email', { new_email: (await newAccount('other')).email, current_password: PASSWORD }, { doable_session: session });
      expect(taken.status).toBe(409);

      const asked = await post('/auth/settings/email', { new_email: newEmail, current_password: PASSWORD }, { doable_session: session });
      expect(asked.status).toBe(200);
      // Pending: nothing changed yet.
      expect((await logIn(account.email, PASSWORD)).status).toBe(303);
      const [event] = await outboxEvents<{ email: string; previousEmail: string; link: string }>(AuthEvents.emailChangeRequested, account.userId);
      expect(event).toMatchObject({ email: newEmail, previousEmail: account.email });
      expect(event.link).toMatch(new RegExp(`^${PUBLIC_URL}/auth/email/confirm\\?token=[A-Za-z0-9_-]{43}$`));
      const token = tokenOf(event.link);
      expect(JSON.stringify(await sql('SELECT * FROM auth.account_links WHERE user_id = $1', [account.userId]))).not.toContain(token);

      const form = await call('GET', '/auth/email/confirm', { query: { token } });
      expect(form.status).toBe(200);
      expect(html(form)).toContain(newEmail);
      const confirmed = await post('/auth/email/confirm', { token });
      expect(confirmed.status).toBe(200);
      expect((await logIn(newEmail, PASSWORD)).status).toBe(303);
      expect((await logIn(account.email, PASSWORD)).status).toBe(401);
      expect(await outboxEvents(AuthEvents.emailChanged, account.userId)).toEqual([{ userId: account.userId, email: newEmail, previousEmail: account.email }]);

      const again = await post('/auth/email/confirm', { token });
      expect(again.status).toBe(400);
      expect(errorTag(again)).toBe('RESET_LINK_INVALID');
    });

    it('needs a session (redirect to log-in) and refuses an unknown link', async () => {
      const anonymous = await post('/auth/settings/email', { new_email: 'x@example.test', current_password: PASSWORD });
      expect(anonymous.status).toBe(303);
      expect((await call('GET', '/auth/email/confirm', { query: { token: randomBytes(32).toString('base64url') } })).status).toBe(400);
    });
  });

  it('writes no link or secret in a log line, even when the event or the request is logged', async () => {
    const account = await newAccount('logged');
    const link = await resetLink(account);
    const token = tokenOf(link);
    const [row] = await sql<{ payload: unknown }>(`SELECT payload FROM auth.outbox WHERE subject = $1 AND payload->>'userId' = $2`, [AuthEvents.passwordResetRequested.name, account.userId]);
    const lines: string[] = [];
    const logger = createLogger('auth-oauth', 'debug', { write: (line: string) => void lines.push(line) });
    logger.info({ event: row.payload }, 'event published');
    const request = new WebExchange({ dialect: 'sync-api-v1', method: 'GET', path: '/auth/password/reset', params: {}, query: { token }, body: { token }, principal: null, requestId: null, origin: ORIGIN });
    logger.warn({ request: request.request }, 'edge request failed');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toContain(token);
  });
});
