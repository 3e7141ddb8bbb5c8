import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { describeBlobStore } from './blob-store.contract';
import { S3BlobStore } from './s3-blob-store';

/** s3rver, a fake S3 server, in this process on a free port over a temporary folder. */
async function startFakeS3(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'doable-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

async function openStore() {
  const fake = await startFakeS3();
  const options = { endpoint: fake.endpoint, region: 'us-east-1', bucket: 'doable-files', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } };
  // Platform teams provision the bucket; here the test does.
  const admin = new S3Client({ ...options, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
  await admin.send(new CreateBucketCommand({ Bucket: options.bucket }));
  admin.destroy();
  const store = new S3BlobStore(options);
  return {
    store,
    async close() {
      store.close();
      await fake.close();
    },
  };
}

describeBlobStore('S3 (s3rver)', () => openStore());

// Listing across pages is covered by s3-blob-store.spec.ts: s3rver's continuation tokens are
// DES-encrypted, which OpenSSL 3 (Node 18+) no longer offers, so it fails any second page.
