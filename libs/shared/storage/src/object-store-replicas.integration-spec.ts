import { Readable } from 'node:stream';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { type PrivateNatsCluster, startPrivateNatsCluster, waitFor } from '@doable/shared-testing';
import { objectStoreStreamName, ObjectStoreBlobStore } from './object-store-blob-store';

/**
 * The files' bucket in a NATS cluster (issue #48): made with STORAGE_REPLICAS copies, and one an
 * earlier release or setting made with fewer is raised when a replica opens it, as the event
 * stream is (never lowered), keeping what it holds.
 */
describe('ObjectStoreBlobStore on a 3-node NATS cluster', () => {
  let cluster: PrivateNatsCluster;
  let nc: NatsConnection;

  beforeAll(async () => {
    cluster = await startPrivateNatsCluster('object-store-replicas');
    nc = await connect({ servers: cluster.url.split(',') });
  }, 120_000);

  afterAll(async () => {
    await nc?.close();
    await cluster?.destroy();
  }, 60_000);

  it('raises a bucket made with one copy to the copies asked for, with its files', async () => {
    const bucket = 'files-raised';
    const replicasOf = async () => (await (await jetstreamManager(nc)).streams.info(objectStoreStreamName(bucket))).config.num_replicas;
    await new ObjectStoreBlobStore(nc, { bucket, replicas: 1 }).put('a.txt', Readable.from([Buffer.from('kept')]));
    expect(await replicasOf()).toBe(1);

    const raised = new ObjectStoreBlobStore(nc, { bucket, replicas: 3 });
    expect(await raised.stat('a.txt')).toEqual(expect.objectContaining({ size: 4 }));
    expect(await replicasOf()).toBe(3);
    await waitFor(() => cluster.streamCurrent(objectStoreStreamName(bucket), 3), 'the copies to catch up', 60_000);

    // A replica still configured with one copy opens it as it is.
    await new ObjectStoreBlobStore(nc, { bucket, replicas: 1 }).stat('a.txt');
    expect(await replicasOf()).toBe(3);
  });
});
