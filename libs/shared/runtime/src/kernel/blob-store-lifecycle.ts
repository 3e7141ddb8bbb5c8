import { BLOB_STORE, type BlobStore, closeBlobStore } from '@doable/shared-storage';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';

export const OWNS_BLOB_STORE = Symbol('OWNS_BLOB_STORE');

/** Closes the service's store on shutdown, unless it is the embedded system's shared one (the system closes that). */
@Injectable()
export class BlobStoreLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(BLOB_STORE) private readonly store: BlobStore,
    @Inject(OWNS_BLOB_STORE) private readonly owns: boolean,
  ) {}

  onApplicationShutdown(): void {
    if (this.owns) closeBlobStore(this.store);
  }
}
