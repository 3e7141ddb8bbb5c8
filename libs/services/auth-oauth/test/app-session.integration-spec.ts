import { randomBytes } from 'node:crypto';
import { hashToken } from '@doable/contracts-auth';
import type { EdgeReply } from '@doable/contracts-common';
import { createServiceDataSource, migrateUp, type OutboxRelay } from '@doable/shared-database';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import type { AccountService } from '../src/accounts/account.service';
import { authMigrations } from '../src/migrations';
import type { AuthEdgeRpcController } from '../src/rpc/auth-edge.rpc-controller';
import { authEdgeFixture, pageRequest, TEST_CSRF } from '../testing/auth-edge.fixture';
import type { SessionService } from '../src/sessions/session.service';

const ORIGIN = 'http://localhost:8080';
const PASSWORD = 'a sturdy passphrase';

/**
 * The web app's session (issue #47) against a real PostgreSQL, through the edge handler the
 * gateway reaches: a token for the session's person, bound to the session; refused without our
 * Origin or JSON (CSRF); sign-out, and every other end of a session, revokes its tokens; and the
 * zone a sign-up brings.
 */
describe('web app session (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let accounts: AccountService;
  let sessions: SessionService;
  let edge: AuthEdgeRpcController;

  beforeAll(async () => {
    database = await createTestDatabase('app_session');
    dataSource = createServiceDataSource({ schema: 'auth', url: database.url, poolSize: 2, applicationName: 'test', migrations: authMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const db = new Database(dataSource, 'auth', { nudge: () => undefined } as unknown as OutboxRelay);
    ({ edge, accounts, sessions } = authEdgeFixture(db));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => dataSource.query<T[]>(text, params);

  async function signedIn(): Promise<{ userId: string; session: string }> {
    const email = `app-${randomBytes(4).toString('hex')}@example.test`;
    const { userId } = await accounts.create({ email, fullName: 'App Person', password: PASSWORD, timezone: 'UTC' });
    return { userId, session: await sessions.start(userId) };
  }

  const appCall = (path: string, session: string | undefined, headers: Record<string, string> = { origin: ORIGIN, 'content-type': 'application/json' }) =>
    edge.edge(pageRequest('POST', path, { body: {}, cookies: session ? { doable_session: session } : {}, headers }));

  const body = (reply: EdgeReply) => reply.body as Record<string, unknown>;

  it('gives the session’s person a short-lived token of doable-web, bound to the session; none without a session', async () => {
    const { userId, session } = await signedIn();
    const reply = await appCall('/auth/app/token', session);
    expect(reply.status).toBe(200);
    expect(body(reply)).toMatchObject({ token_type: 'Bearer', expires_in: 12 * 3600, user_id: userId });
    const [row] = await sql<{ user_id: string; session_hash: string; client_id: string; live_seconds: number }>(
      `SELECT t.user_id::text, t.session_hash, a.client_id, extract(epoch FROM t.expires_at - now())::int AS live_seconds
         FROM auth.access_tokens t JOIN auth.oauth_apps a ON a.id = t.app_id WHERE t.token_hash = $1`,
      [hashToken(body(reply)['access_token'] as string)],
    );
    expect(row).toMatchObject({ user_id: userId, session_hash: hashToken(session), client_id: 'doable-web' });
    expect(row?.live_seconds).toBeGreaterThan(11 * 3600);
    expect((await appCall('/auth/app/token', undefined)).status).toBe(401);
    expect((await appCall('/auth/app/token', 'no-such-session')).status).toBe(401);
  });

  it('refuses a request without this site’s Origin or without JSON (CSRF)', async () => {
    const { session } = await signedIn();
    const refused: Array<Record<string, string>> = [{ 'content-type': 'application/json' }, { origin: 'https://evil.example', 'content-type': 'application/json' }, { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }];
    for (const headers of refused) {
      const reply = await appCall('/auth/app/token', session, headers);
      expect({ status: reply.status, error: body(reply)['error'] }).toEqual({ status: 403, error: 'cross_origin' });
      expect((await appCall('/auth/app/sign-out', session, headers)).status).toBe(403);
    }
    // Nothing happened: the session still gives tokens.
    expect((await appCall('/auth/app/token', session)).status).toBe(200);
  });

  it('signs out: the session ends, its tokens are revoked, the cookie is cleared; other sessions keep theirs', async () => {
    const { userId, session } = await signedIn();
    const other = await sessions.start(userId);
    const tokens = [await appCall('/auth/app/token', session), await appCall('/auth/app/token', session)].map((reply) => hashToken(body(reply)['access_token'] as string));
    const kept = hashToken(body(await appCall('/auth/app/token', other))['access_token'] as string);

    const reply = await appCall('/auth/app/sign-out', session);
    expect(reply.status).toBe(200);
    expect(reply.cookies?.some((cookie) => cookie.startsWith('doable_session=;') && cookie.includes('Max-Age=0'))).toBe(true);
    const revoked = await sql<{ token_hash: string; revoked: boolean }>(`SELECT token_hash, revoked_at IS NOT NULL AS revoked FROM auth.access_tokens WHERE token_hash = ANY($1)`, [[...tokens, kept]]);
    expect(Object.fromEntries(revoked.map((row) => [row.token_hash, row.revoked]))).toEqual({ [tokens[0]]: true, [tokens[1]]: true, [kept]: false });
    expect((await appCall('/auth/app/token', session)).status).toBe(401);
    // The events that make every gateway drop them went with the revocation.
    const events = await sql<{ count: string }>(`SELECT count(*) AS count FROM auth.outbox WHERE subject LIKE '%token-revoked%' AND payload::text LIKE ANY($1)`, [tokens.map((hash) => `%${hash}%`)]);
    expect(Number(events[0]?.count)).toBe(2);
  });

  it('revokes a session’s tokens however the session ends (the pages’ log-out, every session of the account)', async () => {
    const { userId, session } = await signedIn();
    const token = hashToken(body(await appCall('/auth/app/token', session))['access_token'] as string);
    const loggedOut = await edge.edge(pageRequest('POST', '/auth/logout', { body: { csrf: TEST_CSRF }, cookies: { doable_session: session } }));
    expect(loggedOut.status).toBe(303);
    const second = await sessions.start(userId);
    const token2 = hashToken(body(await appCall('/auth/app/token', second))['access_token'] as string);
    await sessions.endAllFor(userId);
    const rows = await sql<{ revoked: boolean }>(`SELECT revoked_at IS NOT NULL AS revoked FROM auth.access_tokens WHERE token_hash = ANY($1)`, [[token, token2]]);
    expect(rows.map((row) => row.revoked)).toEqual([true, true]);
  });

  it('makes a sign-up’s account in the zone the app sent; a zone it does not know leaves UTC', async () => {
    const signUp = async (timezone: string) => {
      const email = `zone-${randomBytes(4).toString('hex')}@example.test`;
      const reply = await edge.edge(pageRequest('POST', '/auth/signup', { body: { csrf: TEST_CSRF, email, full_name: 'Zoned', password: PASSWORD, timezone, next: '/app/' } }));
      expect(reply.status).toBe(303);
      expect(reply.headers?.['Location']).toBe('/app/');
      const [account] = await sql<{ timezone: string }>(`SELECT timezone FROM auth.accounts WHERE email = $1`, [email]);
      return account?.timezone;
    };
    expect(await signUp('Pacific/Auckland')).toBe('Pacific/Auckland');
    expect(await signUp('Mars/Olympus')).toBe('UTC');
  });
});
