import { type BlobStore, LocalBlobStore } from '@doable/shared-storage';
import type { Provider } from '@nestjs/common';

/**
 * Where the gateway gets its blob store (uploads are written here, downloads read from here):
 * the one place to switch to shared-storage's BLOB_STORE (STORAGE_DRIVER) once that lands.
 * Until then, the local folder the uploads service uses too (UPLOADS_DIR).
 */
export const GATEWAY_BLOB_STORE = Symbol('GATEWAY_BLOB_STORE');

export function gatewayBlobStoreProvider(folder: string): Provider<BlobStore> {
  return { provide: GATEWAY_BLOB_STORE, useFactory: (): BlobStore => new LocalBlobStore(folder) };
}
