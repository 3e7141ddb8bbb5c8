import { http, waitFor } from '@doable/shared-testing';
import type { RunningService } from '@doable/shared-runtime';
import { startExtraGateway } from './support/extra-gateway';
import { clearOfRateWindowEdges, TEST_RATE_WINDOW_SECONDS as WINDOW } from './support/rate-windows';
import type { SystemUnderTest } from './support/system-view';
import { startOwnSystem } from './support/use-system';

const BUDGET = 6;
const LIMITS = { RATE_LIMIT_REST_REQUESTS: String(BUDGET), RATE_LIMIT_SYNC_REQUESTS: '1000', RATE_LIMIT_WINDOW_SECONDS: String(WINDOW) };

/**
 * Two gateway replicas count one budget per user (NATS KV): a user who spent it on one replica
 * is refused by the other too, instead of getting the budget again there. The other replica
 * may admit what it sees before its first write reads the shared total back (the stated
 * overshoot: one flush interval's worth), never a second budget.
 */
describe('rate limits shared by two gateway replicas (cluster)', () => {
  let system: SystemUnderTest;
  let second: RunningService;

  beforeAll(async () => {
    system = await startOwnSystem('cluster', { env: LIMITS });
    second = await startExtraGateway(system, LIMITS);
    await clearOfRateWindowEdges([WINDOW]);
  });

  afterAll(async () => {
    await second?.close();
    await system?.close();
  });

  it('refuses on the second replica a user who spent the budget on the first', async () => {
    const account = await system.createAccount();
    const projects = (url: string) => http(url, 'GET', '/api/v1/projects', { token: account.token });
    let admittedByFirst = 0;
    while ((await projects(system.url)).status === 200) admittedByFirst++;
    expect(admittedByFirst).toBe(BUDGET);

    let admittedBySecond = 0;
    await waitFor(async () => {
      const answer = await projects(second.url);
      if (answer.status === 200) admittedBySecond++;
      return answer.status === 429;
    }, 'the second replica to refuse the user');
    expect(admittedBySecond).toBeLessThan(BUDGET);

    const refused = await projects(second.url);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error_tag: 'LIMITS_REACHED', error_extra: { limit: BUDGET, window_seconds: WINDOW } });
  });

  it('counts requests spread over both replicas against one budget', async () => {
    const account = await system.createAccount();
    const urls = [system.url, second.url];
    let admitted = 0;
    await waitFor(async () => {
      const statuses = await Promise.all(urls.map(async (url) => (await http(url, 'GET', '/api/v1/projects', { token: account.token })).status));
      admitted += statuses.filter((status) => status === 200).length;
      return statuses.every((status) => status === 429);
    }, 'both replicas to refuse the user');
    // Alone, each replica would admit the whole budget: 2 x 6.
    expect(admitted).toBeLessThan(2 * BUDGET);
  });
});
