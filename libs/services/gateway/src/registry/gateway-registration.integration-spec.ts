import { createLogger } from '@doable/shared-logging';
import { type PrivateNats, startPrivateNats, uniqueSubjectPrefix, waitFor } from '@doable/shared-testing';
import { GatewayRegistration, lostMessagesOn } from './gateway-registration';

/**
 * A lease far longer than the test: whatever stops the gateway trusting its caches here is the
 * connection's own news, not the lease running out (which takes 3/4 of it, 45 s).
 */
const LEASE_MS = 60_000;

/**
 * GatewayRegistration over a NATS server of the suite's own, stopped and started again under it:
 * a barrier sent while the gateway was cut off is lost (core NATS keeps nothing for an absent
 * subscriber), so its caches must not be trusted from the moment the connection drops until it
 * has renewed its lease, and then they start empty.
 */
describe('GatewayRegistration (real NATS, stopped and restarted)', () => {
  let nats: PrivateNats;
  let registration: GatewayRegistration;
  let lapses = 0;

  beforeAll(async () => {
    nats = await startPrivateNats('gateway-registration');
    registration = new GatewayRegistration({ kind: 'nats', url: nats.url, subjectPrefix: uniqueSubjectPrefix('gw-registration'), name: 'test-gateway' }, LEASE_MS, undefined, createLogger('test', 'silent'));
    registration.onLapse(() => lapses++);
    await registration.onApplicationBootstrap();
  });

  afterAll(async () => {
    await registration.onApplicationShutdown();
    await nats.destroy();
  });

  it('stops trusting its caches when its NATS connection drops, and trusts them again, emptied, once its lease is renewed', async () => {
    expect(registration.cacheUsable()).toBe(true);
    // The first lease counts as one: nothing was held before it.
    const before = lapses;

    await nats.stop();
    // Without the connection's news this stays true for 45 s (3/4 of the lease).
    await waitFor(() => !registration.cacheUsable(), 'the gateway to stop trusting its caches after its connection dropped');
    expect(registration.pollAnswersUsable()).toBe(false);

    await nats.start();
    // Renewed on reconnecting (or by the next refresh, a quarter lease later), and everything cached is forgotten first.
    await waitFor(() => registration.cacheUsable(), 'the lease to be renewed once NATS is back', 40_000);
    expect(lapses).toBe(before + 1);
    // Poll answers wait a quarter lease more, for the sync replicas' watch of the registry to see it again.
    expect(registration.pollAnswersUsable()).toBe(false);
  });
});

describe('lostMessagesOn', () => {
  it('names the connection events after which a barrier addressed to the gateway may have been lost', () => {
    expect(lostMessagesOn({ type: 'disconnect', server: '127.0.0.1:4222' })).toBe(true);
    expect(lostMessagesOn({ type: 'staleConnection' })).toBe(true);
    expect(lostMessagesOn({ type: 'reconnect', server: '127.0.0.1:4222' })).toBe(false);
    expect(lostMessagesOn({ type: 'ping', pendingPings: 1 })).toBe(false);
  });
});
