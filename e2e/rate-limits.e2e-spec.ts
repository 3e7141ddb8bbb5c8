import { http } from '@doable/shared-testing';
import { type Account, MODES, startSystem, type SystemUnderTest } from './support/system-under-test';

/** Per-user request budgets at the gateway: a coded 429 with Retry-After, per user and per API family. */
describe.each(MODES)('rate limits (%s)', (mode) => {
  let system: SystemUnderTest;
  let account: Account;
  let other: Account;

  beforeAll(async () => {
    system = await startSystem(mode, { env: { RATE_LIMIT_REST_REQUESTS: '3', RATE_LIMIT_SYNC_REQUESTS: '2', RATE_LIMIT_WINDOW_SECONDS: '600' } });
    [account, other] = await Promise.all([system.createAccount(), system.createAccount()]);
  });

  afterAll(async () => {
    await system?.close();
  });

  it('answers 429 with Retry-After once a user has spent the REST budget, and only for that user', async () => {
    for (let i = 0; i < 3; i++) expect((await http(system.url, 'GET', '/rest/v2/projects', { token: account.token })).status).toBe(200);
    const refused = await http(system.url, 'GET', '/api/v1/projects', { token: account.token });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error_tag: 'LIMITS_REACHED', error_code: 35, http_code: 429, error_extra: { limit: 3, window_seconds: 600 } });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect((await http(system.url, 'GET', '/rest/v2/projects', { token: other.token })).status).toBe(200);
  });

  it('counts the Sync API on its own budget', async () => {
    const sync = () => http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: '*', resource_types: ['projects'] } });
    expect((await sync()).status).toBe(200);
    expect((await sync()).status).toBe(200);
    expect((await sync()).status).toBe(429);
  });
});
