import { gatewayInstanceSubject, gatewayRegistryBucket, gatewayRegistryKey } from '@doable/contracts-common';
import type { DomainError } from '@doable/shared-errors';
import { createLogger } from '@doable/shared-logging';
import { TEST_NATS_URL, uniqueSubjectPrefix, waitFor } from '@doable/shared-testing';
import { Kvm, type KV } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { EveryGateway } from './every-gateway';

const LEASE_MS = 600;

/** A gateway's half, as GatewayRegistration holds it: a key in the registry and a subject of its own. */
async function registerGateway(connection: NatsConnection, registry: KV, prefix: string, instance: string, heard: string[], answers = true): Promise<void> {
  connection.subscribe(gatewayInstanceSubject(prefix, instance, 'test.v1'), {
    callback: (err, message) => {
      if (err) return;
      heard.push(`${instance}:${message.string()}`);
      if (answers) message.respond('{}');
    },
  });
  await connection.flush();
  await registry.put(gatewayRegistryKey(instance), '{}');
}

/** EveryGateway over a real NATS with JetStream: the registry fan-out under the revocation and users-moved barriers. */
describe('EveryGateway (real NATS)', () => {
  let connection: NatsConnection;
  const made: EveryGateway[] = [];
  const everyGateway = (prefix: string) => {
    const gateways = new EveryGateway({ url: TEST_NATS_URL, subjectPrefix: prefix, connectionName: 'test-every-gateway', leaseMs: LEASE_MS, logger: createLogger('test', 'silent') });
    made.push(gateways);
    return gateways;
  };
  const subjectOf = (prefix: string) => (instance: string) => gatewayInstanceSubject(prefix, instance, 'test.v1');
  const registryOf = (prefix: string) => new Kvm(connection).create(gatewayRegistryBucket(prefix), { ttl: LEASE_MS, history: 1 });

  beforeAll(async () => {
    connection = await connect({ servers: TEST_NATS_URL });
  });

  afterAll(async () => {
    await Promise.all(made.map((gateways) => gateways.close()));
    await connection.drain();
  });

  it('returns at once while no gateway has ever registered, then reaches one that registers later', async () => {
    const prefix = uniqueSubjectPrefix('every-gw-late');
    const gateways = everyGateway(prefix);
    await gateways.ask(subjectOf(prefix), 'nobody yet');
    const heard: string[] = [];
    const registry = await registryOf(prefix);
    await registerGateway(connection, registry, prefix, 'a', heard);
    await gateways.ask(subjectOf(prefix), 'hello');
    expect(heard).toEqual(['a:hello']);
    await registry.destroy();
  });

  it('asks every registered gateway, including one that registered after the watch began, and waits for each answer', async () => {
    const prefix = uniqueSubjectPrefix('every-gw-all');
    const registry = await registryOf(prefix);
    const heard: string[] = [];
    await registerGateway(connection, registry, prefix, 'a', heard);
    const gateways = everyGateway(prefix);
    await gateways.ask(subjectOf(prefix), 'first');
    await registerGateway(connection, registry, prefix, 'b', heard);
    // The watch delivers b's key shortly after its put: asked from then on.
    for (let attempt = 0; attempt < 50 && !heard.includes('b:second'); attempt++) await gateways.ask(subjectOf(prefix), 'second');
    expect(heard).toContain('a:first');
    expect(heard).toContain('b:second');
    await registry.destroy();
  });

  it('stops waiting for a silent gateway once its registration is gone', async () => {
    const prefix = uniqueSubjectPrefix('every-gw-gone');
    const registry = await registryOf(prefix);
    const heard: string[] = [];
    await registerGateway(connection, registry, prefix, 'silent', heard, false);
    const gateways = everyGateway(prefix);
    const asked = gateways.ask(subjectOf(prefix), 'anyone?');
    // Asked and not answering; then it leaves the registry (a lapsed lease), and the ask ends.
    await waitFor(() => heard.includes('silent:anyone?'), 'the silent gateway to be asked');
    await registry.delete(gatewayRegistryKey('silent'));
    await expect(asked).resolves.toBeUndefined();
    await registry.destroy();
  });

  it('fails with SERVICE_UNAVAILABLE when a registered gateway stays silent for two leases', async () => {
    const prefix = uniqueSubjectPrefix('every-gw-silent');
    const registry = await registryOf(prefix);
    const heard: string[] = [];
    await registerGateway(connection, registry, prefix, 'stuck', heard, false);
    // Keeps its lease, never answers: a broken gateway.
    const refresh = setInterval(() => void registry.put(gatewayRegistryKey('stuck'), '{}'), LEASE_MS / 4);
    try {
      await expect(everyGateway(prefix).ask(subjectOf(prefix), 'hello')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' } satisfies Partial<DomainError>);
    } finally {
      clearInterval(refresh);
      await registry.destroy();
    }
  });
});
