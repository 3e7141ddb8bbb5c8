import { http, waitFor } from '@doable/shared-testing';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

describe.each(MODES)('personal token reset (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0 });

  const fullSync = (token: string) => http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['user'] } });

  it('stops the old token at once although the gateway had it cached', async () => {
    const account = await system.createAccount();
    expect((await fullSync(account.token)).status).toBe(200); // now cached by the gateway (30 s)

    const fresh = await system.resetToken(account.email);
    expect(fresh).toMatch(/^[0-9a-f]{40}$/);
    // Bounded well below the cache's 30 s: only the revocation event can explain a 401 here.
    await waitFor(async () => (await fullSync(account.token)).status === 401, 'the old token to be refused', 10_000);
    const withNew = await fullSync(fresh);
    expect(withNew.status).toBe(200);
    expect(withNew.body.user.email).toBe(account.email);
  });
});
