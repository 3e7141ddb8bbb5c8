import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { TEST_NATS_URL } from '@doable/shared-testing';
import { describeBlobStore } from './blob-store.contract';
import { ObjectStoreBlobStore } from './object-store-blob-store';

// Memory is measured after a full collection, so garbage waiting to be collected does not count
// as memory the store holds on to.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Memory held right now (after a collection) beyond the baseline. */
function heldSince(baseline: NodeJS.MemoryUsage): { arrayBuffers: number; rss: number } {
  collectGarbage();
  const usage = process.memoryUsage();
  return { arrayBuffers: usage.arrayBuffers - baseline.arrayBuffers, rss: usage.rss - baseline.rss };
}

const uniqueBucket = (label: string) => `t-${label}-${randomBytes(4).toString('hex')}`;

async function openStore(label: string): Promise<{ store: ObjectStoreBlobStore; nc: NatsConnection; close(): Promise<void> }> {
  const nc = await connect({ servers: TEST_NATS_URL });
  const store = new ObjectStoreBlobStore(nc, { bucket: uniqueBucket(label) });
  return {
    store,
    nc,
    async close() {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.delete(`OBJ_${store.bucket}`).catch(() => false);
      await nc.close();
    },
  };
}

describeBlobStore('NATS Object Store', () => openStore('contract'));

describe('ObjectStoreBlobStore', () => {
  let opened: Awaited<ReturnType<typeof openStore>>;
  beforeAll(async () => {
    opened = await openStore('streams');
  });
  afterAll(() => opened.close());

  it('creates its bucket on first use', async () => {
    const jsm = await jetstreamManager(opened.nc);
    await opened.store.put('first/use', Readable.from([Buffer.from('x')]));
    expect((await jsm.streams.info(`OBJ_${opened.store.bucket}`)).config.name).toBe(`OBJ_${opened.store.bucket}`);
  });

  it('removes an object entirely on delete (no marker left per key)', async () => {
    const jsm = await jetstreamManager(opened.nc);
    await opened.store.put('marker/one', Readable.from([randomBytes(300 * 1024)]));
    const before = (await jsm.streams.info(`OBJ_${opened.store.bucket}`)).state.messages;
    await opened.store.delete('marker/one');
    const after = (await jsm.streams.info(`OBJ_${opened.store.bucket}`)).state.messages;
    // 3 chunk messages and the metadata message are gone.
    expect(before - after).toBe(4);
  });

  it('streams a 50 MB object both ways without holding it in memory, however slowly it is read', async () => {
    const total = 50 * 1024 * 1024;
    const block = randomBytes(64 * 1024);
    // Warm up first (bucket, JetStream client, hashing), so the baseline holds what is shared.
    await opened.store.put('big/warm-up', Readable.from([block]));
    collectGarbage();
    const baseline = process.memoryUsage();
    let peakPut = 0;
    let produced = 0;
    // The source is produced on demand, never as one buffer: memory measures the store, not the test.
    const source = new Readable({
      read() {
        if (produced >= total) return void this.push(null);
        produced += block.length;
        if (produced % (4 * 1024 * 1024) === 0) peakPut = Math.max(peakPut, heldSince(baseline).arrayBuffers);
        this.push(block);
      },
    });
    await opened.store.put('big/fifty', source);

    const read = await opened.store.get('big/fifty');
    expect(read?.size).toBe(total);
    let received = 0;
    let chunks = 0;
    let peakGet = 0;
    let peakRss = 0;
    await pipeline(
      read!.stream,
      new Writable({
        highWaterMark: 64 * 1024,
        write(chunk: Buffer, _encoding, done) {
          if (!chunk.equals(Buffer.concat([block, block]).subarray(received % block.length, (received % block.length) + chunk.length))) return done(new Error(`unexpected bytes at ${received}`));
          received += chunk.length;
          chunks++;
          // The reader is slow for its first 40 chunks (2 s): a store that does not wait for its
          // reader would meanwhile pull the whole object into memory.
          // Every 32 chunks: each sample is a full collection, which in a long in-band test
          // process (a whole `npm test`) takes seconds, not the milliseconds it takes alone.
          if (chunks % 32 === 0 || chunks === 40) {
            const held = heldSince(baseline);
            peakGet = Math.max(peakGet, held.arrayBuffers);
            peakRss = Math.max(peakRss, held.rss);
          }
          if (chunks <= 40) setTimeout(done, 50);
          else done();
        },
      }),
    );
    expect(received).toBe(total);
    // What is held is a page of chunks plus the NATS client's socket buffers of the moment
    // (peaks of ~14 MB measured, the same for a 120 MB object): bounded, not the 50 MB object.
    expect(peakPut).toBeLessThan(20 * 1024 * 1024);
    expect(peakGet).toBeLessThan(20 * 1024 * 1024);
    expect(peakRss).toBeLessThan(32 * 1024 * 1024);
    await opened.store.delete('big/fifty');
    // 50 MB through JetStream twice, read slowly on purpose, with full collections to measure:
    // seconds alone, minutes late in a whole in-band `npm test` (a full collection of its heap).
  }, 300_000);

  it('a download abandoned halfway leaves no server-side reader behind', async () => {
    await opened.store.put('half/read', Readable.from([randomBytes(2 * 1024 * 1024)]));
    const read = await opened.store.get('half/read');
    for await (const _chunk of read!.stream) break;
    const jsm = await jetstreamManager(opened.nc);
    await sleep(100);
    const consumers = [];
    for await (const consumer of jsm.consumers.list(`OBJ_${opened.store.bucket}`)) consumers.push(consumer.name);
    expect(consumers).toEqual([]);
  });
});
