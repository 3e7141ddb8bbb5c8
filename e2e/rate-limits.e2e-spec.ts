import { http } from '@doable/shared-testing';
import { clearOfRateWindowEdges, TEST_RATE_WINDOW_SECONDS as WINDOW } from './support/rate-windows';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/** Per-user request budgets at the gateway: a coded 429 with Retry-After, per user and per API family. */
describe.each(MODES)('rate limits (%s)', (mode) => {
  const { system, accounts: [account, other] } = useSystem(mode, {
    accounts: 2,
    env: { RATE_LIMIT_REST_REQUESTS: '3', RATE_LIMIT_SYNC_REQUESTS: '2', RATE_LIMIT_WINDOW_SECONDS: String(WINDOW), RATE_LIMIT_AUTH_REQUESTS: '4', RATE_LIMIT_AUTH_WINDOW_SECONDS: String(WINDOW), RATE_LIMIT_SYNC_V7_REQUESTS: '1', RATE_LIMIT_SYNC_V7_WINDOW_SECONDS: String(WINDOW) },
  });

  beforeAll(async () => {
    await clearOfRateWindowEdges([WINDOW]);
  });

  it('answers 429 with Retry-After once a user has spent the REST budget, and only for that user', async () => {
    for (let i = 0; i < 3; i++) expect((await http(system.url, 'GET', '/rest/v2/projects', { token: account.token })).status).toBe(200);
    const refused = await http(system.url, 'GET', '/api/v1/projects', { token: account.token });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error_tag: 'LIMITS_REACHED', error_code: 35, http_code: 429, error_extra: { limit: 3, window_seconds: WINDOW } });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW);
    expect((await http(system.url, 'GET', '/rest/v2/projects', { token: other.token })).status).toBe(200);
  });

  it('counts the Sync API on its own budget', async () => {
    const sync = () => http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: '*', resource_types: ['projects'] } });
    expect((await sync()).status).toBe(200);
    expect((await sync()).status).toBe(200);
    expect((await sync()).status).toBe(429);
  });

  it("gives Sync v7 a budget of its own on top of the Sync API's (the spec's 50 a minute by default)", async () => {
    const v7 = () => http(system.url, 'POST', '/API/v7/sync', { form: { token: other.token, sync_token: '*', resource_types: '["projects"]' } });
    const v1 = () => http(system.url, 'POST', '/api/v1/sync', { token: other.token, json: { sync_token: '*', resource_types: ['projects'] } });
    expect((await v7()).status).toBe(200);
    const refused = await v7();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error_tag: 'LIMITS_REACHED', error_code: 35, http_code: 429, error_extra: { limit: 1, window_seconds: WINDOW } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The refused v7 request was not counted on the shared Sync API budget (2): api/v1 still has one.
    expect((await v1()).status).toBe(200);
    const shared = await v1();
    expect(shared.status).toBe(429);
    expect(shared.body).toMatchObject({ error_extra: { limit: 2 } });
  });

  it('limits the unauthenticated auth routes per client address: log-in, sign-up, token exchange and revocation share one budget', async () => {
    const attempts = [
      () => http(system.url, 'POST', '/auth/login', { form: { email: account.email, password: 'guess number one' } }),
      () => http(system.url, 'POST', '/auth/signup', { form: { email: 'x@example.test', full_name: 'X', password: 'guess number two' } }),
      () => http(system.url, 'POST', '/oauth/access_token', { form: { client_id: 'nope', client_secret: 'nope', code: 'nope' } }),
      () => http(system.url, 'POST', '/sync/v9/access_tokens/revoke', { json: { client_id: 'nope', client_secret: 'nope', access_token: 'nope' } }),
    ];
    for (const attempt of attempts) expect((await attempt()).status).not.toBe(429);
    for (const attempt of [...attempts, () => http(system.url, 'POST', '/oauth/authorize', { form: { client_id: 'nope' } })]) {
      const refused = await attempt();
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error_tag: 'LIMITS_REACHED', http_code: 429, error_extra: { limit: 4, window_seconds: WINDOW } });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(WINDOW);
    }
    // Reading a form tries nothing, and bearer calls count on the user's own budgets.
    expect((await http(system.url, 'GET', '/auth/login')).status).toBe(200);
    expect((await http(system.url, 'GET', '/rest/v2/labels', { token: other.token })).status).toBe(200);
  });
});
