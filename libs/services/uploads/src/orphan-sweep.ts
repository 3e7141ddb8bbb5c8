import { STREAMED_FILES_PREFIX, UPLOAD_TIMEOUT_MS } from '@doable/contracts-uploads';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { BLOB_STORE, type BlobStore } from '@doable/shared-storage';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { UploadRepository } from './upload.repository';
import { UploadsService } from './uploads.service';

const SWEEP_EVERY_MS = 10 * 60 * 1000;
/** An upload older than its timeout plus this is finished one way or the other. */
const MARGIN_MS = 5 * 60 * 1000;
const BATCH = 500;

/** The millisecond stamp leading a file folder's name (`<millis>-<uuid>`). */
function stampOf(name: string): number | null {
  const match = /^([0-9]{13})-/.exec(name);
  return match ? Number(match[1]) : null;
}

export interface SweepResult {
  readonly deleted: number;
  readonly unrecorded: number;
}

/**
 * Collects bytes nobody will ask for: file folders nobody recorded (an upload the gateway
 * streamed but that never finished, or was refused and not cleaned up because a process died
 * mid-way; an import file its reader never deleted), older than the upload timeout, and the
 * bytes of deleted uploads that could not be removed at once. Every replica may sweep: each
 * step is safe to run twice (deleting a missing key is no error).
 */
@Injectable()
export class OrphanSweep implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly database: Database,
    private readonly uploads: UploadRepository,
    private readonly service: UploadsService,
    @Inject(BLOB_STORE) private readonly store: BlobStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweepLogged(), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async sweep(now = Date.now()): Promise<SweepResult> {
    const before = now - UPLOAD_TIMEOUT_MS - MARGIN_MS;
    const manager = this.database.dataSource.manager;
    let deleted = 0;
    for (const upload of await this.uploads.deletedWithBytes(manager, BATCH)) {
      await this.service.removeBytes(upload.storagePrefix);
      await this.uploads.markBytesRemoved(manager, upload.id);
      deleted++;
    }
    const stale = new Map<string, string[]>();
    for await (const { key } of this.store.list(STREAMED_FILES_PREFIX)) {
      const folder = key.slice(0, key.lastIndexOf('/'));
      const stamp = stampOf(folder.slice(STREAMED_FILES_PREFIX.length));
      if (stamp !== null && stamp < before) stale.set(folder, [...(stale.get(folder) ?? []), key]);
    }
    const known = await this.uploads.knownPrefixes(manager, [...stale.keys()]);
    let unrecorded = 0;
    for (const [folder, keys] of stale) {
      if (known.has(folder)) continue;
      for (const key of keys) await this.store.delete(key);
      unrecorded++;
    }
    return { deleted, unrecorded };
  }

  private async sweepLogged(): Promise<void> {
    try {
      const result = await this.sweep();
      if (result.deleted + result.unrecorded > 0) this.logger.info(result, 'upload orphans collected');
    } catch (err) {
      this.logger.warn({ err }, 'upload orphan sweep failed; retrying at the next interval');
    }
  }
}
