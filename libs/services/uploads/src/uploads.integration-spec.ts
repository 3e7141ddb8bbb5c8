import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { EventEnvelope, Principal } from '@doable/contracts-common';
import { BUILTIN_FREE, type PlanInfo } from '@doable/contracts-plans';
import { type ObjectEvent, SyncEvents } from '@doable/contracts-sync';
import { STREAMED_FILES_PREFIX, streamedFileKey } from '@doable/contracts-uploads';
import { DomainError } from '@doable/shared-errors';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database, EventConsumers, type ServiceDefinition } from '@doable/shared-runtime';
import { LocalBlobStore } from '@doable/shared-storage';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import { InProcessBroker, InProcessEventBus, type ServiceClient } from '@doable/shared-transport';
import sharp from 'sharp';
import type { DataSource } from 'typeorm';
import { uploadsMigrations } from './migrations';
import { AvatarsService } from './avatars/avatars.service';
import { OrphanSweep } from './orphan-sweep';
import { attachmentOf, listedUploadOf } from './upload-shapes';
import { UploadRepository } from './upload.repository';
import { UploadsRpcController } from './uploads.rpc-controller';
import { uploadsService } from './uploads.service-definition';
import { UploadsService } from './uploads.service';

const MIB = 1024 * 1024;
const principal = (userId: string, scopes: Principal['scopes'] = ['data:read', 'data:read_write', 'data:delete']): Principal => ({ userId, scopes, appId: null, tokenKind: 'personal' });
const ANN = principal('101');
const BOB = principal('102');

/** A WAV of `seconds` of silence (8 kHz, 8-bit mono): a header and zero bytes. */
function wav(seconds: number): Buffer {
  const rate = 8000;
  const data = Buffer.alloc(rate * seconds, 128);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

describe('uploads service (real PostgreSQL, a local blob store)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let folder: string;
  let store: LocalBlobStore;
  let service: UploadsService;
  let consumers: EventConsumers;
  let sweep: OrphanSweep;
  const plans = new Map<string, PlanInfo>();
  const bus = new InProcessEventBus(new InProcessBroker(), '');

  const stage = async (bytes: Buffer): Promise<{ key: string; size: number }> => {
    const key = streamedFileKey(Date.now(), randomUUID());
    await store.put(key, Readable.from([bytes]));
    return { key, size: bytes.length };
  };
  const upload = async (who: Principal, bytes: Buffer, fileName: string, declaredType: string | null = null) => {
    const staged = await stage(bytes);
    return service.add(who, { ...staged, fileName, declaredType }, {});
  };
  const refusal = async (work: Promise<unknown>): Promise<DomainError> => {
    const error = await work.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  };
  const keys = async (prefix: string): Promise<string[]> => {
    const found: string[] = [];
    for await (const { key } of store.list(prefix)) found.push(key);
    return found.sort();
  };

  beforeAll(async () => {
    database = await createTestDatabase('uploads_service');
    dataSource = createServiceDataSource({ schema: 'uploads', url: database.url, poolSize: 4, applicationName: 'test', migrations: uploadsMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    folder = await mkdtemp(join(tmpdir(), 'doable-uploads-'));
    store = new LocalBlobStore(folder);
    const logger = createLogger('test', 'silent');
    const db = new Database(dataSource, 'uploads', new OutboxRelay(dataSource, 'uploads', { publish: () => Promise.resolve() }, logger, 3_600_000));
    // The plans service's answer, per user (the only call uploads makes to another service).
    const services = { request: (_subject: unknown, payload: { userId: string }) => Promise.resolve({ current: plans.get(payload.userId) ?? BUILTIN_FREE, next: null }) } as unknown as ServiceClient;
    const repository = new UploadRepository();
    service = new UploadsService(db, repository, services, store, { maxMb: 100, urlKey: '' });
    consumers = new EventConsumers(uploadsService as unknown as ServiceDefinition, bus, logger, db);
    new UploadsRpcController(service, new AvatarsService(services, store), consumers);
    await consumers.start();
    sweep = new OrphanSweep(db, repository, service, store, logger);
  });

  afterAll(async () => {
    await consumers.stop();
    await dataSource.destroy();
    await database.drop();
    await rm(folder, { recursive: true, force: true });
  });

  beforeEach(() => plans.clear());

  it('types an image from its bytes and makes tn_s, tn_m and tn_l inside 96, 288 and 528 pixel squares', async () => {
    const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const record = await upload(ANN, png, 'photo.png', 'application/octet-stream');
    expect(record).toMatchObject({ fileType: 'image/png', fileSize: png.length, fileName: 'photo.png' });
    expect(record.thumbnails).toEqual({ tn_s: [96, 64], tn_m: [288, 192], tn_l: [528, 352] });
    for (const name of ['tn_s', 'tn_m', 'tn_l'] as const) {
      const stored = await store.get(`${record.storagePrefix}/${name}`);
      const chunks: Buffer[] = [];
      for await (const chunk of stored!.stream) chunks.push(chunk as Buffer);
      const meta = await sharp(Buffer.concat(chunks)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', ...record.thumbnails[name]!]);
    }
    const urls = await service.urlSigner();
    const attachment = attachmentOf(record, 'v1', urls, 'https://doable.test');
    expect(attachment).toMatchObject({ resource_type: 'file', file_type: 'image/png', upload_state: 'completed', tn_s: [expect.stringContaining('/tn_s/photo.jpg'), 96, 64] });
    // Adopted where the gateway streamed it: the original and its thumbnails, one folder.
    expect(await keys(`${record.storagePrefix}/`)).toEqual(['original', 'tn_l', 'tn_m', 'tn_s'].map((name) => `${record.storagePrefix}/${name}`));
    // A small image is not enlarged.
    const small = await upload(ANN, await sharp({ create: { width: 120, height: 60, channels: 3, background: '#000' } }).jpeg().toBuffer(), 'small.jpg');
    expect(small.thumbnails).toEqual({ tn_s: [96, 48], tn_m: [120, 60], tn_l: [120, 60] });
  });

  it('trusts no declared type: text stays text, a fake image and unknown bytes are octet-stream', async () => {
    expect((await upload(ANN, Buffer.from('a,b\n1,2\n'), 'data.csv', 'text/csv')).fileType).toBe('text/csv');
    expect((await upload(ANN, Buffer.from('<html><script>x</script></html>'), 'page.html', 'text/html')).fileType).toBe('text/plain');
    const fake = await upload(ANN, Buffer.from([0x00, 0xff, 0x13, 0x37, 0x80, 0x81]), 'fake.png', 'image/png');
    expect(fake.fileType).toBe('application/octet-stream');
    expect(fake.thumbnails).toEqual({});
  });

  it('reads an audio file duration in seconds', async () => {
    const record = await upload(ANN, wav(3), 'tone.wav', 'audio/wav');
    expect(record.fileType).toMatch(/^audio\//);
    expect(record.fileDuration).toBe(3);
    expect(attachmentOf(record, 'v7', await service.urlSigner(), 'http://h')).toMatchObject({ file_duration: 3 });
  });

  it('holds the plan limit at its boundary and refuses a plan without uploads', async () => {
    plans.set(ANN.userId, { ...BUILTIN_FREE, upload_limit_mb: 1 });
    const existing = await keys(STREAMED_FILES_PREFIX);
    expect(await service.limit(ANN)).toEqual({ maxBytes: MIB });
    const exact = await upload(ANN, Buffer.alloc(MIB, 'a'), 'exact.txt');
    expect(exact.fileSize).toBe(MIB);
    const over = await refusal(upload(ANN, Buffer.alloc(MIB + 1, 'a'), 'over.txt'));
    expect(over.code).toBe('UPLOAD_SIZE_LIMIT_REACHED');
    plans.set(ANN.userId, { ...BUILTIN_FREE, uploads: false });
    const premium = await refusal(service.limit(ANN));
    expect([premium.code, premium.extra]).toEqual(['FEATURE_NOT_IN_PLAN', expect.objectContaining({ feature: 'uploads' })]);
    expect((await refusal(service.limit(principal(ANN.userId, ['data:read'])))).code).toBe('FORBIDDEN');
    // The refused file's folder went with the refusal; only the accepted one stayed.
    expect(await keys(STREAMED_FILES_PREFIX)).toEqual([...existing, `${exact.storagePrefix}/original`].sort());
  });

  it('lists newest first in pages, and never another user\'s uploads', async () => {
    const carl = principal('103');
    const made = [];
    for (let index = 0; index < 5; index++) made.push(await upload(carl, Buffer.from(`note ${index}`), `n${index}.txt`));
    const first = await service.list(carl, 2, null);
    expect(first.map((r) => r.fileName)).toEqual(['n4.txt', 'n3.txt']);
    const second = await service.list(carl, 2, first[1].id);
    expect(second.map((r) => r.fileName)).toEqual(['n2.txt', 'n1.txt']);
    expect(await service.list(BOB, 50, null)).toEqual([]);
    const urls = await service.urlSigner();
    const v7 = listedUploadOf(made[0], 'v7', urls, 'http://h');
    expect(v7).toMatchObject({ id: Number(made[0].id), user_id: 103, filename: 'n0.txt', uploaded: expect.stringMatching(/^[A-Z][a-z]{2} \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d \+0000$/) });
    expect(listedUploadOf(made[0], 'v9', urls, 'http://h')).toMatchObject({ id: made[0].id, user_id: '103' });
  });

  it('serves a file only under its signed URL, lets only its owner delete it, and then answers nothing', async () => {
    const record = await upload(ANN, Buffer.from('secret notes'), 'mine.txt');
    const urls = await service.urlSigner();
    const url = urls.url('http://h', record.id, record.fileName);
    const path = new URL(url).pathname;
    expect(await service.blobFor(path)).toMatchObject({ size: 12, contentType: 'text/plain', fileName: 'mine.txt', disposition: 'attachment' });
    expect(await service.blobFor(path.replace(urls.signature(record.id), urls.signature(String(Number(record.id) + 1))))).toBeNull();
    expect(await service.blobFor(`/uploads/files/${Number(record.id) + 1}/${urls.signature(record.id)}/mine.txt`)).toBeNull();
    expect((await refusal(service.delete(BOB, url))).code).toBe('NOT_FOUND');
    expect((await refusal(service.delete(principal(ANN.userId, ['data:read_write']), url))).code).toBe('FORBIDDEN');
    await service.delete(ANN, url);
    expect(await service.blobFor(path)).toBeNull();
    expect(await keys(`${record.storagePrefix}/`)).toEqual([]);
    expect((await refusal(service.delete(ANN, url))).code).toBe('NOT_FOUND');
  });

  it('links an upload to the comment that names it, once per event, only for its uploader', async () => {
    const record = await upload(ANN, Buffer.from('attached'), 'a.txt');
    const url = (await service.urlSigner()).url('https://elsewhere.example', record.id, record.fileName);
    const event = (overrides: Partial<ObjectEvent>): EventEnvelope<ObjectEvent> => ({
      id: randomUUID(),
      subject: SyncEvents.objectEvent.name,
      occurredAt: new Date().toISOString(),
      payload: {
        objectType: 'note',
        objectId: '9001',
        eventType: 'added',
        initiatorId: ANN.userId,
        eventDate: new Date().toISOString(),
        parentProjectId: '7001',
        parentItemId: '8001',
        workspaceId: null,
        extraData: {},
        fileUrl: url,
        ...overrides,
      },
    });
    const linked = async () => (await service.list(ANN, 50, null)).find((r) => r.id === record.id);
    await bus.publish(event({ initiatorId: BOB.userId, objectId: '9999' }));
    await bus.publish(event({ fileUrl: url.replace(/files\/(\d+)\/[^/]+/, 'files/$1/forged') }));
    const added = event({});
    await bus.publish(added);
    await bus.publish(added);
    await waitForValue(async () => (await linked())?.noteId, '9001');
    expect(await linked()).toMatchObject({ noteId: '9001', itemId: '8001', projectId: '7001' });
  });

  it('links an upload named by a comment among the entries of a v2 event (a request\'s changes in one)', async () => {
    const record = await upload(ANN, Buffer.from('attached in a batch'), 'b.txt');
    const url = (await service.urlSigner()).url('https://elsewhere.example', record.id, record.fileName);
    const change = (overrides: Partial<ObjectEvent>): ObjectEvent => ({
      objectType: 'note',
      objectId: '9101',
      eventType: 'added',
      initiatorId: ANN.userId,
      eventDate: new Date().toISOString(),
      parentProjectId: '7101',
      parentItemId: '8101',
      workspaceId: null,
      extraData: {},
      fileUrl: url,
      ...overrides,
    });
    const payload = { events: [change({ objectType: 'item', objectId: '8101', fileUrl: undefined }), change({ initiatorId: BOB.userId, objectId: '9999' }), change({})] };
    await bus.publish({ id: randomUUID(), subject: SyncEvents.objectEvents.name, occurredAt: new Date().toISOString(), payload });
    await waitForValue(async () => (await service.list(ANN, 50, null)).find((r) => r.id === record.id)?.noteId, '9101');
    expect((await service.list(ANN, 50, null)).find((r) => r.id === record.id)).toMatchObject({ noteId: '9101', itemId: '8101', projectId: '7101' });
  });

  it('reads only the comments of a v2 event: a task entry it cannot read does not stop it, a comment it cannot read refuses the event', async () => {
    const record = await upload(ANN, Buffer.from('attached beside a bad task'), 'c.txt');
    const url = (await service.urlSigner()).url('https://elsewhere.example', record.id, record.fileName);
    const note: ObjectEvent = {
      objectType: 'note',
      objectId: '9201',
      eventType: 'added',
      initiatorId: ANN.userId,
      eventDate: new Date().toISOString(),
      parentProjectId: '7201',
      parentItemId: '8201',
      workspaceId: null,
      extraData: {},
      fileUrl: url,
    };
    const envelope = (events: unknown[]) => ({ id: randomUUID(), subject: SyncEvents.objectEvents.name, occurredAt: new Date().toISOString(), payload: { events } });
    const linkedNote = async () => (await service.list(ANN, 50, null)).find((r) => r.id === record.id)?.noteId ?? null;
    // A comment whose task id is not an id: refused whole, as before (and linked nothing).
    await expect(bus.publish(envelope([{ ...note, parentItemId: 'not an id' }]))).rejects.toThrow();
    expect(await linkedNote()).toBeNull();
    // A task whose object and extra data are unreadable: not this consumer's to read, so the comment beside it links.
    const task = { ...note, objectType: 'item', objectId: '8201', fileUrl: undefined, extraData: 'unreadable', object: ['not', 'a', 'task'] };
    await bus.publish(envelope([task, note]));
    expect(await linkedNote()).toBe('9201');
  });

  it('sweeps unrecorded file folders past the upload timeout and the bytes of deleted uploads', async () => {
    const old = Date.now() - 11 * 60 * 1000;
    const crashed = streamedFileKey(old, randomUUID());
    await store.put(crashed, Readable.from([Buffer.from('streamed, never recorded')]));
    const fresh = streamedFileKey(Date.now(), randomUUID());
    await store.put(fresh, Readable.from([Buffer.from('in flight')]));
    const kept = await upload(ANN, Buffer.from('kept'), 'kept.txt');
    const result = await sweep.sweep(Date.now() + 60 * 60 * 1000 > 0 ? Date.now() : 0);
    expect(result).toMatchObject({ unrecorded: 1 });
    expect(await keys(crashed)).toEqual([]);
    // Still within the upload timeout: perhaps being written now.
    expect(await keys(fresh)).toEqual([fresh]);
    await store.delete(fresh);
    // A recorded upload's bytes are never collected, however old.
    expect((await sweep.sweep(Date.now() + 24 * 60 * 60 * 1000)).unrecorded).toBe(0);
    expect(await keys(`${kept.storagePrefix}/`)).toEqual([`${kept.storagePrefix}/original`]);
  });
});

async function waitForValue<T>(read: () => Promise<T>, expected: T, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await read()) !== expected) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(expected)}`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}
