import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Principal } from '@doable/contracts-common';
import { SyncSubjects } from '@doable/contracts-sync';
import { streamedFileKey } from '@doable/contracts-uploads';
import { DomainError } from '@doable/shared-errors';
import { LocalBlobStore } from '@doable/shared-storage';
import type { ServiceClient } from '@doable/shared-transport';
import sharp from 'sharp';
import { makeAvatarSizes } from './avatar-sizes';
import { AvatarsService } from './avatars.service';

const ANN: Principal = { userId: '101', scopes: ['data:read', 'data:read_write'], appId: null, tokenKind: 'personal' };
const READER: Principal = { ...ANN, scopes: ['data:read'] };

async function refusal(work: Promise<unknown>): Promise<DomainError> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('avatar sizes (sharp, real image files)', () => {
  it('makes big, medium, small and s640 as 195, 60, 35 and 640 pixel JPEG squares from a wide PNG with transparency', async () => {
    const png = await sharp({ create: { width: 900, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    const sizes = await makeAvatarSizes(png);
    const measured = await Promise.all(Object.entries(sizes).map(async ([size, data]) => [size, await sharp(data).metadata()] as const));
    expect(Object.fromEntries(measured.map(([size, meta]) => [size, [meta.format, meta.width, meta.height]]))).toEqual({
      big: ['jpeg', 195, 195],
      medium: ['jpeg', 60, 60],
      small: ['jpeg', 35, 35],
      s640: ['jpeg', 640, 640],
    });
    // Transparency lies on white, not black (JPEG has no alpha).
    const { data } = await sharp(sizes.small).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(240);
  });

  it('enlarges a tiny GIF to every size and keeps its colour', async () => {
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff0000' } }).gif().toBuffer();
    const sizes = await makeAvatarSizes(gif);
    const meta = await sharp(sizes.s640).metadata();
    expect([meta.width, meta.height]).toEqual([640, 640]);
    const { data } = await sharp(sizes.big).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200);
    expect(data[1]).toBeLessThan(60);
  });

  it('refuses bytes that are not an image, and an image cut short, with INVALID_ARGUMENT_VALUE', async () => {
    expect((await refusal(makeAvatarSizes(Buffer.from('plain text, not a picture')))).code).toBe('INVALID_ARGUMENT_VALUE');
    const jpeg = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#0000ff' } }).jpeg().toBuffer();
    expect((await refusal(makeAvatarSizes(jpeg.subarray(0, jpeg.length / 3)))).code).toBe('INVALID_ARGUMENT_VALUE');
    expect((await refusal(makeAvatarSizes(Buffer.alloc(0)))).code).toBe('INVALID_ARGUMENT_VALUE');
  });
});

describe('avatars service (a local blob store)', () => {
  let folder: string;
  let store: LocalBlobStore;
  let service: AvatarsService;
  /** What sync would hold: the image id on each user's row (the one call avatars makes to another service). */
  const profiles = new Map<string, string | null>();
  let syncDown = false;

  const stage = async (bytes: Buffer) => {
    const key = streamedFileKey(Date.now(), randomUUID());
    await store.put(key, Readable.from([bytes]));
    return { key, size: bytes.length, fileName: 'me.png', declaredType: 'image/png' };
  };
  const keys = async (prefix: string): Promise<string[]> => {
    const found: string[] = [];
    for await (const { key } of store.list(prefix)) found.push(key);
    return found.sort();
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'doable-avatars-'));
    store = new LocalBlobStore(folder);
    const services = {
      request: (subject: { name: string }, payload: { userId: string; imageId: string | null }) => {
        expect(subject.name).toBe(SyncSubjects.setAvatar.name);
        if (syncDown) return Promise.reject(new DomainError('SERVICE_UNAVAILABLE'));
        const previousImageId = profiles.get(payload.userId) ?? null;
        profiles.set(payload.userId, payload.imageId);
        return Promise.resolve({ previousImageId });
      },
    } as unknown as ServiceClient;
    service = new AvatarsService(services, store);
  });

  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('stores every size under a new image id, serves each by its URL path, and removes the staged file and the avatar it replaced', async () => {
    const png = await sharp({ create: { width: 300, height: 500, channels: 3, background: '#336699' } }).png().toBuffer();
    const first = await service.set(ANN, await stage(png), 'https://doable.test');
    expect(first.image_id).toMatch(/^[0-9a-f]{32}$/);
    expect(first).toEqual({
      image_id: first.image_id,
      avatar_big: `https://doable.test/avatars/${first.image_id}_big.jpg`,
      avatar_medium: `https://doable.test/avatars/${first.image_id}_medium.jpg`,
      avatar_small: `https://doable.test/avatars/${first.image_id}_small.jpg`,
      avatar_s640: `https://doable.test/avatars/${first.image_id}_s640.jpg`,
    });
    expect(await keys('files/')).toEqual([]);
    expect(await keys('avatars/')).toHaveLength(4);
    const blob = await service.blobFor(`/avatars/${first.image_id}_medium.jpg`);
    expect(blob).toMatchObject({ contentType: 'image/jpeg', disposition: 'inline' });
    const served = await store.get(blob!.key);
    const chunks: Buffer[] = [];
    for await (const chunk of served!.stream) chunks.push(chunk as Buffer);
    expect(await sharp(Buffer.concat(chunks)).metadata()).toMatchObject({ format: 'jpeg', width: 60, height: 60 });

    const second = await service.set(ANN, await stage(png), 'https://doable.test');
    expect(second.image_id).not.toBe(first.image_id);
    expect(profiles.get(ANN.userId)).toBe(second.image_id);
    expect(await service.blobFor(`/avatars/${first.image_id}_medium.jpg`)).toBeNull();
    expect((await keys('avatars/')).every((key) => key.startsWith(`avatars/${second.image_id}/`))).toBe(true);

    expect(await service.remove(ANN)).toEqual({ image_id: null });
    expect(await keys('avatars/')).toEqual([]);
  });

  it('refuses a file that is not an image, a token without a writing scope, and keeps nothing of either', async () => {
    expect((await refusal(service.set(ANN, await stage(Buffer.from('%PDF-1.4 not really')), 'https://doable.test'))).code).toBe('INVALID_ARGUMENT_VALUE');
    const png = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#000' } }).png().toBuffer();
    expect((await refusal(service.set(READER, await stage(png), 'https://doable.test'))).code).toBe('FORBIDDEN');
    expect((await refusal(service.remove(READER))).code).toBe('FORBIDDEN');
    expect(await keys('files/')).toEqual([]);
    expect(await keys('avatars/')).toEqual([]);
  });

  it('keeps no sizes when sync cannot name the new avatar', async () => {
    const png = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#000' } }).png().toBuffer();
    syncDown = true;
    try {
      expect((await refusal(service.set(ANN, await stage(png), 'https://doable.test'))).code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      syncDown = false;
    }
    expect(await keys('avatars/')).toEqual([]);
    expect(await keys('files/')).toEqual([]);
  });

  it('answers null (404) for any path that is not an avatar size', async () => {
    for (const path of ['/avatars/nothing.jpg', '/avatars/0123456789abcdef0123456789abcdef_huge.jpg', '/avatars/0123456789abcdef0123456789abcdef_big.jpg', '/avatars/../files/x']) {
      expect(await service.blobFor(path)).toBeNull();
    }
  });
});
