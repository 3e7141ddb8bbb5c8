import { type BlobStore, LocalBlobStore } from '@doable/shared-storage';
import type { Provider } from '@nestjs/common';

/**
 * Where this service gets its blob store: the one place to switch to shared-storage's
 * BLOB_STORE (configured by STORAGE_DRIVER) once that lands. Until then, a local folder
 * (UPLOADS_DIR), which processes on one machine share (embedded mode, the e2e cluster).
 */
export const UPLOADS_BLOB_STORE = Symbol('UPLOADS_BLOB_STORE');

export function uploadsBlobStoreProvider(folder: string): Provider<BlobStore> {
  return { provide: UPLOADS_BLOB_STORE, useFactory: (): BlobStore => new LocalBlobStore(folder) };
}
