import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join, relative, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type BlobInfo, type BlobPutOptions, type BlobRead, type BlobStore, BlobTooLarge, checkBlobKey } from './blob-store';

/** Counts bytes and fails the pipeline past a limit. */
export function byteLimit(maxBytes: number | undefined, onSize: (size: number) => void): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      onSize(size);
      if (maxBytes !== undefined && size > maxBytes) done(new BlobTooLarge(maxBytes));
      else done(null, chunk);
    },
  });
}

/**
 * A folder on the local disk: the embedded mode's store (one process, one disk). A put writes
 * to a temporary name and renames it into place, so a reader never sees half a file and a
 * failed put leaves nothing under the key. The media type is not kept (the owning service
 * records it with the file).
 */
export class LocalBlobStore implements BlobStore {
  readonly driver = 'local' as const;

  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    return join(this.root, ...checkBlobKey(key).split('/'));
  }

  async put(key: string, source: Readable, options: BlobPutOptions = {}): Promise<BlobInfo> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    const temporary = `${target}.${randomUUID()}.part`;
    let size = 0;
    try {
      await pipeline(source, byteLimit(options.maxBytes, (n) => (size = n)), createWriteStream(temporary));
      await rename(temporary, target);
    } catch (err) {
      await rm(temporary, { force: true });
      source.destroy();
      throw err;
    }
    return { key, size, ...(options.contentType ? { contentType: options.contentType } : {}) };
  }

  async get(key: string): Promise<BlobRead | null> {
    const info = await this.stat(key);
    if (!info) return null;
    return { ...info, stream: createReadStream(this.pathOf(key)) };
  }

  async stat(key: string): Promise<BlobInfo | null> {
    try {
      const found = await stat(this.pathOf(key));
      return found.isFile() ? { key, size: found.size } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<string> {
    const start = prefix === '' ? this.root : this.pathOf(prefix.replace(/\/+$/, ''));
    yield* this.walk(start);
  }

  private async *walk(folder: string): AsyncIterable<string> {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw err;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) yield* this.walk(path);
      else if (entry.isFile() && !entry.name.endsWith('.part')) yield relative(this.root, path).split(sep).join('/');
    }
  }
}
