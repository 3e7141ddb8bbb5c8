import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@doable/contracts-common';
import { createLogger } from '@doable/shared-logging';
import { type PrivateNats, type PrivateNatsCluster, startPrivateNats, startPrivateNatsCluster, uniqueSubjectPrefix, waitFor } from '@doable/shared-testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { oneByOne } from '../src/events/event-bus';
import { JetStreamEventBus } from '../src/events/jetstream-event-bus';
import { openKvBucket } from '../src/nats/kv-bucket';
import { probeNats } from '../src/nats/nats-probe';
import { natsServers } from '../src/nats/nats-servers';
import { streamNameFor } from '../src/transport-options';

const logger = createLogger('nats-cluster-test', 'silent');

function envelope(n: number): EventEnvelope {
  return { id: randomUUID(), subject: 'test.evt.cluster.v1', occurredAt: new Date().toISOString(), payload: { n } };
}

/**
 * NATS_URL as a cluster's servers and NATS_REPLICAS (issue #48): the event stream and the
 * key-value buckets are made with their copies, one made with fewer is raised (never lowered),
 * and a single server refuses copies it cannot place in words that name the setting. Then the
 * bus keeps its promise through the loss of the stream's leader: every event published (retried
 * with its id, as the outbox relay does) is stored once and handled.
 */
describe('the event bus and key-value buckets over a 3-node NATS cluster', () => {
  let cluster: PrivateNatsCluster;
  let admin: NatsConnection;
  const buses: JetStreamEventBus[] = [];

  const bus = async (subjectPrefix: string, replicas: number, url = cluster.url) => {
    const connected = await JetStreamEventBus.connect({ url, name: 'cluster-test', stream: streamNameFor(subjectPrefix), subjectPrefix, logger, replicas });
    buses.push(connected);
    return connected;
  };
  const replicasOf = async (stream: string) => (await (await jetstreamManager(admin)).streams.info(stream)).config.num_replicas;
  /** The servers holding a consumer now: its leader and its replicas, each once. */
  const consumerPeers = async (stream: string, durable: string) => {
    const { cluster: placement } = await (await jetstreamManager(admin)).consumers.info(stream, durable);
    return new Set([placement?.leader, ...(placement?.replicas ?? []).map((peer) => peer.name)].filter(Boolean)).size;
  };

  beforeAll(async () => {
    cluster = await startPrivateNatsCluster('transport-cluster');
    admin = await connect({ servers: natsServers(cluster.url) });
  }, 120_000);

  afterAll(async () => {
    for (const connected of buses) await connected.close().catch(() => undefined);
    await admin?.close();
    await cluster?.destroy();
  }, 60_000);

  it('makes the event stream with NATS_REPLICAS copies, and its durable consumers with as many', async () => {
    const prefix = uniqueSubjectPrefix('r3');
    const connected = await bus(prefix, 3);
    await connected.consume({ durable: 'test.r3', subject: 'test.evt.>', handle: oneByOne(() => Promise.resolve()) });
    expect(await replicasOf(streamNameFor(prefix))).toBe(3);
    await waitFor(async () => (await consumerPeers(streamNameFor(prefix), 'test_r3')) === 3, 'the durable consumer on 3 servers', 30_000);
  });

  it('raises a stream made with one copy to NATS_REPLICAS, with its consumer, and never lowers it', async () => {
    const prefix = uniqueSubjectPrefix('raise');
    const stream = streamNameFor(prefix);
    const before = await bus(prefix, 1);
    await before.consume({ durable: 'test.raise', subject: 'test.evt.>', handle: oneByOne(() => Promise.resolve()) });
    await before.publish(envelope(1));
    expect(await replicasOf(stream)).toBe(1);

    // The next release (or replica) starts with NATS_REPLICAS=3.
    await bus(prefix, 3);
    expect(await replicasOf(stream)).toBe(3);
    await waitFor(() => cluster.streamCurrent(stream, 3), 'the new peers to catch up with the stream', 60_000);
    // While the consumer moves, its old placement may still be listed beside the new one.
    await waitFor(async () => (await consumerPeers(stream, 'test_raise')) === 3, 'the durable consumer to follow the stream to 3 copies', 60_000);
    expect((await (await jetstreamManager(admin)).streams.info(stream)).state.messages).toBe(1);

    // A replica still configured with 1 leaves it as it is.
    await bus(prefix, 1);
    expect(await replicasOf(stream)).toBe(3);
  });

  it('raises a key-value bucket made with one copy', async () => {
    const bucket = `${uniqueSubjectPrefix('kv').replace(/[^A-Za-z0-9_-]/g, '_')}registry`;
    const first = await openKvBucket(admin, bucket, { ttl: 60_000, history: 1, replicas: 1 }, logger);
    await first.put('gw.a', '1');
    expect(await replicasOf(`KV_${bucket}`)).toBe(1);
    const second = await openKvBucket(admin, bucket, { ttl: 60_000, history: 1, replicas: 3 }, logger);
    expect(await replicasOf(`KV_${bucket}`)).toBe(3);
    expect((await second.get('gw.a'))?.string()).toBe('1');
  });

  it('finds NATS up at start while a listed server is down (the start probe tries each)', async () => {
    // The dead one first or not, at random: ten probes in a row all reach the live one.
    const url = `nats://127.0.0.1:1,${cluster.nodes[0].url}`;
    for (let probe = 0; probe < 10; probe++) await probeNats(url, 2_000);
  });

  it('stores every event once and hands each to its consumer through the loss of the stream leader', async () => {
    const prefix = uniqueSubjectPrefix('leader-loss');
    const stream = streamNameFor(prefix);
    const publisher = await bus(prefix, 3);
    const consumerBus = await bus(prefix, 3);
    const handled = new Map<string, number>();
    await consumerBus.consume({
      durable: 'test.leader-loss',
      subject: 'test.evt.>',
      handle: oneByOne((event) => {
        handled.set(event.id, (handled.get(event.id) ?? 0) + 1);
        return Promise.resolve();
      }),
    });
    const events = Array.from({ length: 200 }, (_, n) => envelope(n));
    const failures: string[] = [];
    // As the outbox relay: an event whose publish failed is published again, same id, until stored.
    const publishAll = async (batch: readonly EventEnvelope[]) => {
      for (const event of batch) {
        for (let attempt = 0; ; attempt++) {
          try {
            await publisher.publish(event);
            break;
          } catch (err) {
            failures.push((err as Error).message);
            if (attempt > 200) throw err;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      }
    };
    await publishAll(events.slice(0, 100));
    const leader = await cluster.leaderOf(stream);
    const writing = publishAll(events.slice(100));
    await leader.stop('SIGKILL');
    await writing;
    const newLeader = await cluster.leaderOf(stream);
    await leader.start();
    await waitFor(() => cluster.streamCurrent(stream, 3), 'the restarted node to catch up', 60_000);
    await waitFor(() => events.every((event) => handled.has(event.id)), 'every event to reach its consumer', 60_000);

    const stored = (await (await jetstreamManager(admin)).streams.info(stream)).state.messages;
    process.stdout.write(
      `stream leader ${leader.name} killed -9 mid-publish: new leader ${newLeader.name}; 200 events, ${stored} stored, ${handled.size} handled (${[...handled.values()].filter((count) => count > 1).length} delivered again); ${failures.length} publish attempts failed and were retried\n`,
    );
    expect(newLeader.name).not.toBe(leader.name);
    expect(stored).toBe(200);
    expect(handled.size).toBe(200);
  }, 180_000);
});

describe('NATS_REPLICAS above 1 on a single server', () => {
  let nats: PrivateNats;

  beforeAll(async () => {
    nats = await startPrivateNats('single-r3');
  });

  afterAll(async () => {
    await nats?.destroy();
  });

  it('refuses to start, naming the setting and what it needs', async () => {
    const prefix = uniqueSubjectPrefix('single-r3');
    await expect(JetStreamEventBus.connect({ url: nats.url, name: 'single-test', stream: streamNameFor(prefix), subjectPrefix: prefix, logger, replicas: 3 })).rejects.toThrow(
      /NATS_REPLICAS=3: stream .* could not be created \(replicas > 1 not supported in non-clustered mode\); 3 copies need a NATS cluster of at least 3 servers/,
    );
  });
});
