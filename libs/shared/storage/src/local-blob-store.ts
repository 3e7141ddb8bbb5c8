import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, opendir, rename, rm, stat } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type BlobInfo, type BlobPutOptions, type BlobRead, type BlobStore, BlobTooLarge, checkBlobKey, checkBlobPrefix } from './blob-store';

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

// `~` is not a key character (checkBlobKey), so a file being written never collides with a key
// and list() can tell it apart without a folder of its own.
const PARTIAL = '~';

/**
 * A folder on the local disk: the embedded mode's store (one process, one disk). A put writes
 * to a temporary name and renames it into place, so a reader never sees half a file and a
 * failed put leaves the key as it was. The media type is not kept (the owning service records
 * it with the file).
 */
export class LocalBlobStore implements BlobStore {
  readonly driver = 'local' as const;

  /** The folder (tests look in it for partial files a failed put must not leave). */
  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    return join(this.root, ...checkBlobKey(key).split('/'));
  }

  async put(key: string, source: Readable, options: BlobPutOptions = {}): Promise<BlobInfo> {
    const target = this.pathOf(key);
    const temporary = `${target}${PARTIAL}${randomUUID()}`;
    let size = 0;
    let writer: WriteStream | undefined;
    try {
      await mkdir(dirname(target), { recursive: true });
      writer = createWriteStream(temporary);
      await pipeline(source, byteLimit(options.maxBytes, (n) => (size = n)), writer);
      await rename(temporary, target);
    } catch (err) {
      // pipeline() settles when the source fails, perhaps before the file is even open: wait
      // for it to close, or the temporary file would be created after it was removed.
      if (writer && !writer.closed) await new Promise<void>((resolve) => writer!.once('close', () => resolve()));
      await rm(temporary, { force: true });
      source.destroy();
      throw err;
    }
    return { key, size, modifiedAt: new Date(), ...(options.contentType ? { contentType: options.contentType } : {}) };
  }

  async get(key: string): Promise<BlobRead | null> {
    const path = this.pathOf(key);
    // Open first, then stat the open file: a put renaming a new file into place meanwhile
    // cannot make the size disagree with the bytes.
    const stream = createReadStream(path);
    try {
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      });
    } catch (err) {
      stream.destroy();
      if (isMissing(err)) return null;
      throw err;
    }
    const found = await stat(path).catch(() => null);
    if (!found?.isFile()) {
      stream.destroy();
      return null;
    }
    return { key, size: found.size, modifiedAt: found.mtime, stream };
  }

  async stat(key: string): Promise<BlobInfo | null> {
    try {
      const found = await stat(this.pathOf(key));
      return found.isFile() ? { key, size: found.size, modifiedAt: found.mtime } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<BlobInfo> {
    checkBlobPrefix(prefix);
    // Walk the deepest whole folder the prefix names; the rest of it filters names.
    const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    for await (const info of this.walk(folder)) if (info.key.startsWith(prefix)) yield info;
  }

  private async *walk(folder: string): AsyncIterable<BlobInfo> {
    let entries;
    try {
      entries = await opendir(join(this.root, ...folder.split('/').filter(Boolean)));
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    // opendir reads the folder in pages, so a huge folder is not one array in memory.
    for await (const entry of entries) {
      const key = folder + entry.name;
      if (entry.isDirectory()) yield* this.walk(`${key}/`);
      else if (entry.isFile() && !entry.name.includes(PARTIAL)) {
        const found = await stat(join(this.root, ...key.split('/'))).catch(() => null);
        if (found) yield { key, size: found.size, modifiedAt: found.mtime };
      }
    }
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}
