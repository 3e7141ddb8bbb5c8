import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { type BlobStore, BlobTooLarge } from './blob-store';

/**
 * The behaviour every driver owes its callers, run against each of them (local folder, NATS
 * Object Store, S3). `makeStore` is called once per file, in beforeAll; the suite isolates its
 * keys under a random folder, so several suites may share one store.
 */
export function describeBlobStore(name: string, makeStore: () => Promise<{ store: BlobStore; close(): Promise<void> }>): void {
  describe(`BlobStore contract: ${name}`, () => {
    let opened: { store: BlobStore; close(): Promise<void> } | undefined;
    let store: BlobStore;
    const folder = `contract-${randomBytes(4).toString('hex')}`;

    beforeAll(async () => {
      opened = await makeStore();
      store = opened.store;
    });
    afterAll(async () => {
      await opened?.close();
    });

    it('gives back, byte for byte, what it was given (several chunks, several MB)', async () => {
      const bytes = randomBytes(3 * 1024 * 1024 + 12_345);
      const put = await store.put(`${folder}/round/trip.bin`, chunked(bytes, 64 * 1024), { contentType: 'application/octet-stream' });
      expect(put).toMatchObject({ key: `${folder}/round/trip.bin`, size: bytes.length });
      const read = await store.get(`${folder}/round/trip.bin`);
      expect(read).toMatchObject({ key: `${folder}/round/trip.bin`, size: bytes.length });
      expect((await readAll(read!.stream)).equals(bytes)).toBe(true);
    });

    it('stores an empty stream as an empty object', async () => {
      await store.put(`${folder}/empty`, Readable.from([]));
      expect((await store.stat(`${folder}/empty`))?.size).toBe(0);
      expect((await readAll((await store.get(`${folder}/empty`))!.stream)).length).toBe(0);
    });

    it('tells size and age without reading, and null for a missing key', async () => {
      const before = Date.now() - 2_000;
      await store.put(`${folder}/stat/one`, Readable.from([Buffer.from('hello')]));
      const info = await store.stat(`${folder}/stat/one`);
      expect(info).toMatchObject({ key: `${folder}/stat/one`, size: 5 });
      expect(info!.modifiedAt.getTime()).toBeGreaterThanOrEqual(before);
      expect(info!.modifiedAt.getTime()).toBeLessThanOrEqual(Date.now() + 2_000);
      expect(await store.stat(`${folder}/stat/missing`)).toBeNull();
      expect(await store.get(`${folder}/stat/missing`)).toBeNull();
    });

    it('keeps the media type given at put where the driver keeps one', async () => {
      await store.put(`${folder}/typed`, Readable.from([Buffer.from('{}')]), { contentType: 'application/json' });
      const expected = store.driver === 'local' ? undefined : 'application/json';
      expect((await store.stat(`${folder}/typed`))?.contentType).toBe(expected);
    });

    it('deletes, and deleting again or deleting a missing key is not an error', async () => {
      await store.put(`${folder}/gone`, Readable.from([Buffer.from('bye')]));
      await store.delete(`${folder}/gone`);
      expect(await store.stat(`${folder}/gone`)).toBeNull();
      expect(await store.get(`${folder}/gone`)).toBeNull();
      await expect(store.delete(`${folder}/gone`)).resolves.toBeUndefined();
      await expect(store.delete(`${folder}/never-was`)).resolves.toBeUndefined();
    });

    it('lists by prefix (whole folders and part of a name), with sizes, and not deleted keys', async () => {
      await store.put(`${folder}/list/a/one`, Readable.from([Buffer.from('1')]));
      await store.put(`${folder}/list/a/two`, Readable.from([Buffer.from('22')]));
      await store.put(`${folder}/list/ab/three`, Readable.from([Buffer.from('333')]));
      await store.put(`${folder}/list/b/four`, Readable.from([Buffer.from('4444')]));
      await store.put(`${folder}/list/b/five`, Readable.from([Buffer.from('5')]));
      await store.delete(`${folder}/list/b/five`);
      const listed = async (prefix: string) => {
        const found: Array<[string, number]> = [];
        for await (const info of store.list(prefix)) found.push([info.key, info.size]);
        return found.sort(([a], [b]) => a.localeCompare(b));
      };
      expect(await listed(`${folder}/list/a/`)).toEqual([[`${folder}/list/a/one`, 1], [`${folder}/list/a/two`, 2]]);
      expect(await listed(`${folder}/list/a`)).toEqual([[`${folder}/list/a/one`, 1], [`${folder}/list/a/two`, 2], [`${folder}/list/ab/three`, 3]]);
      expect(await listed(`${folder}/list/`)).toHaveLength(4);
      expect(await listed(`${folder}/list/b/f`)).toEqual([[`${folder}/list/b/four`, 4]]);
      expect(await listed(`${folder}/nothing-here/`)).toEqual([]);
    });

    it('refuses a stream past maxBytes with BlobTooLarge and keeps nothing', async () => {
      await expect(store.put(`${folder}/big`, chunked(randomBytes(300 * 1024), 16 * 1024), { maxBytes: 200 * 1024 })).rejects.toBeInstanceOf(BlobTooLarge);
      expect(await store.stat(`${folder}/big`)).toBeNull();
      expect(await keysUnder(store, `${folder}/big`)).toEqual([]);
      // Exactly maxBytes is allowed.
      await expect(store.put(`${folder}/exact`, Readable.from([Buffer.alloc(1024)]), { maxBytes: 1024 })).resolves.toMatchObject({ size: 1024 });
    });

    it('keeps nothing when the source stream fails midway', async () => {
      const failing = Readable.from(
        (async function* () {
          yield randomBytes(200 * 1024);
          await new Promise((resolve) => setImmediate(resolve));
          yield randomBytes(200 * 1024);
          throw new Error('client went away');
        })(),
      );
      await expect(store.put(`${folder}/broken`, failing)).rejects.toThrow('client went away');
      expect(await store.stat(`${folder}/broken`)).toBeNull();
      expect(await keysUnder(store, `${folder}/broken`)).toEqual([]);
    });

    it('a failed overwrite leaves the earlier bytes in place', async () => {
      await store.put(`${folder}/kept`, Readable.from([Buffer.from('original')]));
      await expect(store.put(`${folder}/kept`, chunked(randomBytes(4096), 1024), { maxBytes: 100 })).rejects.toBeInstanceOf(BlobTooLarge);
      expect((await readAll((await store.get(`${folder}/kept`))!.stream)).toString()).toBe('original');
    });

    it('refuses invalid keys and prefixes', async () => {
      for (const key of ['', '../escape', 'a/../b', '/absolute', 'trailing/', 'a//b', 'spaces in name', 'ünïcode', 'a~b', 'x'.repeat(513)]) {
        await expect(store.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow('invalid blob key');
        await expect(store.stat(key)).rejects.toThrow('invalid blob key');
        await expect(store.get(key)).rejects.toThrow('invalid blob key');
        await expect(store.delete(key)).rejects.toThrow('invalid blob key');
      }
      await expect(keysUnder(store, '../')).rejects.toThrow('invalid blob prefix');
    });

    it('overwrites: the last put wins, with its size', async () => {
      await store.put(`${folder}/over`, Readable.from([randomBytes(500 * 1024)]));
      const second = randomBytes(1000);
      await store.put(`${folder}/over`, Readable.from([second]));
      const read = await store.get(`${folder}/over`);
      expect(read?.size).toBe(1000);
      expect((await readAll(read!.stream)).equals(second)).toBe(true);
      expect(await keysUnder(store, `${folder}/over`)).toEqual([`${folder}/over`]);
    });
  });
}

/** The bytes as a stream of `size`-byte chunks. */
export function chunked(bytes: Buffer, size: number): Readable {
  return Readable.from(
    (function* () {
      for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
    })(),
  );
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

async function keysUnder(store: BlobStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const info of store.list(prefix)) keys.push(info.key);
  return keys;
}
