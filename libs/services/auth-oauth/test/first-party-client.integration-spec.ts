import { createHash, randomBytes } from 'node:crypto';
import type { EdgeReply, EdgeRequest } from '@doable/contracts-common';
import { createServiceDataSource, migrateUp, type OutboxRelay } from '@doable/shared-database';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { authMigrations } from '../src/migrations';
import { authEdgeFixture, pageRequest, TEST_CSRF } from '../testing/auth-edge.fixture';
import { WEB_APP_CLIENT_ID } from '../src/oauth/first-party-client';

/**
 * Doable's own web app as an OAuth client (issue #35), against a real PostgreSQL through the
 * edge handler the gateway calls: the migration registers it; a signed-in person gets a code at
 * once (no consent page); PKCE is required; the only redirect URL is `<origin>/app/`, the origin
 * being PUBLIC_URL when set, else the request's.
 */
const ORIGIN = 'http://127.0.0.1:18080';
const PUBLIC_URL = 'https://doable.example';
const PASSWORD = 'a sturdy passphrase';

describe('the first-party web app client doable-web (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let fixture: ReturnType<typeof authEdgeFixture>;
  let behindProxy: ReturnType<typeof authEdgeFixture>;
  let session: string;
  const verifier = randomBytes(40).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  const call = (edge: typeof fixture, method: EdgeRequest['method'], path: string, options: { query?: Record<string, string>; body?: Record<string, string>; cookies?: Record<string, string> } = {}) =>
    edge.edge.edge(pageRequest(method, path, { ...options, origin: ORIGIN }));
  const authorize = (query: Record<string, string>, edge = fixture) => call(edge, 'GET', '/oauth/authorize', { query: { client_id: WEB_APP_CLIENT_ID, scope: 'data:read_write', state: 'st', ...query }, cookies: { doable_session: session } });
  const location = (reply: EdgeReply) => new URL(reply.headers!['Location'], ORIGIN);
  const exchange = (body: Record<string, string>) => call(fixture, 'POST', '/oauth/access_token', { body: { client_id: WEB_APP_CLIENT_ID, ...body } });

  beforeAll(async () => {
    database = await createTestDatabase('auth_first_party');
    dataSource = createServiceDataSource({ schema: 'auth', url: database.url, poolSize: 2, applicationName: 'test', migrations: authMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const db = new Database(dataSource, 'auth', { nudge: () => undefined } as unknown as OutboxRelay);
    fixture = authEdgeFixture(db);
    behindProxy = authEdgeFixture(db, { webAppOrigin: PUBLIC_URL });
    const email = `web-${randomBytes(3).toString('hex')}@example.test`;
    await fixture.accounts.create({ email, fullName: 'Web', password: PASSWORD, timezone: 'UTC' });
    const login = await call(fixture, 'POST', '/auth/login', { body: { csrf: TEST_CSRF, email, password: PASSWORD } });
    session = /doable_session=([^;]+)/.exec(login.cookies!.find((cookie) => cookie.startsWith('doable_session='))!)![1];
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('is registered by the migration as a first-party public client: no owner, no secret, no stored redirect URL', async () => {
    const app = await fixture.apps.findByClientId(WEB_APP_CLIENT_ID);
    expect(app).toMatchObject({ ownerId: null, registration: 'first-party', redirectUris: [], status: 'active' });
    expect(await fixture.apps.authenticate(WEB_APP_CLIENT_ID, 'anything')).toBeUndefined();
  });

  it('signs a person in without a consent page: the code goes to <request origin>/app/ and is exchanged with the PKCE verifier', async () => {
    const reply = await authorize({ redirect_uri: `${ORIGIN}/app/`, code_challenge: challenge, code_challenge_method: 'S256' });
    expect(reply.status).toBe(303);
    const back = location(reply);
    expect(`${back.origin}${back.pathname}`).toBe(`${ORIGIN}/app/`);
    expect(back.searchParams.get('state')).toBe('st');
    const exchanged = await exchange({ code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: `${ORIGIN}/app/` });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer' });
  });

  it('defaults the redirect URL when the request names none, and the exchange holds the code to it', async () => {
    const back = location(await authorize({ code_challenge: challenge, code_challenge_method: 'S256' }));
    expect(`${back.origin}${back.pathname}`).toBe(`${ORIGIN}/app/`);
    expect((await exchange({ code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: 'https://evil.example/app/' })).body).toEqual({ error: 'redirect_uri_mismatch' });
  });

  it('refuses an authorization without PKCE (back to the app with invalid_request, no code), and an exchange without the verifier', async () => {
    const refused = location(await authorize({ redirect_uri: `${ORIGIN}/app/` }));
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    expect(refused.searchParams.get('code')).toBeNull();
    const code = location(await authorize({ code_challenge: challenge, code_challenge_method: 'S256' })).searchParams.get('code')!;
    expect((await exchange({ code, redirect_uri: `${ORIGIN}/app/` })).body).toEqual({ error: 'bad_authorization_code' });
  });

  it.each([
    ['another site', 'https://evil.example/app/'],
    ['another path on this origin', `${ORIGIN}/docs`],
    ['a longer path', `${ORIGIN}/app/x`],
    ['the origin without /app/', `${ORIGIN}/`],
  ])('refuses a redirect to %s as JSON, without sending the browser there', async (_label, redirectUri) => {
    const reply = await authorize({ redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'redirect_uri_mismatch' });
  });

  it('takes the redirect URL from PUBLIC_URL when it is set, and then refuses the request origin', async () => {
    const pkce = { code_challenge: challenge, code_challenge_method: 'S256' };
    expect((await authorize({ ...pkce, redirect_uri: `${ORIGIN}/app/` }, behindProxy)).body).toMatchObject({ error: 'redirect_uri_mismatch' });
    const back = location(await authorize(pkce, behindProxy));
    expect(`${back.origin}${back.pathname}`).toBe(`${PUBLIC_URL}/app/`);
  });

  it('links the signed-in pages to the app ("Open Doable")', async () => {
    const settings = await call(fixture, 'GET', '/auth/settings', { cookies: { doable_session: session } });
    expect(settings.status).toBe(200);
    expect(String(settings.body)).toContain('<a href="/app/" data-testid="open-app">Open Doable</a>');
    expect(String(settings.body)).toContain('<a href="/app/" data-testid="open-app-main">Open Doable</a>');
  });

  it('sends a person who is not signed in to the log-in page first', async () => {
    const reply = await call(fixture, 'GET', '/oauth/authorize', { query: { client_id: WEB_APP_CLIENT_ID, scope: 'data:read', state: 'st', code_challenge: challenge, code_challenge_method: 'S256' } });
    expect(reply.status).toBe(303);
    expect(location(reply).pathname).toBe('/auth/login');
  });
});
