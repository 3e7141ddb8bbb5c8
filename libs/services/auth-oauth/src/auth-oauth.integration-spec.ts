import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthEvents, hashToken } from '@doable/contracts-auth';
import type { EdgeReply, EdgeRequest } from '@doable/contracts-common';
import { createServiceDataSource, migrateUp, type OutboxRelay } from '@doable/shared-database';
import { DomainError } from '@doable/shared-errors';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { type AccountService } from './accounts/account.service';
import { authMigrations } from './migrations';
import { authEdgeFixture, pageRequest } from '../testing/auth-edge.fixture';
import { ClientResolver } from './oauth/client-resolver';
import { type OAuthAppService } from './oauth/oauth-app.service';
import { AppSecretBox } from './secrets/app-secret-box';
import { AppWebhookRepository } from './webhooks/app-webhook.repository';
import { AppWebhookService, webhookSignature } from './webhooks/app-webhook.service';
import { OAuthEndpoints } from './oauth/oauth-endpoints';
import { OAuthService } from './oauth/oauth.service';
import { type AuthEdgeRpcController } from './rpc/auth-edge.rpc-controller';
import { TokenService } from './tokens/token.service';
import { WebExchange } from './exchange/web-exchange';

/**
 * auth-oauth's pages and OAuth endpoints against a real PostgreSQL, through the same edge
 * handler the gateway reaches over NATS: every error path of sign-up, log-in, the console,
 * authorization, token exchange, revocation and migration.
 */
const ORIGIN = 'http://doable.test';
const CALLBACK = 'https://app.example/callback';
const PASSWORD = 'a sturdy passphrase';

interface Call {
  readonly query?: Record<string, string>;
  readonly body?: Record<string, string> | null;
  readonly cookies?: Record<string, string>;
  readonly headers?: Record<string, string>;
  readonly dialect?: EdgeRequest['dialect'];
}

describe('auth-oauth pages and OAuth endpoints (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let edge: AuthEdgeRpcController;
  let accounts: AccountService;
  let apps: OAuthAppService;
  let tokens: TokenService;
  let oauth: OAuthService;
  let db: Database;
  let owner: { userId: string; email: string; session: string };
  let app: { id: string; clientId: string; clientSecret: string };

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => dataSource.query<T[]>(text, params);

  function call(method: EdgeRequest['method'], path: string, options: Call = {}): Promise<EdgeReply> {
    return edge.edge(edgeRequest(method, path, options));
  }

  function edgeRequest(method: EdgeRequest['method'], path: string, options: Call = {}): EdgeRequest {
    return pageRequest(method, path, { ...options, origin: ORIGIN });
  }
  /** A form post as the browser sends it: with the CSRF field equal to the cookie. */
  const post = (path: string, body: Record<string, string>, options: Call = {}) => call('POST', path, { ...options, body: { csrf: 'c'.repeat(32), ...body } });
  const asOwner = (): Call => ({ cookies: { doable_session: owner.session } });
  const html = (reply: EdgeReply) => String(reply.body);
  const errorTag = (reply: EdgeReply) => /data-error-tag="([A-Z_]+)"/.exec(html(reply))?.[1];
  const location = (reply: EdgeReply) => new URL(reply.headers!['Location'], ORIGIN);
  const sessionCookie = (reply: EdgeReply) => /doable_session=([^;]+)/.exec(reply.cookies?.find((cookie) => cookie.startsWith('doable_session=')) ?? '')?.[1];

  async function newAccount(label: string): Promise<{ userId: string; email: string; session: string; token: string }> {
    const email = `${label}-${randomBytes(3).toString('hex')}@example.test`;
    const { userId, token } = await accounts.create({ email, fullName: label, password: PASSWORD, timezone: 'UTC' });
    const login = await post('/auth/login', { email, password: PASSWORD });
    return { userId, email, token, session: sessionCookie(login)! };
  }

  async function newApp(ownerSession: string, redirectUris = CALLBACK): Promise<{ id: string; clientId: string; clientSecret: string }> {
    const created = await post('/auth/apps', { name: 'Test app', redirect_uris: redirectUris }, { cookies: { doable_session: ownerSession } });
    expect(created.status).toBe(201);
    const clientSecret = /data-testid="client-secret">([0-9a-f]{32})</.exec(html(created))![1];
    const [row] = await sql<{ id: string; client_id: string }>('SELECT id::text AS id, client_id FROM auth.oauth_apps ORDER BY oauth_apps.id DESC LIMIT 1');
    return { id: row.id, clientId: row.client_id, clientSecret };
  }

  async function code(options: { scope?: string; query?: Record<string, string>; app?: typeof app } = {}): Promise<string> {
    const target = options.app ?? app;
    const reply = await post('/oauth/authorize', { client_id: target.clientId, scope: options.scope ?? 'data:read', state: 'st', decision: 'allow', ...options.query }, asOwner());
    expect(reply.status).toBe(303);
    return location(reply).searchParams.get('code')!;
  }

  const exchange = (body: Record<string, string>, headers?: Record<string, string>) => call('POST', '/oauth/access_token', { body, headers });

  beforeAll(async () => {
    database = await createTestDatabase('auth_oauth');
    dataSource = createServiceDataSource({ schema: 'auth', url: database.url, poolSize: 2, applicationName: 'test', migrations: authMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    db = new Database(dataSource, 'auth', { nudge: () => undefined } as unknown as OutboxRelay);
    ({ edge, accounts, apps, oauth } = authEdgeFixture(db, { links: { publicUrl: ORIGIN } }));
    tokens = new TokenService(db);
    owner = await newAccount('owner');
    app = await newApp(owner.session);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  describe('sign-up', () => {
    it.each([
      ['an invalid email', { email: 'not-an-email', full_name: 'A', password: PASSWORD }, 'INVALID_EMAIL'],
      ['no name', { email: 'n@example.test', full_name: ' ', password: PASSWORD }, 'NAME_REQUIRED'],
      ['a short password', { email: 'n@example.test', full_name: 'A', password: 'short' }, 'PASSWORD_TOO_SHORT'],
      ['a common password', { email: 'n@example.test', full_name: 'A', password: 'iloveyou' }, 'COMMON_PASSWORD'],
      ['a password containing the email', { email: 'pat.smith@example.test', full_name: 'A', password: 'PAT.SMITH-2024' }, 'PASSWORD_CONTAINS_EMAIL'],
    ])('refuses %s with its tag and keeps what was typed (but not the password)', async (_label, form, tag) => {
      const reply = await post('/auth/signup', form);
      expect(reply.status).toBe(400);
      expect(reply.contentType).toBe('text/html; charset=utf-8');
      expect(errorTag(reply)).toBe(tag);
      expect(html(reply)).not.toContain(`value="${form.password}"`);
    });

    it('refuses an email that is taken (ALREADY_REGISTERED, 409)', async () => {
      const reply = await post('/auth/signup', { email: owner.email.toUpperCase(), full_name: 'Again', password: PASSWORD });
      expect(reply.status).toBe(409);
      expect(errorTag(reply)).toBe('ALREADY_REGISTERED');
    });

    it.each([
      ['no CSRF field', { body: { email: 'x@example.test', full_name: 'X', password: PASSWORD } }],
      ['a CSRF field that differs from the cookie', { body: { csrf: 'd'.repeat(32), email: 'x@example.test', full_name: 'X', password: PASSWORD } }],
      ['a foreign Origin', { body: { csrf: 'c'.repeat(32), email: 'x@example.test', full_name: 'X', password: PASSWORD }, headers: { origin: 'https://evil.example' } }],
    ])('refuses a post with %s (403) and creates nothing', async (_label, options) => {
      const reply = await call('POST', '/auth/signup', options);
      expect(reply.status).toBe(403);
      await expect(sql(`SELECT 1 FROM auth.accounts WHERE email = 'x@example.test'`)).resolves.toHaveLength(0);
    });

    it('creates the account, logs in with an HttpOnly SameSite=Lax cookie stored hashed, and shows the token once', async () => {
      const reply = await post('/auth/signup', { email: 'New.User@Example.test', full_name: 'New User', password: PASSWORD });
      expect(reply.status).toBe(201);
      const token = /data-testid="api-token">([0-9a-f]{40})</.exec(html(reply))![1];
      await expect(tokens.verify(hashToken(token))).resolves.toMatchObject({ tokenKind: 'personal' });
      const cookie = reply.cookies!.find((value) => value.startsWith('doable_session='))!;
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');
      const session = sessionCookie(reply)!;
      await expect(sql('SELECT 1 FROM auth.sessions WHERE session_hash = $1', [hashToken(session)])).resolves.toHaveLength(1);
      await expect(sql('SELECT 1 FROM auth.sessions WHERE session_hash = $1', [session])).resolves.toHaveLength(0);
      expect(reply.headers).toMatchObject({ 'Cache-Control': 'no-store', 'X-Frame-Options': 'DENY' });
    });

    it('leaves the address unproven and mails a confirmation link whose page changes nothing until its button (issue #44)', async () => {
      const email = `confirm-${randomBytes(3).toString('hex')}@example.test`;
      expect((await post('/auth/signup', { email, full_name: 'Confirm Me', password: PASSWORD })).status).toBe(201);
      const verified = async () => (await sql<{ verified: boolean }>('SELECT email_verified_at IS NOT NULL AS verified FROM auth.accounts WHERE email = $1', [email]))[0].verified;
      expect(await verified()).toBe(false);
      const [event] = await sql<{ payload: { email: string; link: string; reason: string } }>(`SELECT payload FROM auth.outbox WHERE subject = $1 AND payload->>'email' = $2`, [
        AuthEvents.addressConfirmationRequested.name,
        email,
      ]);
      expect(event.payload).toMatchObject({ email, reason: 'sign-up', link: expect.stringMatching(new RegExp(`^${ORIGIN}/auth/email/verify\\?token=`)) });
      const [created] = await sql<{ payload: { emailVerified: boolean } }>(`SELECT payload FROM auth.outbox WHERE subject = $1 AND payload->>'email' = $2`, [AuthEvents.userCreated.name, email]);
      expect(created.payload.emailVerified).toBe(false);
      const token = new URL(event.payload.link).searchParams.get('token')!;
      expect((await call('GET', '/auth/email/verify', { query: { token } })).status).toBe(200);
      expect(await verified()).toBe(false);
      const done = await post('/auth/email/verify', { token });
      expect([done.status, html(done)]).toEqual([200, expect.stringContaining('data-testid="email-verified"')]);
      expect(await verified()).toBe(true);
      const again = await post('/auth/email/verify', { token });
      expect([again.status, errorTag(again)]).toEqual([400, 'RESET_LINK_INVALID']);
    });

    it('continues to a local next page, never to another site', async () => {
      const local = await post('/auth/signup', { email: 'next1@example.test', full_name: 'N', password: PASSWORD, next: '/oauth/authorize?client_id=x' });
      expect(local.headers!['Location']).toBe('/oauth/authorize?client_id=x');
      const foreign = await post('/auth/login', { email: 'next1@example.test', password: PASSWORD, next: '//evil.example/x' });
      expect(foreign.headers!['Location']).toBe('/auth/settings');
    });

    it.each(['/\t/evil.example', '/\n/evil.example', ' //evil.example', '/\\evil.example', '\\\\evil.example', 'https://evil.example'])(
      'sends a next of %j home, after log-in and from the log-in form when logged in',
      async (next) => {
        const email = `redirect-${randomBytes(3).toString('hex')}@example.test`;
        await accounts.create({ email, fullName: 'R', password: PASSWORD, timezone: 'UTC' });
        const login = await post('/auth/login', { email, password: PASSWORD, next });
        expect(login.headers!['Location']).toBe('/auth/settings');
        const again = await call('GET', '/auth/login', { query: { next }, cookies: { doable_session: sessionCookie(login)! } });
        expect(again.headers!['Location']).toBe('/auth/settings');
      },
    );

    it('answers a next holding CR, LF or non-Latin-1 text with a Location that is a valid header value', async () => {
      const login = await post('/auth/login', { email: owner.email, password: PASSWORD, next: '/auth/apps\r\nSet-Cookie: x=1\u2603' });
      expect(login.headers!['Location']).toBe('/auth/appsSet-Cookie:%20x=1%E2%98%83');
    });
  });

  describe('log-in, log-out and settings', () => {
    it.each([
      ['a wrong password', () => owner.email, 'wrong password!'],
      ['an unknown email', () => 'nobody@example.test', PASSWORD],
      ['an account without a password', () => 'nopass@example.test', ''],
    ])('refuses %s (401, AUTHENTICATION_ERROR)', async (_label, email, password) => {
      await accounts.create({ email: 'nopass@example.test', fullName: 'No Pass', timezone: 'UTC' }).catch(() => undefined);
      const reply = await post('/auth/login', { email: email(), password });
      expect(reply.status).toBe(401);
      expect(errorTag(reply)).toBe('AUTHENTICATION_ERROR');
      expect(reply.cookies?.some((cookie) => cookie.startsWith('doable_session='))).toBe(false);
    });

    it.each(['/auth/settings', '/auth/apps'])('sends a visitor without a session from %s to the log-in page', async (path) => {
      const reply = await call('GET', path, { cookies: { doable_session: 'forged' } });
      expect(reply.status).toBe(303);
      expect(reply.headers!['Location']).toBe(`/auth/login?next=${encodeURIComponent(path)}`);
    });

    it('resets the personal token: the old one stops, a token-revoked event is recorded', async () => {
      const user = await newAccount('reset');
      const refused = await call('POST', '/auth/settings/token', { cookies: { doable_session: user.session }, body: {} });
      expect(refused.status).toBe(403);
      const reply = await post('/auth/settings/token', {}, { cookies: { doable_session: user.session } });
      const fresh = /data-testid="api-token">([0-9a-f]{40})</.exec(html(reply))![1];
      await expect(tokens.verify(hashToken(user.token))).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
      await expect(tokens.verify(hashToken(fresh))).resolves.toMatchObject({ userId: user.userId });
      const events = await sql<{ payload: { tokenHash: string } }>(`SELECT payload FROM auth.outbox WHERE subject = 'auth.evt.token-revoked.v1'`);
      expect(events.map((event) => event.payload.tokenHash)).toContain(hashToken(user.token));
    });

    it('logs out: the session stops working', async () => {
      const user = await newAccount('logout');
      const reply = await post('/auth/logout', {}, { cookies: { doable_session: user.session } });
      expect(reply.status).toBe(303);
      expect(reply.cookies!.some((cookie) => cookie.startsWith('doable_session=;') && cookie.includes('Max-Age=0'))).toBe(true);
      expect((await call('GET', '/auth/settings', { cookies: { doable_session: user.session } })).status).toBe(303);
    });
  });

  describe('application console', () => {
    it.each([
      ['no name', { name: '', redirect_uris: CALLBACK }, 'APP_NAME_REQUIRED'],
      ['a redirect URL with a fragment', { name: 'A', redirect_uris: 'https://a.example/cb#x' }, 'INVALID_REDIRECT_URI'],
      ['a redirect URL of another scheme', { name: 'A', redirect_uris: 'ftp://a.example/cb' }, 'INVALID_REDIRECT_URI'],
      ['a relative redirect URL', { name: 'A', redirect_uris: '/cb' }, 'INVALID_REDIRECT_URI'],
    ])('refuses %s', async (_label, form, tag) => {
      const reply = await post('/auth/apps', form, asOwner());
      expect(reply.status).toBe(400);
      expect(errorTag(reply)).toBe(tag);
    });

    it('shows the secret once; rotating it stops the old one', async () => {
      const fresh = await newApp(owner.session);
      expect(html(await call('GET', '/auth/apps', asOwner()))).not.toContain(fresh.clientSecret);
      const rotated = await post('/auth/apps/secret', { app_id: fresh.id }, asOwner());
      const secret = /data-testid="client-secret">([0-9a-f]{32})</.exec(html(rotated))![1];
      await expect(apps.authenticate(fresh.clientId, fresh.clientSecret)).resolves.toBeUndefined();
      await expect(apps.authenticate(fresh.clientId, secret)).resolves.toMatchObject({ id: fresh.id });
    });

    it("does not rotate another user's application", async () => {
      const other = await newAccount('other');
      const reply = await post('/auth/apps/secret', { app_id: app.id }, { cookies: { doable_session: other.session } });
      expect(reply.status).toBe(404);
      await expect(apps.authenticate(app.clientId, app.clientSecret)).resolves.toBeDefined();
    });
  });

  describe("the console's webhook form (POST /auth/apps/webhook)", () => {
    const form = (body: Record<string, unknown>, options: Call = asOwner()) => post('/auth/apps/webhook', body as Record<string, string>, options);
    const stored = (appId: string) => sql<{ url: string | null; events: string[] }>(`SELECT webhook_callback_url AS url, webhook_events AS events FROM auth.oauth_apps WHERE id = $1`, [appId]).then((rows) => rows[0]);

    it('shows each app with its webhook form: every event type, the saved choices checked', async () => {
      const target = await newApp(owner.session);
      expect((await form({ app_id: target.id, action: 'save', callback_url: 'https://hooks.example.com/console', events: ['item:added', 'reminder:fired'], version: '1' })).status).toBe(200);
      const page = html(await call('GET', '/auth/apps', asOwner()));
      const section = page.slice(page.indexOf(`data-app-id="${target.id}"`));
      expect(section).toContain('action="/auth/apps/webhook"');
      expect(section).toContain('value="https://hooks.example.com/console"');
      expect(section).toMatch(/value="item:added" id="[^"]+" checked>/);
      expect(section).toMatch(/value="reminder:fired" id="[^"]+" checked>/);
      expect(section).toMatch(/value="item:deleted" id="[^"]+">/);
      expect(section).toContain('name="csrf"');
    });

    it('saves a webhook, announcing it to the webhooks service, and removes it', async () => {
      const target = await newApp(owner.session);
      const saved = await form({ app_id: target.id, action: 'save', callback_url: ' https://hooks.example.com/in ', events: 'item:completed', version: '1' });
      expect(saved.status).toBe(200);
      expect(html(saved)).toContain('Webhook saved.');
      expect(await stored(target.id)).toEqual({ url: 'https://hooks.example.com/in', events: ['item:completed'] });
      const [event] = await sql<{ payload: Record<string, unknown> }>(`SELECT payload FROM auth.outbox WHERE subject = 'auth.evt.app-webhook-configured.v1' ORDER BY id DESC LIMIT 1`);
      expect(event.payload).toMatchObject({ appId: target.id, callbackUrl: 'https://hooks.example.com/in', events: ['item:completed'] });
      expect((await form({ app_id: target.id, action: 'remove' })).status).toBe(200);
      expect(await stored(target.id)).toEqual({ url: null, events: [] });
    });

    it.each([
      ['a loopback receiver', { callback_url: 'https://127.0.0.1/in', events: ['item:added'] }, 400, 'WEBHOOK_URL_REFUSED'],
      ['plain http', { callback_url: 'http://hooks.example.com/in', events: ['item:added'] }, 400, 'WEBHOOK_URL_REFUSED'],
      ['no URL', { callback_url: '', events: ['item:added'] }, 400, 'ARGUMENT_MISSING'],
      ['no event', { callback_url: 'https://hooks.example.com/in' }, 400, 'INVALID_ARGUMENT_VALUE'],
      ['an unknown event', { callback_url: 'https://hooks.example.com/in', events: ['item:exploded'] }, 400, 'INVALID_ARGUMENT_VALUE'],
      ['another version', { callback_url: 'https://hooks.example.com/in', events: ['item:added'], version: '7' }, 400, 'INVALID_ARGUMENT_VALUE'],
    ])('refuses %s as the API does, showing the form again as typed', async (_label, fields, status, tag) => {
      const target = await newApp(owner.session);
      const reply = await form({ app_id: target.id, action: 'save', ...fields });
      expect(reply.status).toBe(status);
      expect(errorTag(reply)).toBe(tag);
      if (fields.callback_url) expect(html(reply)).toContain(`value="${fields.callback_url}"`);
      expect(await stored(target.id)).toEqual({ url: null, events: [] });
    });

    it('refuses a form without the CSRF token, a visitor without a session, and another owner', async () => {
      const target = await newApp(owner.session);
      const fields = { app_id: target.id, action: 'save', callback_url: 'https://hooks.example.com/in', events: ['item:added'] };
      expect((await call('POST', '/auth/apps/webhook', { ...asOwner(), body: fields as unknown as Record<string, string> })).status).toBe(403);
      expect((await form(fields, { ...asOwner(), headers: { origin: 'https://evil.example' } })).status).toBe(403);
      expect((await form(fields, {})).status).toBe(303);
      const other = await newAccount('hook-other');
      expect((await form(fields, { cookies: { doable_session: other.session } })).status).toBe(404);
      expect(await stored(target.id)).toEqual({ url: null, events: [] });
    });

    it('asks for a secret reset (409) for an app registered before secrets were kept encrypted', async () => {
      const target = await newApp(owner.session);
      await sql(`UPDATE auth.oauth_apps SET client_secret_encrypted = NULL WHERE id = $1`, [target.id]);
      const reply = await form({ app_id: target.id, action: 'save', callback_url: 'https://hooks.example.com/in', events: ['item:added'] });
      expect(reply.status).toBe(409);
      expect(errorTag(reply)).toBe('WEBHOOK_SECRET_UNAVAILABLE');
    });
  });

  describe('GET /oauth/authorize', () => {
    const authorize = (query: Record<string, string>, options: Call = asOwner()) => call('GET', '/oauth/authorize', { ...options, query });

    it('shows a consent page naming the app and the scopes in plain words', async () => {
      const reply = await authorize({ client_id: app.clientId, scope: 'data:read,task:add', state: 's' });
      expect(reply.status).toBe(200);
      expect(html(reply)).toContain('Authorize Test app');
      expect(html(reply)).toContain('Add new tasks (without reading your data)');
      expect(html(reply)).toContain('Read your tasks, projects, labels and filters');
    });

    it('sends a visitor to log in first, coming back to the same request', async () => {
      const reply = await authorize({ client_id: app.clientId, scope: 'data:read', state: 's' }, {});
      expect(reply.status).toBe(303);
      const next = new URL(location(reply).searchParams.get('next')!, ORIGIN);
      expect(next.pathname).toBe('/oauth/authorize');
      expect(Object.fromEntries(next.searchParams)).toEqual({ client_id: app.clientId, scope: 'data:read', state: 's' });
    });

    it.each([
      ['an unknown client', () => ({ client_id: 'nope', scope: 'data:read', state: 's' }), 'invalid_client'],
      ['a redirect_uri that is not registered', () => ({ client_id: app.clientId, scope: 'data:read', state: 's', redirect_uri: 'https://evil.example/cb' }), 'redirect_uri_mismatch'],
    ])('answers JSON to the browser for %s', async (_label, query, error) => {
      const reply = await authorize(query());
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ error });
      expect(reply.headers!['Location']).toBeUndefined();
    });

    it('answers JSON when the application has no redirect URL, or several and none chosen', async () => {
      const none = await newApp(owner.session, '');
      expect((await authorize({ client_id: none.clientId, scope: 'data:read', state: 's' })).body).toMatchObject({ error: 'invalid_request' });
      const several = await newApp(owner.session, `${CALLBACK}\nhttps://app.example/other`);
      expect((await authorize({ client_id: several.clientId, scope: 'data:read', state: 's' })).body).toMatchObject({ error: 'invalid_request' });
      const chosen = await authorize({ client_id: several.clientId, scope: 'data:read', state: 's', redirect_uri: 'https://app.example/other' });
      expect(chosen.status).toBe(200);
    });

    it.each([
      ['an unknown scope', { scope: 'data:read,data:all', state: 's' }, 'invalid_scope'],
      ['no scope', { scope: '', state: 's' }, 'invalid_scope'],
      ['no state', { scope: 'data:read' }, 'invalid_request'],
      ['a plain PKCE challenge', { scope: 'data:read', state: 's', code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request'],
      ['a malformed S256 challenge', { scope: 'data:read', state: 's', code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request'],
    ])('redirects back with an error for %s', async (_label, query, error) => {
      const reply = await authorize({ client_id: app.clientId, ...query });
      expect(reply.status).toBe(303);
      const back = location(reply);
      expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
      expect(back.searchParams.get('error')).toBe(error);
    });

    it('redirects with invalid_application_status for a suspended app and for one at its token limit', async () => {
      const suspended = await newApp(owner.session);
      await sql(`UPDATE auth.oauth_apps SET status = 'suspended' WHERE id = $1`, [suspended.id]);
      const first = await authorize({ client_id: suspended.clientId, scope: 'data:read', state: 's1' });
      expect(Object.fromEntries(location(first).searchParams)).toEqual({ error: 'invalid_application_status', state: 's1' });

      const limited = await newApp(owner.session);
      await exchange({ client_id: limited.clientId, client_secret: limited.clientSecret, code: await code({ app: limited }) });
      await sql('UPDATE auth.oauth_apps SET token_limit = 1 WHERE id = $1', [limited.id]);
      const second = await authorize({ client_id: limited.clientId, scope: 'data:read', state: 's2' });
      expect(location(second).searchParams.get('error')).toBe('invalid_application_status');
    });
  });

  describe('POST /oauth/authorize (the decision)', () => {
    it('refuses a decision without the CSRF field', async () => {
      const reply = await call('POST', '/oauth/authorize', { ...asOwner(), body: { client_id: app.clientId, scope: 'data:read', state: 's', decision: 'allow' } });
      expect(reply.status).toBe(403);
    });

    it('redirects with error=access_denied and the state when the user denies', async () => {
      const reply = await post('/oauth/authorize', { client_id: app.clientId, scope: 'data:read', state: 'xyz', decision: 'deny' }, asOwner());
      expect(Object.fromEntries(location(reply).searchParams)).toEqual({ error: 'access_denied', state: 'xyz' });
    });
  });

  describe('POST /oauth/access_token', () => {
    it('issues an OAuth token whose principal carries the scopes and the app', async () => {
      const reply = await exchange({ client_id: app.clientId, client_secret: app.clientSecret, code: await code({ scope: 'task:add,data:delete' }) });
      expect(reply).toMatchObject({ status: 200, body: { access_token: expect.stringMatching(/^[0-9a-f]{40}$/), token_type: 'Bearer' } });
      const principal = await tokens.verify(hashToken((reply.body as { access_token: string }).access_token));
      expect(principal).toEqual({ userId: owner.userId, tokenKind: 'oauth', appId: app.id, scopes: ['task:add', 'data:delete'], expiresAt: null });
    });

    it('accepts grant_type=authorization_code and HTTP Basic client authentication', async () => {
      const basic = `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`;
      const reply = await exchange({ grant_type: 'authorization_code', code: await code() }, { authorization: basic });
      expect(reply.status).toBe(200);
    });

    it.each([
      ['an unknown client', () => ({ client_id: 'nope', client_secret: app.clientSecret }), 'incorrect_application_credentials'],
      ['a wrong secret', () => ({ client_id: app.clientId, client_secret: 'wrong' }), 'incorrect_application_credentials'],
      ['no secret and no PKCE', () => ({ client_id: app.clientId }), 'incorrect_application_credentials'],
      ['another grant type', () => ({ client_id: app.clientId, client_secret: app.clientSecret, grant_type: 'password' }), 'unsupported_grant_type'],
      ['a different redirect_uri', () => ({ client_id: app.clientId, client_secret: app.clientSecret, redirect_uri: 'https://evil.example/cb' }), 'redirect_uri_mismatch'],
    ])('refuses %s', async (_label, fields, error) => {
      const reply = await exchange({ code: await code(), ...fields() });
      expect(reply).toMatchObject({ status: 400, body: { error } });
    });

    it('refuses a code twice, an unknown code, an expired code and another app\'s code (bad_authorization_code)', async () => {
      const credentials = { client_id: app.clientId, client_secret: app.clientSecret };
      const once = await code();
      expect((await exchange({ ...credentials, code: once })).status).toBe(200);
      expect((await exchange({ ...credentials, code: once })).body).toEqual({ error: 'bad_authorization_code' });
      expect((await exchange({ ...credentials, code: 'f'.repeat(40) })).body).toEqual({ error: 'bad_authorization_code' });
      expect((await exchange({ ...credentials })).body).toEqual({ error: 'bad_authorization_code' });
      const expired = await code();
      await sql(`UPDATE auth.oauth_codes SET expires_at = now() - interval '1 second' WHERE code_hash = $1`, [hashToken(expired)]);
      expect((await exchange({ ...credentials, code: expired })).body).toEqual({ error: 'bad_authorization_code' });
      const other = await newApp(owner.session);
      expect((await exchange({ client_id: other.clientId, client_secret: other.clientSecret, code: await code() })).body).toEqual({ error: 'bad_authorization_code' });
    });

    it('requires the redirect_uri of the authorization request when it named one', async () => {
      const named = await code({ query: { redirect_uri: CALLBACK } });
      expect((await exchange({ client_id: app.clientId, client_secret: app.clientSecret, code: named })).body).toEqual({ error: 'redirect_uri_mismatch' });
      const again = await code({ query: { redirect_uri: CALLBACK } });
      expect((await exchange({ client_id: app.clientId, client_secret: app.clientSecret, code: again, redirect_uri: CALLBACK })).status).toBe(200);
    });

    it('lets a public client use PKCE S256 instead of its secret, and burns the code on a wrong verifier', async () => {
      const verifier = randomBytes(40).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const good = await code({ query: { code_challenge: challenge, code_challenge_method: 'S256' } });
      expect((await exchange({ client_id: app.clientId, code: good, code_verifier: verifier })).status).toBe(200);
      const guarded = await code({ query: { code_challenge: challenge, code_challenge_method: 'S256' } });
      expect((await exchange({ client_id: app.clientId, client_secret: app.clientSecret, code: guarded, code_verifier: `${verifier}x` })).body).toEqual({ error: 'bad_authorization_code' });
      expect((await exchange({ client_id: app.clientId, code: guarded, code_verifier: verifier })).body).toEqual({ error: 'bad_authorization_code' });
    });
  });

  describe('public clients (assistants): registration, metadata documents, PKCE', () => {
    const verifier = randomBytes(40).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const pkce = { code_challenge: challenge, code_challenge_method: 'S256' };
    let documents: Server;
    let served: Record<string, { status?: number; type?: string; body: string }>;
    let docBase: string;

    beforeAll(async () => {
      served = {};
      documents = createServer((req, res) => {
        const doc = served[req.url ?? ''];
        res.writeHead(doc?.status ?? (doc ? 200 : 404), { 'content-type': doc?.type ?? 'application/json' });
        res.end(doc?.body ?? '');
      });
      await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
      docBase = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => documents.close(() => resolve())));

    const register = (body: unknown) => edge.edge({ ...edgeRequest('POST', '/oauth/register'), body });

    it('registers a public client (RFC 7591): no owner, no secret, 201 with its client id', async () => {
      const reply = await register({ client_name: 'Assistant', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] });
      expect(reply.status).toBe(201);
      const body = reply.body as { client_id: string };
      expect(body).toMatchObject({ client_name: 'Assistant', redirect_uris: [CALLBACK], grant_types: ['authorization_code'], token_endpoint_auth_method: 'none' });
      const [row] = await sql<{ owner_id: string | null; client_secret_hash: string | null; registration: string }>('SELECT owner_id, client_secret_hash, registration FROM auth.oauth_apps WHERE client_id = $1', [body.client_id]);
      expect(row).toEqual({ owner_id: null, client_secret_hash: null, registration: 'dynamic' });
      expect((await register({ redirect_uris: ['/relative'] })).body).toMatchObject({ error: 'invalid_redirect_uri' });
      expect((await register({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'client_secret_post' })).status).toBe(400);
    });

    it('gives a registered client a code only with PKCE, a token only with the verifier, and lets it revoke by its id', async () => {
      const { client_id: clientId } = (await register({ redirect_uris: [CALLBACK] })).body as { client_id: string };
      const withoutPkce = await post('/oauth/authorize', { client_id: clientId, scope: 'data:read_write', state: 'st', decision: 'allow' }, asOwner());
      expect(location(withoutPkce).searchParams.get('error')).toBe('invalid_request');
      const consent = await call('GET', '/oauth/authorize', { query: { client_id: clientId, scope: 'data:read_write', state: 'st', ...pkce }, ...asOwner() });
      expect(html(consent)).toContain('data-testid="public-client"');
      const first = await post('/oauth/authorize', { client_id: clientId, scope: 'data:read_write', state: 'st', decision: 'allow', ...pkce }, asOwner());
      expect((await exchange({ client_id: clientId, code: location(first).searchParams.get('code')! })).body).toEqual({ error: 'bad_authorization_code' });
      const second = await post('/oauth/authorize', { client_id: clientId, scope: 'data:read_write', state: 'st', decision: 'allow', ...pkce }, asOwner());
      const issued = await exchange({ grant_type: 'authorization_code', client_id: clientId, code: location(second).searchParams.get('code')!, code_verifier: verifier, redirect_uri: CALLBACK });
      expect(issued.status).toBe(200);
      const token = (issued.body as { access_token: string }).access_token;
      expect((await tokens.verify(hashToken(token))).scopes).toEqual(['data:read_write']);
      // A console client still needs its secret to revoke; a public one names itself.
      expect((await call('POST', '/api/v1/revoke', { body: { client_id: app.clientId, token } })).status).toBe(401);
      expect((await call('POST', '/api/v1/revoke', { body: { client_id: clientId, token } })).status).toBe(200);
      await expect(tokens.verify(hashToken(token))).rejects.toBeInstanceOf(DomainError);
    });

    it('takes a client id that is the URL of its metadata document, and refuses documents that do not vouch for it', async () => {
      const url = `${docBase}/assistant.json`;
      served['/assistant.json'] = { body: JSON.stringify({ client_id: url, client_name: 'Document assistant', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }) };
      const consent = await call('GET', '/oauth/authorize', { query: { client_id: url, scope: 'data:read', state: 'st', ...pkce }, ...asOwner() });
      expect(consent.status).toBe(200);
      expect(html(consent)).toContain('Document assistant');
      const decided = await post('/oauth/authorize', { client_id: url, scope: 'data:read', state: 'st', decision: 'allow', ...pkce }, asOwner());
      const issued = await exchange({ client_id: url, code: location(decided).searchParams.get('code')!, code_verifier: verifier });
      expect(issued.status).toBe(200);
      const refusals: Array<[string, { status?: number; type?: string; body: string }, string]> = [
        ['/other.json', { body: JSON.stringify({ client_id: `${docBase}/elsewhere.json`, redirect_uris: [CALLBACK] }) }, 'its own URL'],
        ['/no-redirects.json', { body: JSON.stringify({ client_id: `${docBase}/no-redirects.json` }) }, 'redirect_uris'],
        ['/secret.json', { body: JSON.stringify({ client_id: `${docBase}/secret.json`, redirect_uris: [CALLBACK], token_endpoint_auth_method: 'client_secret_basic' }) }, 'public clients'],
        ['/large.json', { body: JSON.stringify({ client_id: `${docBase}/large.json`, redirect_uris: [CALLBACK], padding: 'x'.repeat(6000) }) }, 'larger than'],
        ['/html.json', { type: 'text/html', body: '<html></html>' }, 'not JSON'],
        ['/gone.json', { status: 404, body: '' }, 'HTTP 404'],
      ];
      for (const [path, doc, reason] of refusals) {
        served[path] = doc;
        const reply = await call('GET', '/oauth/authorize', { query: { client_id: `${docBase}${path}`, scope: 'data:read', state: 'st', ...pkce }, ...asOwner() });
        expect([path, reply.status, (reply.body as { error: string }).error, String((reply.body as { error_description: string }).error_description)]).toEqual([path, 400, 'invalid_client', expect.stringContaining(reason)]);
      }
    });

    it('fetches no document from a loopback or private address unless told to (SSRF)', async () => {
      const strict = new ClientResolver(apps, { allowPrivate: false });
      await expect(strict.resolve('https://127.0.0.1/assistant.json')).resolves.toMatchObject({ ok: false, reason: expect.stringContaining('non-public address') });
      for (const literal of ['https://[::1]/assistant.json', 'https://169.254.169.254/latest/meta-data.json', 'https://10.0.0.1/assistant.json']) {
        await expect(strict.resolve(literal)).resolves.toMatchObject({ ok: false, reason: expect.stringContaining('non-public address') });
      }
      await expect(strict.resolve('https://localhost/assistant.json')).resolves.toMatchObject({ ok: false, reason: expect.stringContaining('non-public address') });
      await expect(strict.resolve(`${docBase}/assistant.json`)).resolves.toMatchObject({ ok: false, reason: expect.stringContaining('https') });
    });

    it('publishes the protected resource (RFC 9728) and advertises registration and metadata documents', async () => {
      expect((await call('GET', '/.well-known/oauth-protected-resource/mcp')).body).toEqual({
        resource: `${ORIGIN}/mcp`,
        authorization_servers: [ORIGIN],
        bearer_methods_supported: ['header'],
        scopes_supported: ['data:read_write', 'data:read', 'data:delete', 'task:add', 'project:delete'],
        resource_name: 'Doable',
      });
      expect((await call('GET', '/.well-known/oauth-authorization-server')).body).toMatchObject({ registration_endpoint: `${ORIGIN}/oauth/register`, client_id_metadata_document_supported: true });
    });
  });

  describe('revocation', () => {
    async function issued(): Promise<string> {
      const reply = await exchange({ client_id: app.clientId, client_secret: app.clientSecret, code: await code() });
      return (reply.body as { access_token: string }).access_token;
    }

    it.each(['/sync/v9/access_tokens/revoke', '/api/v1/access_tokens/revoke'])('%s: 204, the token stops, a token-revoked event is recorded', async (path) => {
      const token = await issued();
      const reply = await call('POST', path, { body: { client_id: app.clientId, client_secret: app.clientSecret, access_token: token } });
      expect(reply.status).toBe(204);
      await expect(tokens.verify(hashToken(token))).rejects.toBeInstanceOf(DomainError);
      const events = await sql<{ payload: { tokenHash: string } }>(`SELECT payload FROM auth.outbox WHERE subject = 'auth.evt.token-revoked.v1'`);
      expect(events.map((event) => event.payload.tokenHash)).toContain(hashToken(token));
    });

    it('refuses wrong client credentials and a missing token', async () => {
      const token = await issued();
      const wrong = await call('POST', '/sync/v9/access_tokens/revoke', { body: { client_id: app.clientId, client_secret: 'nope', access_token: token } });
      expect(wrong).toMatchObject({ status: 400, body: { error: 'incorrect_application_credentials' } });
      const missing = await call('POST', '/sync/v9/access_tokens/revoke', { body: { client_id: app.clientId, client_secret: app.clientSecret } });
      expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
      await expect(tokens.verify(hashToken(token))).resolves.toBeDefined();
    });

    it("leaves another app's token and a personal token alone", async () => {
      const other = await newApp(owner.session);
      const token = await issued();
      const user = await newAccount('keeps');
      for (const victim of [token, user.token]) {
        const reply = await call('POST', '/api/v1/access_tokens/revoke', { body: { client_id: other.clientId, client_secret: other.clientSecret, access_token: victim } });
        expect(reply.status).toBe(204);
        await expect(tokens.verify(hashToken(victim))).resolves.toBeDefined();
      }
    });

    it('RFC 7009 /api/v1/revoke: HTTP Basic, 200; 401 invalid_client without it; 400 without a token', async () => {
      const token = await issued();
      const basic = (secret: string) => ({ authorization: `Basic ${Buffer.from(`${app.clientId}:${secret}`).toString('base64')}` });
      const unauthenticated = await call('POST', '/api/v1/revoke', { body: { token, token_type_hint: 'access_token' } });
      expect(unauthenticated).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
      expect(unauthenticated.headers!['WWW-Authenticate']).toMatch(/^Basic/);
      expect((await call('POST', '/api/v1/revoke', { body: { token }, headers: basic('wrong') })).status).toBe(401);
      expect(await call('POST', '/api/v1/revoke', { body: {}, headers: basic(app.clientSecret) })).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
      expect((await call('POST', '/api/v1/revoke', { body: { token, token_type_hint: 'access_token' }, headers: basic(app.clientSecret) })).status).toBe(200);
      await expect(tokens.verify(hashToken(token))).rejects.toBeInstanceOf(DomainError);
      expect((await call('POST', '/api/v1/revoke', { body: { token: 'unknown' }, headers: basic(app.clientSecret) })).status).toBe(200);
    });
  });

  describe('migrate_personal_token', () => {
    const migrate = (path: string, body: Record<string, string>, dialect: EdgeRequest['dialect']) => call('POST', path, { body, dialect });

    it('v9 answers access_token and token_type; v1 adds expires_in; the token has the scope', async () => {
      const user = await newAccount('migrate');
      const base = { client_id: app.clientId, client_secret: app.clientSecret, personal_token: user.token, scope: 'data:read' };
      const v9 = await migrate('/sync/v9/access_tokens/migrate_personal_token', base, 'sync-v9');
      expect(v9.body).toEqual({ access_token: expect.stringMatching(/^[0-9a-f]{40}$/), token_type: 'Bearer' });
      const v1 = await migrate('/api/v1/access_tokens/migrate_personal_token', base, 'sync-api-v1');
      expect(v1.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: expect.any(Number) });
      await expect(tokens.verify(hashToken((v1.body as { access_token: string }).access_token))).resolves.toEqual({
        userId: user.userId,
        tokenKind: 'oauth',
        appId: app.id,
        scopes: ['data:read'],
        expiresAt: expect.stringMatching(/^\d{4}-/),
      });
    });

    it('refuses an expired token (AUTH_REQUIRED), and says when a live one expires', async () => {
      const user = await newAccount('expiring');
      const body = { client_id: app.clientId, client_secret: app.clientSecret, personal_token: user.token, scope: 'data:read' };
      const migrated = (await migrate('/api/v1/access_tokens/migrate_personal_token', body, 'sync-api-v1')).body as { access_token: string; expires_in: number };
      const live = await tokens.verify(hashToken(migrated.access_token));
      expect(Date.parse(live.expiresAt!) - Date.now()).toBeGreaterThan((migrated.expires_in - 60) * 1000);
      await sql(`UPDATE auth.access_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [hashToken(migrated.access_token)]);
      await expect(tokens.verify(hashToken(migrated.access_token))).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
      await expect(tokens.verify(hashToken(user.token))).resolves.toMatchObject({ tokenKind: 'personal', expiresAt: null });
    });

    it('gives migrated tokens the configured lifetime (OAUTH_MIGRATED_TOKEN_TTL_SECONDS)', async () => {
      const shortLived = new OAuthEndpoints(apps, new OAuthService(db, apps), 120);
      const user = await newAccount('ttl');
      const web = new WebExchange({ ...edgeRequest('POST', '/api/v1/access_tokens/migrate_personal_token', {}), body: { client_id: app.clientId, client_secret: app.clientSecret, personal_token: user.token, scope: 'data:read' } });
      const reply = await shortLived.migratePersonalToken(web);
      expect(reply.body).toMatchObject({ expires_in: 120 });
      const verified = await tokens.verify(hashToken((reply.body as { access_token: string }).access_token));
      expect(Date.parse(verified.expiresAt!) - Date.now()).toBeLessThanOrEqual(120_000);
      expect(Date.parse(verified.expiresAt!) - Date.now()).toBeGreaterThan(60_000);
    });

    it.each([
      ['wrong client credentials', { client_secret: 'nope' }, 400, 'incorrect_application_credentials'],
      ['an unknown personal token', { personal_token: 'a'.repeat(40) }, 400, 'invalid_grant'],
      ['a bad scope', { scope: 'everything' }, 400, 'invalid_scope'],
      ['no personal token', { personal_token: '' }, 400, 'invalid_request'],
    ])('refuses %s', async (_label, override, status, error) => {
      const body = { client_id: app.clientId, client_secret: app.clientSecret, personal_token: owner.email, scope: 'data:read', ...override };
      if (!('personal_token' in override)) body.personal_token = (await newAccount('m')).token;
      expect(await migrate('/sync/v9/access_tokens/migrate_personal_token', body, 'sync-v9')).toMatchObject({ status, body: { error } });
    });
  });

  it('publishes RFC 8414 metadata on the caller\'s origin', async () => {
    const reply = await call('GET', '/.well-known/oauth-authorization-server');
    expect(reply.body).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/access_token`,
      revocation_endpoint: `${ORIGIN}/api/v1/revoke`,
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('answers ROUTE_NOT_FOUND for a path it does not serve', async () => {
    await expect(call('GET', '/auth/nothing')).rejects.toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  });

  describe('account creation (CLI and RPC)', () => {
    it.each([
      ['a short password', { password: 'short' }, 'PASSWORD_TOO_SHORT'],
      ['a common password', { password: 'iloveyou' }, 'COMMON_PASSWORD'],
      ['a password containing the email', { email: 'pat.jones@example.test', password: 'pat.jones rules' }, 'PASSWORD_CONTAINS_EMAIL'],
      ['an implausible email', { email: 'not-an-email' }, 'INVALID_EMAIL'],
    ])('applies the sign-up policy: refuses %s with %s and creates nothing', async (_label, override, code) => {
      const email = `policy-${randomBytes(3).toString('hex')}@example.test`;
      const account = { email, fullName: 'Policy', password: PASSWORD, timezone: 'UTC', ...override };
      await expect(accounts.create(account)).rejects.toMatchObject({ code });
      expect(await sql('SELECT id FROM auth.accounts WHERE email = $1', [account.email])).toEqual([]);
    });

    it('still creates an account without a password (operators set one later)', async () => {
      const email = `nopw-${randomBytes(3).toString('hex')}@example.test`;
      await expect(accounts.create({ email, fullName: 'No password', timezone: 'UTC' })).resolves.toMatchObject({ token: expect.stringMatching(/^[0-9a-f]{40}$/) });
    });
  });

  describe('application status and token limit (operators)', () => {
    it('suspends and reactivates an app by client id: a suspended app gets no token, even for a code it already has', async () => {
      const target = await newApp(owner.session);
      const pending = await code({ app: target });
      await expect(apps.setStatus(target.clientId, 'suspended')).resolves.toMatchObject({ status: 'suspended' });
      const refused = await exchange({ client_id: target.clientId, client_secret: target.clientSecret, code: pending });
      expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_application_status' } });
      await expect(apps.setStatus(target.clientId, 'active')).resolves.toMatchObject({ status: 'active' });
      const issued = await exchange({ client_id: target.clientId, client_secret: target.clientSecret, code: await code({ app: target }) });
      expect(issued.status).toBe(200);
    });

    it('sets and lifts the token limit; refuses an unknown client id and a negative limit', async () => {
      const target = await newApp(owner.session);
      const pending = await code({ app: target });
      await expect(apps.setTokenLimit(target.clientId, 0)).resolves.toMatchObject({ tokenLimit: 0 });
      expect((await exchange({ client_id: target.clientId, client_secret: target.clientSecret, code: pending })).body).toEqual({ error: 'invalid_application_status' });
      await expect(apps.setTokenLimit(target.clientId, null)).resolves.toMatchObject({ tokenLimit: null });
      expect((await exchange({ client_id: target.clientId, client_secret: target.clientSecret, code: await code({ app: target }) })).status).toBe(200);
      await expect(apps.setStatus('no-such-client', 'suspended')).rejects.toMatchObject({ code: 'OAUTH_APP_NOT_FOUND' });
      await expect(apps.setTokenLimit(target.clientId, -1)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT_VALUE' });
    });

    it('never issues past the limit when exchanges and migrations race for the last slot', async () => {
      const target = await newApp(owner.session);
      const codes = await Promise.all(Array.from({ length: 4 }, () => code({ app: target })));
      const user = await newAccount('racer');
      await apps.setTokenLimit(target.clientId, 1);
      const replies = await Promise.all([
        ...codes.map((pending) => exchange({ client_id: target.clientId, client_secret: target.clientSecret, code: pending })),
        call('POST', '/sync/v9/access_tokens/migrate_personal_token', {
          dialect: 'sync-v9',
          body: { client_id: target.clientId, client_secret: target.clientSecret, personal_token: user.token, scope: 'data:read' },
        }),
      ]);
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1);
      expect(replies.filter((reply) => reply.status !== 200).map((reply) => reply.body)).toEqual(Array(4).fill({ error: 'invalid_application_status' }));
      const [live] = await sql<{ count: string }>('SELECT count(*) AS count FROM auth.access_tokens WHERE app_id = $1 AND revoked_at IS NULL', [target.id]);
      expect(Number(live.count)).toBe(1);
    });
  });

  describe('authorized applications on the settings page', () => {
    it('lists the apps holding the user\'s tokens (grants and migrated tokens) with their scopes, and revokes one app at once', async () => {
      const user = await newAccount('grants');
      const asUser: Call = { cookies: { doable_session: user.session } };
      const granted = await newApp(owner.session);
      const migratedApp = await newApp(owner.session);
      await sql(`UPDATE auth.oauth_apps SET name = 'Migrated <app>' WHERE id = $1`, [migratedApp.id]);
      const reply = await post('/oauth/authorize', { client_id: granted.clientId, scope: 'data:read,task:add', state: 'x', decision: 'allow' }, asUser);
      const exchanged = await exchange({ client_id: granted.clientId, client_secret: granted.clientSecret, code: location(reply).searchParams.get('code')! });
      const grantToken = (exchanged.body as { access_token: string }).access_token;
      const migrated = await call('POST', '/sync/v9/access_tokens/migrate_personal_token', {
        dialect: 'sync-v9',
        body: { client_id: migratedApp.clientId, client_secret: migratedApp.clientSecret, personal_token: user.token, scope: 'data:read_write' },
      });
      const migratedToken = (migrated.body as { access_token: string }).access_token;

      const page = html(await call('GET', '/auth/settings', asUser));
      expect(page).toContain(`data-authorized-app-id="${granted.id}"`);
      expect(page).toContain(`data-authorized-app-id="${migratedApp.id}"`);
      expect(page).toContain('Migrated &lt;app&gt;');
      expect(page).toContain('Revoke access of Test app');
      expect(page).toMatch(/<time datetime="\d{4}-\d\d-\d\dT/);
      expect(html(await call('GET', '/auth/settings', { cookies: { doable_session: owner.session } }))).not.toContain(`data-authorized-app-id="${granted.id}"`);

      const noCsrf = await call('POST', '/auth/settings/apps/revoke', { ...asUser, body: { app_id: granted.id } });
      expect(noCsrf.status).toBe(403);
      await expect(tokens.verify(hashToken(grantToken))).resolves.toMatchObject({ appId: granted.id });
      const otherUsers = await post('/auth/settings/apps/revoke', { app_id: granted.id }, { cookies: { doable_session: owner.session } });
      expect(otherUsers.status).toBe(404);

      const revoked = await post('/auth/settings/apps/revoke', { app_id: granted.id }, asUser);
      expect(revoked.status).toBe(200);
      expect(html(revoked)).not.toContain(`data-authorized-app-id="${granted.id}"`);
      expect(html(revoked)).toContain(`data-authorized-app-id="${migratedApp.id}"`);
      await expect(tokens.verify(hashToken(grantToken))).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
      await expect(tokens.verify(hashToken(migratedToken))).resolves.toMatchObject({ appId: migratedApp.id });
      await expect(tokens.verify(hashToken(user.token))).resolves.toMatchObject({ tokenKind: 'personal' });
      const events = await sql<{ payload: { tokenHash: string } }>(`SELECT payload FROM auth.outbox WHERE subject = 'auth.evt.token-revoked.v1'`);
      expect(events.map((event) => event.payload.tokenHash)).toContain(hashToken(grantToken));
    });
  });

  describe('setPassword (operators)', () => {
    it.each([
      ['short', 'PASSWORD_TOO_SHORT'],
      ['password1', 'COMMON_PASSWORD'],
    ])('refuses %j with %s', async (password, code) => {
      await expect(accounts.setPassword(owner.userId, password)).rejects.toMatchObject({ code });
    });

    it('refuses an unknown account and accepts a good password', async () => {
      await expect(accounts.setPassword('999999', PASSWORD)).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
      const user = await newAccount('setpw');
      await accounts.setPassword(user.userId, 'a brand new passphrase');
      await expect(accounts.authenticate(user.email, 'a brand new passphrase')).resolves.toEqual({ userId: user.userId });
    });
  });

  describe('email and password change (the Sync API user_update)', () => {
    const change = (userId: string, changes: { currentPassword?: string | null; email?: string; password?: string }) =>
      accounts.changeCredentials({ userId, currentPassword: changes.currentPassword ?? null, email: changes.email, password: changes.password });

    it.each([
      ['no current password', { email: 'moved@example.test' }, 'PASSWORD_REQUIRED'],
      ['a wrong current password', { currentPassword: 'not it at all', password: 'another passphrase' }, 'AUTHENTICATION_ERROR'],
      ['an invalid email', { currentPassword: PASSWORD, email: 'nope' }, 'INVALID_EMAIL'],
      ['a short password', { currentPassword: PASSWORD, password: 'short' }, 'PASSWORD_TOO_SHORT'],
      ['a common password', { currentPassword: PASSWORD, password: 'iloveyou' }, 'COMMON_PASSWORD'],
    ] as const)('refuses %s with its tag and changes nothing', async (_label, changes, code) => {
      const user = await newAccount('creds');
      await expect(change(user.userId, changes)).rejects.toMatchObject({ code });
      await expect(accounts.authenticate(user.email, PASSWORD)).resolves.toEqual({ userId: user.userId });
    });

    it('refuses a password that contains the new email, and an email another account has', async () => {
      const user = await newAccount('creds');
      await expect(change(user.userId, { currentPassword: PASSWORD, email: 'zed.quinn@example.test', password: 'zed.quinn-forever' })).rejects.toMatchObject({ code: 'PASSWORD_CONTAINS_EMAIL' });
      await expect(change(user.userId, { currentPassword: PASSWORD, email: owner.email })).rejects.toMatchObject({ code: 'EMAIL_ALREADY_EXISTS' });
    });

    it('changes the password at once with the right current password; the email only once the new address confirms (issue #44)', async () => {
      const user = await newAccount('creds');
      const email = `renamed-${randomBytes(3).toString('hex')}@example.test`;
      await expect(change(user.userId, { currentPassword: PASSWORD, email: email.toUpperCase(), password: 'a fresh long passphrase' })).resolves.toEqual({ email: user.email, repeated: false });
      await expect(accounts.authenticate(user.email, 'a fresh long passphrase')).resolves.toEqual({ userId: user.userId });
      await expect(accounts.authenticate(user.email, PASSWORD)).resolves.toBeUndefined();
      await expect(accounts.authenticate(email, 'a fresh long passphrase')).resolves.toBeUndefined();
      const [event] = await sql<{ payload: { email: string; previousEmail: string } }>(`SELECT payload FROM auth.outbox WHERE subject = $1 AND payload->>'userId' = $2`, [
        AuthEvents.emailChangeRequested.name,
        user.userId,
      ]);
      expect(event.payload).toMatchObject({ email, previousEmail: user.email });
    });

    it('needs no current password on an account that has none yet', async () => {
      const email = `nopass-${randomBytes(3).toString('hex')}@example.test`;
      const { userId } = await accounts.create({ email, fullName: 'No pass', timezone: 'UTC' });
      await expect(change(userId, { password: 'first real passphrase' })).resolves.toEqual({ email, repeated: false });
      await expect(accounts.authenticate(email, 'first real passphrase')).resolves.toEqual({ userId });
    });
  });

  describe('text PostgreSQL cannot store (NUL, unpaired surrogates)', () => {
    const bad = ['with\u0000nul', 'lone \ud800 surrogate'];

    it.each(bad)('re-renders the sign-up and log-in forms with a form error for %j', async (text) => {
      const signup = await post('/auth/signup', { email: 'nul@example.test', full_name: text, password: PASSWORD });
      expect(signup.status).toBe(400);
      expect(errorTag(signup)).toBe('INVALID_TEXT');
      expect(html(signup)).toContain('value="nul@example.test"');
      const login = await post('/auth/login', { email: owner.email, password: `${PASSWORD}${text}` });
      expect(login.status).toBe(400);
      expect(errorTag(login)).toBe('INVALID_TEXT');
      await expect(sql('SELECT 1 FROM auth.accounts WHERE email = $1', ['nul@example.test'])).resolves.toHaveLength(0);
    });

    it.each([
      ['POST', '/oauth/access_token', { client_id: 'x', client_secret: 'y', code: 'c\u0000' }],
      ['POST', '/sync/v9/access_tokens/revoke', { client_id: 'x\ud800', client_secret: 'y', access_token: 't' }],
      ['POST', '/api/v1/revoke', { token: 't\u0000' }],
      ['DELETE', '/api/v1/access_tokens', { client_id: 'x', client_secret: 'y', access_token: '\udc00' }],
      ['POST', '/api/v1/access_tokens/migrate_personal_token', { client_id: 'x', client_secret: 'y', personal_token: 'p\u0000', scope: 'data:read' }],
    ] as const)('answers %s %s with invalid_request', async (method, path, body) => {
      const reply = await call(method, path, { body: { ...body } });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ error: 'invalid_request' });
    });

    it('takes HTTP Basic credentials holding a NUL as no credentials', async () => {
      const basic = `Basic ${Buffer.from(`${app.clientId}\u0000:${app.clientSecret}`).toString('base64')}`;
      const reply = await call('POST', '/api/v1/revoke', { body: { token: 'whatever' }, headers: { authorization: basic } });
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ error: 'invalid_client' });
    });

    it.each(['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp'])('serves the metadata document %s whatever its query holds (it reads none)', async (path) => {
      const reply = await call('GET', path, { query: { projects: '&\u0000&', order: 'lone \ud800' } });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject(path.endsWith('/mcp') ? { resource: `${ORIGIN}/mcp` } : { issuer: ORIGIN });
    });

    it('answers the app API (an application\'s webhook) as the rest of api/v1 does: a coded error naming the field', async () => {
      const reply = call('PUT', '/api/v1/apps/webhook', { body: { callback_url: 'https://hooks.example.com/\u0000', events: 'item:added' } });
      await expect(reply).rejects.toMatchObject({ code: 'INVALID_ARGUMENT_VALUE', extra: { argument: 'callback_url' } });
    });

    it('answers the first generation\'s log-in with its LOGIN_ERROR', async () => {
      const reply = await call('GET', '/API/login', { query: { email: owner.email, password: `${PASSWORD}\u0000` }, dialect: 'first-generation' });
      expect(reply).toMatchObject({ status: 400, body: 'LOGIN_ERROR' });
    });

    it('answers any other page with a 400 page', async () => {
      const reply = await post('/auth/apps', { name: 'App\u0000', redirect_uris: CALLBACK }, asOwner());
      expect(reply.status).toBe(400);
      expect(html(reply)).toContain('cannot be saved');
    });
  });

  describe('application webhooks (GET | PUT | DELETE /api/v1/apps/webhook)', () => {
    const basicOf = (target: { clientId: string; clientSecret: string }) => ({ authorization: `Basic ${Buffer.from(`${target.clientId}:${target.clientSecret}`).toString('base64')}` });
    const put = (target: { clientId: string; clientSecret: string }, body: Record<string, unknown>) =>
      call('PUT', '/api/v1/apps/webhook', { body: body as Record<string, string>, headers: basicOf(target) });
    const refusal = (reply: Promise<EdgeReply>) => reply.then(() => 'answered', (err: { code: string }) => err.code);
    const events = ['item:added', 'note:added'];

    it('refuses a caller without the application credentials', async () => {
      await expect(refusal(call('GET', '/api/v1/apps/webhook'))).resolves.toBe('APP_CREDENTIALS_INVALID');
      await expect(refusal(put({ clientId: app.clientId, clientSecret: 'f'.repeat(32) }, { callback_url: 'https://hooks.example.com/', events }))).resolves.toBe('APP_CREDENTIALS_INVALID');
    });

    it.each([
      ['plain http', 'http://hooks.example.com/in'],
      ['loopback', 'https://127.0.0.1/in'],
      ['loopback by name', 'https://localhost:8443/in'],
      ['IPv6 loopback', 'https://[::1]/in'],
      ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/in'],
      ['the metadata address (link-local)', 'https://169.254.169.254/latest'],
      ['a private address', 'https://10.1.2.3/in'],
      ['credentials', 'https://user:pw@hooks.example.com/in'],
      ['no URL at all', 'hooks.example.com'],
    ])('refuses a callback URL with %s (WEBHOOK_URL_REFUSED)', async (_, url) => {
      await expect(refusal(put(app, { callback_url: url, events }))).resolves.toBe('WEBHOOK_URL_REFUSED');
    });

    it('refuses unknown event names and other versions, naming the argument', async () => {
      await expect(put(app, { callback_url: 'https://hooks.example.com/in', events: ['item:exploded'] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT_VALUE', extra: { argument: 'events' } });
      await expect(put(app, { callback_url: 'https://hooks.example.com/in', events, version: '7' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT_VALUE', extra: { argument: 'version' } });
    });

    it('stores the webhook, tells the webhooks service without any secret, and reads it back', async () => {
      const reply = await put(app, { callback_url: 'https://hooks.example.com/in', events });
      expect(reply.body).toEqual({ client_id: app.clientId, callback_url: 'https://hooks.example.com/in', events, version: '1' });
      expect((await call('GET', '/api/v1/apps/webhook', { headers: basicOf(app) })).body).toEqual(reply.body);
      const [event] = await sql<{ payload: Record<string, unknown> }>(`SELECT payload FROM auth.outbox WHERE subject = 'auth.evt.app-webhook-configured.v1' ORDER BY id DESC LIMIT 1`);
      expect(event.payload).toMatchObject({ appId: app.id, callbackUrl: 'https://hooks.example.com/in', events, version: '1' });
      expect(JSON.stringify(event.payload)).not.toContain(app.clientSecret);
      const removed = await call('DELETE', '/api/v1/apps/webhook', { headers: basicOf(app) });
      expect(removed.body).toMatchObject({ callback_url: null, events: [] });
    });

    it('signs bodies with the client secret (kept encrypted, never in plain text)', async () => {
      const [row] = await sql<{ sealed: string }>(`SELECT client_secret_encrypted AS sealed FROM auth.oauth_apps WHERE id = $1`, [app.id]);
      expect(row.sealed).toMatch(/^v1\./);
      expect(row.sealed).not.toContain(app.clientSecret);
      const service = new AppWebhookService(db, new AppWebhookRepository(), new AppSecretBox(db, ''), { allowHttp: false, allowPrivate: false });
      const body = '{"event_name":"item:added"}';
      await expect(service.sign(app.id, body)).resolves.toEqual({ signature: createHmac('sha256', app.clientSecret).update(body).digest('base64') });
    });

    it('computes the known HMAC-SHA256 vector', () => {
      expect(webhookSignature('0123456789abcdef0123456789abcdef', '{"event_name":"item:added"}')).toBe('fYWirBrmV3Un5nFfCc8xfV5KfJo37ADQlv7iaphb/tE=');
    });

    it('an app without an encrypted secret: refused from the console path, kept when the API proves the secret', async () => {
      const old = await newApp(owner.session);
      await sql(`UPDATE auth.oauth_apps SET client_secret_encrypted = NULL WHERE id = $1`, [old.id]);
      const service = new AppWebhookService(db, new AppWebhookRepository(), new AppSecretBox(db, ''), { allowHttp: false, allowPrivate: false });
      const oldApp = (await apps.findByClientId(old.clientId))!;
      await expect(service.configure(oldApp, { callbackUrl: 'https://hooks.example.com/in', events: ['item:added'], version: '1' })).rejects.toMatchObject({ code: 'WEBHOOK_SECRET_UNAVAILABLE' });
      await expect(service.sign(old.id, 'x')).rejects.toMatchObject({ code: 'WEBHOOK_SECRET_UNAVAILABLE' });
      expect((await put(old, { callback_url: 'https://hooks.example.com/in', events })).status).toBe(200);
      await expect(service.sign(old.id, 'x')).resolves.toEqual({ signature: createHmac('sha256', old.clientSecret).update('x').digest('base64') });
    });

    it('allows http and private receivers only when configured so', async () => {
      const lenient = new AppWebhookService(db, new AppWebhookRepository(), new AppSecretBox(db, ''), { allowHttp: true, allowPrivate: true });
      const target = (await apps.findByClientId(app.clientId))!;
      await expect(lenient.configure(target, { callbackUrl: 'http://127.0.0.1:9/in', events: ['item:added'], version: '1' })).resolves.toMatchObject({ callbackUrl: 'http://127.0.0.1:9/in' });
    });

    it('announces authorisations: granted with a token, withdrawn when the last token is revoked', async () => {
      expect((await exchange({ client_id: app.clientId, client_secret: app.clientSecret, code: await code() })).status).toBe(200);
      const changes = () =>
        sql<{ payload: { userId: string; authorized: boolean } }>(`SELECT payload FROM auth.outbox WHERE subject = 'auth.evt.app-authorization-changed.v1' ORDER BY id`).then((rows) =>
          rows.map((row) => row.payload).filter((payload) => payload.userId === owner.userId),
        );
      expect((await changes()).at(-1)).toMatchObject({ authorized: true });
      await oauth.revokeAppForUser(owner.userId, app.id);
      expect((await changes()).at(-1)).toMatchObject({ authorized: false });
    });
  });
});
