import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
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

  /** The stream's message count, and whether a key has a metadata message (the library's info reads it). */
  const streamState = async () => {
    const jsm = await jetstreamManager(opened.nc);
    return (await jsm.streams.info(`OBJ_${opened.store.bucket}`)).state.messages;
  };
  const library = () => new Objm(jetstream(opened.nc)).open(opened.store.bucket);

  it('writes what the client library reads: a multi-chunk object through its info(), get() and delete()', async () => {
    // 40 chunks and a partial one, arriving in pieces that straddle chunk boundaries: many chunks in flight at once.
    const bytes = randomBytes(5 * 1024 * 1024 + 4321);
    const pieces = Array.from({ length: Math.ceil(bytes.length / 50_000) }, (_, n) => bytes.subarray(n * 50_000, (n + 1) * 50_000));
    await opened.store.put('library/reads', Readable.from(pieces), { contentType: 'application/pdf' });
    const lib = await library();
    expect(await lib.info('library/reads')).toMatchObject({ name: 'library/reads', size: bytes.length, chunks: 41, deleted: false, metadata: { contentType: 'application/pdf' } });
    // The library's get checks the SHA-256 digest of the whole once the last chunk came: a mismatch errors the stream.
    const read = await lib.get('library/reads');
    const chunks: Uint8Array[] = [];
    for await (const chunk of read!.data) chunks.push(chunk);
    await expect(read!.error).resolves.toBeUndefined();
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    // An overwrite removes the replaced chunks; the library's delete finds the object it wrote.
    const before = await streamState();
    await opened.store.put('library/reads', Readable.from([Buffer.from('short')]));
    expect(await streamState()).toBe(before - 41 + 1);
    expect((await lib.getBlob('library/reads'))?.toString()).toBe('short');
    await lib.delete('library/reads');
    expect(await opened.store.stat('library/reads')).toBeNull();
  });

  it('a source that fails or is aborted while chunks are in flight leaves no metadata and none of its chunks', async () => {
    await opened.store.put('aborted/warm', Readable.from([Buffer.from('x')]));
    const before = await streamState();
    const failing = new Readable({ read() {} });
    const aborted = new Readable({ read() {} });
    const failed = opened.store.put('aborted/failing', failing);
    const cut = opened.store.put('aborted/cut', aborted);
    // 2 MiB each (16 chunks, more than are ever in flight), then the error or the abort.
    for (const source of [failing, aborted]) for (let n = 0; n < 32; n++) source.push(randomBytes(64 * 1024));
    // Until both puts have begun taking chunks (publishes in flight), without waiting for the source's end.
    while (failing.readableLength === 2 * 1024 * 1024 || aborted.readableLength === 2 * 1024 * 1024) await sleep(5);
    failing.destroy(new Error('client went away'));
    aborted.destroy();
    await expect(failed).rejects.toThrow('client went away');
    await expect(cut).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
    expect(await opened.store.stat('aborted/failing')).toBeNull();
    expect(await opened.store.stat('aborted/cut')).toBeNull();
    expect(await streamState()).toBe(before);
  });
});
