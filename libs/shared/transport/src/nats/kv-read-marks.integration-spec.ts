import { createLogger } from '@doable/shared-logging';
import { deleteEventStream, TEST_NATS_URL, uniqueSubjectPrefix } from '@doable/shared-testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { openKvBucket } from './kv-bucket';
import { KvReadMarks, READ_MARKS_TTL_MS, readMarksBucket } from './kv-read-marks';

describe('read marks in a NATS KV bucket (real NATS)', () => {
  const bucket = readMarksBucket(uniqueSubjectPrefix('read-marks'), 'sync');
  let connection: NatsConnection;
  let marks: KvReadMarks;

  beforeAll(async () => {
    connection = await connect({ servers: TEST_NATS_URL });
    marks = new KvReadMarks(await openKvBucket(connection, bucket, { ttl: READ_MARKS_TTL_MS, history: 1, replicas: 1, allowDirect: false }, createLogger('test', 'silent')));
  });

  afterAll(async () => {
    await connection.close();
    await deleteEventStream(`KV_${bucket}`);
  });

  it('makes a bucket whose gets go to the stream leader, named after the prefix and the service', async () => {
    expect(bucket).toMatch(/^t-read-marks-[0-9a-f]+_sync-read-marks$/);
    const info = await (await jetstreamManager(connection)).streams.info(`KV_${bucket}`);
    expect(info.config.allow_direct).toBe(false);
  });

  it('has no mark for a user no commit changed, and the one raised for the others', async () => {
    expect(await marks.get('1')).toBeUndefined();
    await marks.raise(['2', '3', '3'], 1_000n);
    expect(await marks.get('2')).toBe(1_000n);
    expect(await marks.get('3')).toBe(1_000n);
  });

  it('never lowers a mark: of raises racing for one user, the highest position stays, in whatever order they land', async () => {
    await marks.raise(['4'], 5_000n);
    await marks.raise(['4'], 4_000n);
    expect(await marks.get('4')).toBe(5_000n);
    const positions = Array.from({ length: 40 }, (_, index) => 10_000n + BigInt((index * 7919) % 40));
    await Promise.all(positions.map((lsn) => marks.raise(['5', '6'], lsn)));
    expect(await marks.get('5')).toBe(10_039n);
    expect(await marks.get('6')).toBe(10_039n);
  });

  it('keeps positions beyond 2^53 exactly (a long-lived server\'s log)', async () => {
    const far = (0x1234n << 32n) + 0xfedcba98n;
    await marks.raise(['7'], far);
    expect(await marks.get('7')).toBe(far);
  });
});
