import { Readable } from 'node:stream';
import { createLogger } from '@doable/shared-logging';
import { createServiceApp, loadServiceConfig, type ServiceDefinition } from '@doable/shared-runtime';
import { BLOB_STORE, type BlobStore, defaultStorageBucket, objectStoreStreamName, ObjectStoreBlobStore } from '@doable/shared-storage';
import { deleteEventStream, TEST_NATS_URL, uniqueSubjectPrefix } from '@doable/shared-testing';
import { z } from 'zod';
import { startEmbeddedSystem } from './embedded-system';

async function text(store: BlobStore, key: string): Promise<string> {
  const read = await store.get(key);
  const parts: Buffer[] = [];
  for await (const part of read!.stream) parts.push(part as Buffer);
  return Buffer.concat(parts).toString();
}

/** Each test starts a whole system: seconds alone, longer late in a whole in-band `npm test`. */
const SYSTEM_START_TIMEOUT_MS = 120_000;

describe('the BLOB_STORE every service is given', () => {
  it('embedded: one store for the whole process, shared by gateway, uploads and sync', async () => {
    const system = await startEmbeddedSystem({ dataDir: 'memory://', port: 0, env: {}, initialData: process.env['DOABLE_TEST_PGLITE_ARCHIVE'] });
    try {
      const [gateway, uploads, sync] = ['gateway', 'uploads', 'sync'].map((name) => system.services.get(name)!.app.get<BlobStore>(BLOB_STORE));
      expect(gateway.driver).toBe('local');
      expect(uploads).toBe(gateway);
      expect(sync).toBe(gateway);
      await gateway.put('staging/one', Readable.from([Buffer.from('streamed by the gateway')]));
      expect(await text(uploads, 'staging/one')).toBe('streamed by the gateway');
    } finally {
      await system.close();
    }
  }, SYSTEM_START_TIMEOUT_MS);

  it('cluster: the Object Store by default, over the event bus connection, in a bucket named after the subject prefix', async () => {
    const subjectPrefix = uniqueSubjectPrefix('blob-wiring');
    const definition: ServiceDefinition = { name: 'rest', defaultPort: 0, env: z.object({}), imports: () => [] };
    const config = loadServiceConfig(definition, { NATS_URL: TEST_NATS_URL, NATS_SUBJECT_PREFIX: subjectPrefix, PORT: '0', LOG_LEVEL: 'silent' }, 'cluster');
    const service = await createServiceApp(definition, config, { transport: { kind: 'nats', url: TEST_NATS_URL, subjectPrefix, name: 'rest' }, migrateOnStart: false }, createLogger('rest', 'silent'));
    try {
      const store = service.app.get<BlobStore>(BLOB_STORE);
      expect(store).toBeInstanceOf(ObjectStoreBlobStore);
      expect((store as ObjectStoreBlobStore).bucket).toBe(defaultStorageBucket(subjectPrefix));
      await store.put('files/x', Readable.from([Buffer.from('in NATS')]));
      expect(await text(store, 'files/x')).toBe('in NATS');
    } finally {
      await service.close();
      await deleteEventStream(objectStoreStreamName(defaultStorageBucket(subjectPrefix)));
    }
  }, SYSTEM_START_TIMEOUT_MS);
});
