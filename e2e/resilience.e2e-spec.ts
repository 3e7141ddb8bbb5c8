import { http, waitFor } from '@doable/shared-testing';
import { useSystem } from './support/use-system';

/** What a platform team sees when services come and go (cluster mode: one app per service). */
describe('resilience (cluster)', () => {
  // Its own: it kills and restarts services, which every suite on a shared system would meet.
  const { system } = useSystem('cluster', { accounts: 0, own: true });

  const fullSync = (token: string) => http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['projects'] } });

  it('answers 503 at once while a service is down, and recovers when it returns', async () => {
    const account = await system.createAccount();
    expect((await fullSync(account.token)).status).toBe(200);

    await system.cluster!.stop('sync');
    const down = await fullSync(account.token);
    expect(down.status).toBe(503);
    // "unreachable" (NATS answered that nobody serves the subject), not "timeout": the
    // gateway did not wait out the request timeout.
    expect(down.body).toMatchObject({ error_tag: 'SERVICE_UNAVAILABLE', http_code: 503, error_extra: { reason: 'unreachable' } });

    await system.cluster!.start('sync');
    const back = await waitFor(async () => {
      const response = await fullSync(account.token);
      return response.status === 200 ? response : undefined;
    }, 'sync to answer again');
    expect(back.body.projects[0]).toMatchObject({ name: 'Inbox' });
  });

  it('answers 503 (not 401) when auth-oauth is down for a token it has not seen', async () => {
    const account = await system.createAccount();
    await system.cluster!.stop('auth-oauth');
    try {
      const response = await fullSync(account.token);
      expect(response.status).toBe(503);
    } finally {
      await system.cluster!.start('auth-oauth');
    }
  });

  it('delivers an event published while its consumer was down once the consumer returns', async () => {
    await system.cluster!.stop('sync');
    const account = await system.createAccount({ waitForProfile: false });
    // The event is out (relayed to JetStream) while sync, its consumer, is stopped.
    await waitFor(async () => (await system.sql<{ waiting: number }>('SELECT count(*)::int AS waiting FROM auth.outbox WHERE published_at IS NULL'))[0].waiting === 0 || undefined, "auth's outbox relayed");

    await system.cluster!.start('sync');
    await waitFor(() => system.profileExists(account.userId), 'the profile created from the waiting event');
    const { status, body } = await fullSync(account.token);
    expect(status).toBe(200);
    expect(body.projects).toEqual([expect.objectContaining({ name: 'Inbox', inbox_project: true })]);
  });
});
